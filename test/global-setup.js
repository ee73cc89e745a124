// Runs once, in Jest's parent process, before the first medium or e2e test file (jest.config.js sets it on
// those two projects only, so `npm run test:unit` never builds nor starts PostgreSQL):
// 1. builds dist/ if stale (process tests spawn the real server and CLI from it), then the agent bundle
//    dist/agent/rmm-agent.js (test/agent spawns it; nest build empties dist/, so after the server);
// 2. picks the PostgreSQL: DATABASE_URL when set (CI's PostgreSQL 15), else an embedded server in a
//    temporary folder (fsync off), stopped by global-teardown.js;
// 3. migrates a template database once; each test file clones its own database from it.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');

const root = path.resolve(__dirname, '..');

module.exports = async function globalSetup() {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-if-stale.js')], { stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-agent.js'), '--if-stale'], { stdio: 'inherit' });
  const { startEmbeddedPostgres } = require(path.join(root, 'dist/apps/api/src/database/embedded-postgres.js'));
  const { runMigrations } = require(path.join(root, 'dist/apps/api/src/database/migrate.js'));

  let adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    process.stdout.write(`\ntests use the PostgreSQL at DATABASE_URL (${adminUrl.replace(/:[^:@/]*@/, ':***@')})\n`);
  } else {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'rmm-test-pg-'));
    fs.chmodSync(base, 0o755); // PostgreSQL runs as the postgres user when we are root
    const pg = await startEmbeddedPostgres({ dataDir: path.join(base, 'data'), fsync: false });
    globalThis.__RMM_TEST_PG__ = { pg, base };
    adminUrl = pg.adminUrl;
  }

  const template = `rmm_tpl_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await dropStale(admin);
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
  } finally {
    await admin.end();
  }
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${template}`;
  await runMigrations(templateUrl.toString());

  // Read by test/utils/test-db.ts in every worker (workers inherit this environment).
  process.env.RMM_TEST_ADMIN_URL = adminUrl;
  process.env.RMM_TEST_TEMPLATE_DB = template;
  process.env.RMM_TEST_RUN_PID = String(process.pid);
  globalThis.__RMM_TEST_TEMPLATE__ = { adminUrl, template };
};

/** Databases left by an earlier run that was killed (their creating process is gone). */
async function dropStale(admin) {
  const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname ~ '^rmm_(tpl|t)_[0-9]+'`);
  for (const { datname } of rows) {
    const pid = Number(/^rmm_(?:tpl|t)_(\d+)/.exec(datname)[1]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch (e) {
      alive = e.code === 'EPERM';
    }
    if (!alive) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
  }
}
