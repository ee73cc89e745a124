import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { createLogger } from '../../apps/api/src/common/logging/logger';
import { loadConfig } from '../../apps/api/src/config/app-config';
import { createServer, RunningServer } from '../../apps/api/src/server';
import { sql } from '../utils/sql';

/** Three instances started at once on one empty database: migrations and seeding run once, under their locks. */
describe('instances started together on an empty database', () => {
  const adminUrl = process.env.RMM_TEST_ADMIN_URL!;
  const ROUNDS = 10;

  async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
    const name = `rmm_t_${process.env.RMM_TEST_RUN_PID ?? process.pid}_${randomBytes(5).toString('hex')}`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`).finally(() => admin.end());
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: async () => {
        const c = new Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => c.end());
      },
    };
  }

  const quiet = () => createLogger('warn', new Writable({ write: (_c, _e, done) => done() }));

  it(`all three start, ${ROUNDS} times out of ${ROUNDS}, with one default client, one default site and one function key`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const db = await emptyDatabase();
      const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'warn', RMM_ADMIN_API_KEY: 'concurrent-start-admin-key-0123456789' });
      const started = await Promise.allSettled([0, 1, 2].map(() => createServer(config, { logger: quiet() })));
      const servers = started.filter((s): s is PromiseFulfilledResult<RunningServer> => s.status === 'fulfilled').map((s) => s.value);
      try {
        const failures = started.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => String(s.reason));
        expect({ round, failures }).toEqual({ round, failures: [] });
        const tenants = await sql(db.url, `SELECT c.name AS client, s.name AS site, s.id AS site_id, c.id AS client_id FROM clients c JOIN sites s ON s.client_id = c.id`);
        expect(tenants).toEqual([{ client: 'Default', site: 'Default', site_id: expect.any(Number), client_id: expect.any(Number) }]);
        const keys = await sql(db.url, `SELECT name FROM api_keys ORDER BY name`);
        expect(keys).toEqual([{ name: 'admin (RMM_ADMIN_API_KEY)' }, { name: 'enroll-rmm function' }]);
        // Every instance uses the one tenant and the same generated secrets.
        for (const s of servers) {
          expect([s.runtime.rmmDefaultClientId, s.runtime.rmmDefaultSiteId]).toEqual([tenants[0].client_id, tenants[0].site_id]);
          expect(s.runtime.jwtSecret).toBe(servers[0].runtime.jwtSecret);
        }
      } finally {
        await Promise.all(servers.map((s) => s.close()));
        await db.drop();
      }
    }
  }, 180_000); // (ten rounds of three starts: about 50 s alone, more on a loaded machine)
});
