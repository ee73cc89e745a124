import { ALL_MIGRATIONS } from '../../migrations';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../apps/api/src/database/data-source';
import { runMigrations } from '../../apps/api/src/database/migrate';
import { pendingSchemaChanges } from '../../apps/api/src/database/schema-diff';
import { createTestDatabase, TestDatabase } from '../utils/test-db';

/** The spec's tables and columns ("Resources and their fields"), plus the backend's own tables. */
const EXPECTED_COLUMNS: Record<string, string[]> = {
  'auth.users': ['id', 'email', 'encrypted_password', 'created_at'],
  'public.user_profiles': ['id', 'rmm_client_id', 'rmm_site_id', 'rmm_agent_id'],
  'public.enrollment_log': [
    'id', 'user_id', 'deployment_uuid', 'client_id', 'site_id', 'hostname', 'platform',
    'requested_at', 'completed_at', 'agent_id', 'status',
  ],
  'public.clients': ['id', 'name'],
  'public.sites': ['id', 'client_id', 'name'],
  'public.agents': [
    'id', 'hostname', 'client_id', 'site_id', 'plat', 'operating_system', 'version', 'last_seen', 'status',
    'logged_in_username', 'public_ip', 'local_ip', 'cpu_model', 'total_ram', 'disks', 'patches_pending', 'wmi_detail',
    'monitoring_type',
  ],
  'public.deployments': ['id', 'uuid', 'client_id', 'site_id', 'expires_at', 'install_flags', 'arch', 'revoked_at'],
  'public.scripts': ['id', 'name', 'shell', 'description', 'body', 'default_args', 'default_timeout'],
  'public.checks': ['id', 'agent_id', 'check_type', 'name', 'status', 'more_info', 'last_run', 'settings', 'fails_b4_alert'],
  'public.tasks': ['id', 'name', 'agent_id', 'script_id', 'schedule', 'enabled', 'next_run_at'],
  'public.alerts': ['id', 'alert_type', 'agent_id', 'severity', 'message', 'created_at', 'snoozed', 'resolved', 'acknowledged_at'],
  'public.api_keys': ['id', 'name', 'prefix', 'secret_hash', 'scopes', 'expires_at', 'revoked_at', 'last_used_at'],
};

