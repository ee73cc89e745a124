import { Client } from 'pg';
import { CLI_JS, cleanEnv, run } from '../utils/processes';
import { createTestDatabase, TestDatabase } from '../utils/test-db';

/** `npm run cli -- …` as an operator runs it: a real process on the server's database. */
describe('operator CLI', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => run([CLI_JS, ...args], env);

  beforeAll(async () => {
    db = await createTestDatabase();
    env = cleanEnv({ DATABASE_URL: db.url });
  });
  afterAll(async () => {
    await db.drop();
  });

  const query = async (sql: string, params: unknown[] = []) => {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      return (await pg.query(sql, params)).rows;
    } finally {
      await pg.end();
    }
  };

  it('apikey create prints the new secret once and nothing else on stdout; only its hash is stored', async () => {
    const res = await cli('apikey', 'create', '--name', 'ops', '--scopes', 'agents:read,alerts:write', '--expires-in', '30d');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^rmm_[A-Za-z0-9_-]{40}\n$/);
    const secret = res.stdout.trim();
    const rows = await query(`SELECT name, prefix, secret_hash, scopes, expires_at FROM api_keys WHERE name = 'ops'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].scopes).toEqual(['agents:read', 'alerts:write']);
    expect(rows[0].prefix).toBe(secret.slice(0, 12));
    expect(rows[0].secret_hash).not.toContain(secret);
    const days = (new Date(rows[0].expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect(res.stderr).toContain('shown only this once');
  });

  it('apikey create refuses an unknown scope with exit code 1 and names the allowed ones', async () => {
    const res = await cli('apikey', 'create', '--name', 'bad', '--scopes', 'agents:read,root');
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('unknown scope root');
    expect(res.stderr).toContain('alerts:write');
  });

  it('apikey list shows prefixes and scopes but never a secret; apikey revoke revokes', async () => {
    const created = await cli('apikey', 'create', '--name', 'to-revoke', '--scopes', 'admin');
    const secret = created.stdout.trim();
    const id = (await query(`SELECT id FROM api_keys WHERE name = 'to-revoke'`))[0].id;
    const list = await cli('apikey', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${id}\tto-revoke\t${secret.slice(0, 12)}…\tadmin`);
    expect(list.stdout).not.toContain(secret);
    const revoke = await cli('apikey', 'revoke', String(id));
    expect(revoke.code).toBe(0);
    expect((await query(`SELECT revoked_at FROM api_keys WHERE id = $1`, [id]))[0].revoked_at).not.toBeNull();
    const missing = await cli('apikey', 'revoke', '99999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Not found');
  });

  it('client create, site create and user create make rows the server uses', async () => {
    const client = await cli('client', 'create', '--name', 'Acme');
    expect(client.code).toBe(0);
    const clientId = client.stdout.trim();
    const site = await cli('site', 'create', '--client', clientId, '--name', 'HQ');
    expect(site.code).toBe(0);
    const siteId = site.stdout.trim();
    const user = await cli('user', 'create', '--email', 'Tech@Acme.example', '--password', 'correct horse', '--client', clientId, '--site', siteId);
    expect(user.code).toBe(0);
    const rows = await query(
      `SELECT u.email, u.encrypted_password, p.rmm_client_id, p.rmm_site_id FROM auth.users u JOIN user_profiles p ON p.id = u.id WHERE u.id = $1`,
      [user.stdout.trim()],
    );
    expect(rows).toEqual([
      { email: 'tech@acme.example', encrypted_password: expect.stringMatching(/^\$argon2id\$/), rmm_client_id: Number(clientId), rmm_site_id: Number(siteId) },
    ]);
    const noSuchClient = await cli('site', 'create', '--client', '424242', '--name', 'X');
    expect(noSuchClient.code).toBe(1);
  });

  it('keys show prints the generated keys, and the same ones every time', async () => {
    const a = await cli('keys', 'show');
    const b = await cli('keys', 'show');
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^DATA_ANON_KEY=sb_publishable_/m);
    expect(a.stdout).toMatch(/^DATA_SERVICE_ROLE_KEY=sb_secret_/m);
    expect(a.stdout).toMatch(/^RMM_DEFAULT_SITE_ID=\d+$/m);
  });

  it('keys show never prints a key that came from the environment', async () => {
    const res = await run([CLI_JS, 'keys', 'show'], { ...env, DATA_SERVICE_ROLE_KEY: 'operator-given-service-key' });
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('operator-given-service-key');
    expect(res.stdout).toContain('DATA_SERVICE_ROLE_KEY=(set in the environment, not shown)');
  });

  it('answers usage errors with exit code 2 and the usage text', async () => {
    const res = await cli('apikey', 'create', '--name', 'x');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--scopes is required');
    expect(res.stderr).toContain('usage: npm run cli');
    const unknown = await cli('frobnicate');
    expect(unknown.code).toBe(2);
  });
});
