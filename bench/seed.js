'use strict';
/**
 * Bench database helpers: a fresh database on the PostgreSQL given by DATABASE_URL (or an embedded one when
 * none is given, started the way main.ts does), migrated by the server itself, seeded with N agents in one
 * INSERT … SELECT generate_series, and dropped at the end.
 */
const { Client } = require('pg');
const { mkdtempSync, rmSync, chmodSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');

/** Opens a bench database; returns { url, drop() }. */
async function createBenchDatabase(name, log = () => undefined) {
  let adminUrl = process.env.DATABASE_URL;
  let embedded;
  let dataDir;
  if (!adminUrl) {
    const { startEmbeddedPostgres } = require(join(ROOT, 'dist/apps/api/src/database/embedded-postgres.js'));
    dataDir = mkdtempSync(join(tmpdir(), 'rmm-bench-'));
    chmodSync(dataDir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir, fsync: false });
    adminUrl = embedded.adminUrl;
    log(`embedded PostgreSQL on port ${embedded.port}`);
  }
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      if (embedded) {
        await embedded.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** 20 clients, 5 sites each, `agents` agents spread over them (one statement each). */
async function seedAgents(url, agents) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`INSERT INTO clients (name) SELECT 'bench-client-' || g FROM generate_series(1, 20) g ON CONFLICT DO NOTHING`);
    await c.query(`INSERT INTO sites (client_id, name) SELECT c.id, 'site-' || g FROM clients c, generate_series(1, 5) g WHERE c.name LIKE 'bench-client-%'`);
    await c.query(
      `WITH s AS (SELECT row_number() OVER (ORDER BY id) - 1 AS n, id, client_id FROM sites WHERE client_id IN (SELECT id FROM clients WHERE name LIKE 'bench-client-%')),
            k AS (SELECT count(*) AS total FROM s)
       INSERT INTO agents (hostname, client_id, site_id, plat, monitoring_type, operating_system, version, last_seen, status,
                           logged_in_username, public_ip, local_ip, cpu_model, total_ram, disks, patches_pending, wmi_detail)
       SELECT 'host-' || lpad(g::text, 6, '0'), s.client_id, s.id, 'windows',
              CASE WHEN g % 5 = 0 THEN 'server' ELSE 'workstation' END,
              'Windows 11 Pro 23H2', '2.8.0', now() - (g % 300) * interval '1 second', 'online',
              'user' || g, '203.0.113.' || (g % 250), '10.0.' || (g / 250 % 250) || '.' || (g % 250), 'Intel(R) Core(TM) i7-1185G7', 16,
              jsonb_build_array(jsonb_build_object('device', 'C:', 'free', '120.5 GB', 'total', '475.8 GB', 'percent', 75)),
              g % 7, jsonb_build_object('make_model', 'Dell Latitude 7420', 'serial', 'SN' || g)
         FROM generate_series(1, $1::int) g, k
         JOIN s ON true
        WHERE s.n = g % k.total`,
      [agents],
    );
    await c.query('ANALYZE');
    const { rows } = await c.query(`SELECT id, hostname FROM agents ORDER BY id OFFSET $1 LIMIT 1`, [Math.floor(agents / 2)]);
    return { midId: rows[0].id, midHostname: rows[0].hostname };
  } finally {
    await c.end();
  }
}

module.exports = { createBenchDatabase, seedAgents };