describe('database schema', () => {
  let db: TestDatabase;
  let pg: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
  });
  afterAll(async () => {
    await pg.end();
    await db.drop();
  });

  it('has no drift: migration:generate would write nothing after all migrations ran', async () => {
    expect(await pendingSchemaChanges(db.url)).toEqual([]);
  });

  it("has each entity's CHECK constraints as the entity writes them (the drift check compares them by name only)", async () => {
    // The entities alone, synchronized into an empty database, against the migrated one: PostgreSQL writes both
    // definitions back in its own form (pg_get_constraintdef), so they compare as text. A check whose values changed
    // in the entity (a new scope, status or event) but not in a migration differs here.
    const checks = async (c: Client): Promise<Map<string, string>> =>
      new Map(
        (await c.query(`SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'c'`)).rows.map(
          (r) => [`${r.t}.${r.conname}`, r.def as string],
        ),
      );
    const empty = await createTestDatabase({ empty: true });
    try {
      const scratch = new Client({ connectionString: empty.url });
      await scratch.connect();
      try {
        await scratch.query('CREATE SCHEMA auth');
        const ds = new DataSource({ ...dataSourceOptions(empty.url), migrations: [], migrationsRun: false, synchronize: true });
        await ds.initialize();
        await ds.destroy();
        const fromEntities = await checks(scratch);
        const migrated = await checks(pg);
        expect(fromEntities.size).toBeGreaterThan(10);
        for (const [name, def] of fromEntities) expect([name, migrated.get(name)]).toEqual([name, def]);
      } finally {
        await scratch.end();
      }
    } finally {
      await empty.drop();
    }
  });

  it.each(Object.entries(EXPECTED_COLUMNS))('has table %s with the columns of the spec', async (table, columns) => {
    const [schema, name] = table.split('.');
    const { rows } = await pg.query(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
      [schema, name],
    );
    expect(rows.map((r) => r.column_name)).toEqual(expect.arrayContaining(columns));
  });

  it('has the indexes enrollment_log and user_profiles need, the time one descending', async () => {
    const { rows } = await pg.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('enrollment_log', 'user_profiles')`,
    );
    const defs = rows.map((r) => r.indexdef as string);
    expect(defs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/enrollment_log USING btree \(user_id, requested_at DESC\)/),
        expect.stringMatching(/enrollment_log USING btree \(deployment_uuid\)/),
        expect.stringMatching(/user_profiles USING btree \(rmm_agent_id\)/),
      ]),
    );
  });

  describe('constraints live in the database', () => {
    let userId: string;
    let clientId: number;
    let siteId: number;

    beforeAll(async () => {
      userId = (await pg.query(`INSERT INTO auth.users (email, encrypted_password) VALUES ('c@x.io', 'h') RETURNING id`)).rows[0].id;
      clientId = (await pg.query(`INSERT INTO clients (name) VALUES ('Acme') RETURNING id`)).rows[0].id;
      siteId = (await pg.query(`INSERT INTO sites (client_id, name) VALUES ($1, 'HQ') RETURNING id`, [clientId])).rows[0].id;
    });

    const rejects = async (sql: string, params: unknown[], code: string): Promise<void> => {
      await expect(pg.query(sql, params)).rejects.toMatchObject({ code });
    };

    it('defaults enrollment_log.status to pending and requested_at to now, and rejects unknown statuses', async () => {
      const { rows } = await pg.query(
        `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id) VALUES ($1, 'd1', 1, 1) RETURNING status, requested_at`,
        [userId],
      );
      expect(rows[0].status).toBe('pending');
      expect(Math.abs(new Date(rows[0].requested_at).getTime() - Date.now())).toBeLessThan(60_000);
      await rejects(
        `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id, status) VALUES ($1, 'd2', 1, 1, 'done')`,
        [userId],
        '23514',
      );
    });

    it('requires enrollment_log.user_id to name a user', async () => {
      await rejects(
        `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id) VALUES (gen_random_uuid(), 'd3', 1, 1)`,
        [],
        '23503',
      );
    });

    it('rejects an agent platform, script shell, check type or alert severity outside the spec', async () => {
      await rejects(`INSERT INTO agents (hostname, plat) VALUES ('h', 'solaris')`, [], '23514');
      await rejects(`INSERT INTO scripts (name, shell) VALUES ('s', 'zsh')`, [], '23514');
      const agent = (await pg.query(`INSERT INTO agents (hostname, plat, client_id, site_id) VALUES ('h1', 'linux', $1, $2) RETURNING id`, [clientId, siteId])).rows[0].id;
      await rejects(`INSERT INTO checks (agent_id, check_type, name) VALUES ($1, 'smart', 'x')`, [agent], '23514');
      await rejects(`INSERT INTO alerts (agent_id, alert_type, severity, message) VALUES ($1, 'check_failure', 'critical', 'x')`, [agent], '23514');
    });

    it('keeps one agent per (client, hostname)', async () => {
      await pg.query(`INSERT INTO agents (hostname, plat, client_id, site_id) VALUES ('dup', 'windows', $1, $2)`, [clientId, siteId]);
      await rejects(`INSERT INTO agents (hostname, plat, client_id, site_id) VALUES ('dup', 'windows', $1, $2)`, [clientId, siteId], '23505');
    });

    it('refuses an agent or deployment whose site belongs to another client', async () => {
      const other = (await pg.query(`INSERT INTO clients (name) VALUES ('Other') RETURNING id`)).rows[0].id;
      await rejects(`INSERT INTO agents (hostname, plat, client_id, site_id) VALUES ('x', 'linux', $1, $2)`, [other, siteId], '23503');
      await rejects(
        `INSERT INTO deployments (client_id, site_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
        [other, siteId],
        '23503',
      );
    });

    it('refuses to delete a client that still has agents', async () => {
      await pg.query(`INSERT INTO agents (hostname, plat, client_id, site_id) VALUES ('keeps-its-client', 'linux', $1, $2)`, [clientId, siteId]);
      // PostgreSQL 18 says restrict_violation (23001), 15 foreign_key_violation (23503).
      await expect(pg.query(`DELETE FROM clients WHERE id = $1`, [clientId])).rejects.toMatchObject({
        code: expect.stringMatching(/^(23001|23503)$/),
      });
    });

    it('accepts only the documented API key scopes, and at least one', async () => {
      await rejects(`INSERT INTO api_keys (name, prefix, secret_hash, scopes) VALUES ('k', 'p', 'h1', '{root}')`, [], '23514');
      await rejects(`INSERT INTO api_keys (name, prefix, secret_hash, scopes) VALUES ('k', 'p', 'h2', '{}')`, [], '23514');
      await pg.query(`INSERT INTO api_keys (name, prefix, secret_hash, scopes) VALUES ('k', 'p', 'h3', '{agents:read,alerts:write}')`);
    });
  });

  it('migrates down to nothing and up again', async () => {
    const scratch = await createTestDatabase();
    const ds = new DataSource(dataSourceOptions(scratch.url));
    await ds.initialize();
    try {
      while ((await ds.query(`SELECT count(*)::int AS n FROM migrations`))[0].n > 0) await ds.undoLastMigration();
      const { rows } = await pg.query(`SELECT 1`); // the other database is untouched
      expect(rows).toHaveLength(1);
      const left = await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_schema IN ('public', 'auth') AND table_name <> 'migrations'`);
      expect(left).toEqual([]);
    } finally {
      await ds.destroy();
    }
    expect((await runMigrations(scratch.url)).length).toBeGreaterThan(0);
    expect(await pendingSchemaChanges(scratch.url)).toEqual([]);
    await scratch.drop();
  });

  it('lets two instances migrate at once: one waits on the advisory lock, neither fails', async () => {
    const scratch = await createTestDatabase();
    const ds = new DataSource(dataSourceOptions(scratch.url));
    await ds.initialize();
    while ((await ds.query(`SELECT count(*)::int AS n FROM migrations`))[0].n > 0) await ds.undoLastMigration();
    await ds.destroy();
    const [a, b] = await Promise.all([runMigrations(scratch.url), runMigrations(scratch.url)]);
    // Every migration ran exactly once, by one of the two.
    expect([...a, ...b].sort()).toEqual(ALL_MIGRATIONS.map((m) => m.name).sort());
    await scratch.drop();
  });
});
