import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file (or an empty one: `empty`), cloned from the template that global-setup.js
 * migrated, so files run in parallel and never see each other's rows.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.RMM_TEST_ADMIN_URL;
  const template = process.env.RMM_TEST_TEMPLATE_DB;
  if (!adminUrl || !template) throw new Error('test database not prepared: run the tests through jest (test/global-setup.js)');
  // Named after Jest's parent process so a killed run's leftovers are recognised and dropped.
  const name = `rmm_t_${process.env.RMM_TEST_RUN_PID ?? process.pid}_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // (`empty`: a database with no schema at all, for a test that builds one another way.)
    await admin.query(options.empty ? `CREATE DATABASE "${name}"` : `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
