'use strict';
const fs = require('node:fs');
const { Client } = require('pg');

module.exports = async function globalTeardown() {
  const tpl = globalThis.__RMM_TEST_TEMPLATE__;
  if (tpl) {
    const admin = new Client({ connectionString: tpl.adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`, [
        tpl.template,
        `rmm_t_${process.pid}_%`,
      ]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
  const embedded = globalThis.__RMM_TEST_PG__;
  if (embedded) {
    await embedded.pg.stop();
    fs.rmSync(embedded.base, { recursive: true, force: true });
  }
};
