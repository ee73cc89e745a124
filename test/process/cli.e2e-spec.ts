import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { CLI_JS, cleanEnv, ROOT, run } from '../utils/processes';
import { createTestDatabase, TestDatabase } from '../utils/test-db';

// Every command is a process that loads the server's modules (about 1 s of CPU): on a machine busy with a second
// `npm test`, a hook of several commands takes minutes, not seconds.
jest.setTimeout(300_000);

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
    // stdout is a pipe here: the secret is not "below" the message but wherever stdout goes.
    expect(res.stderr).toContain('the secret is printed on standard output, shown only this once');
    expect(res.stderr).not.toContain('below');
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  (hasScript ? it : it.skip)('apikey create at a terminal says the secret is below, and prints it on the next line', () => {
    // util-linux `script` gives the CLI a pseudo-terminal, as an operator's shell does.
    const res = spawnSync('script', ['-qec', `"${process.execPath}" "${CLI_JS}" apikey create --name at-a-tty --scopes admin`, '/dev/null'], {
      env,
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(0);
    expect(res.stdout.replace(/\r/g, '')).toMatch(/the secret below is shown only this once:\nrmm_[A-Za-z0-9_-]{40}\n/);
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
    expect(missing.stderr).toBe('rmm-cli: Not found: no API key 99999\n');
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
    expect(noSuchClient.stderr).toBe('rmm-cli: Not found: no client 424242\n');
  });

  describe('user create refuses a tenant whose enrollments would fail', () => {
    let acme: number;
    let acmeHq: number;
    let otherHq: number;
    let empty: number;
    beforeAll(async () => {
      const id = async (...args: string[]) => Number((await cli(...args)).stdout.trim());
      acme = await id('client', 'create', '--name', 'Tenant Acme');
      acmeHq = await id('site', 'create', '--client', String(acme), '--name', 'HQ');
      const other = await id('client', 'create', '--name', 'Tenant Other');
      otherHq = await id('site', 'create', '--client', String(other), '--name', 'HQ');
      empty = await id('client', 'create', '--name', 'Tenant Empty');
      expect([acme, acmeHq, other, otherHq, empty].every((n) => n > 0)).toBe(true);
    });
    const users = async (email: string) => (await query(`SELECT id FROM auth.users WHERE email = $1`, [email])).length;
    const create = (email: string, ...tenant: string[]) => cli('user', 'create', '--email', email, '--password', 'correct horse', ...tenant);

    type Ids = { acme: number; acmeHq: number; otherHq: number; empty: number };
    const cases: Array<[string, (i: Ids) => [string[], string]]> = [
      ['a client that does not exist', (i) => [['--client', '999999', '--site', String(i.acmeHq)], 'client 999999 does not exist']],
      ['a site that does not exist', (i) => [['--client', String(i.acme), '--site', '999999'], 'site 999999 does not exist']],
      ['a site of another client', (i) => [['--client', String(i.acme), '--site', String(i.otherHq)], `site ${i.otherHq} does not belong to client ${i.acme}`]],
      ['a client without a site', (i) => [['--client', String(i.empty)], `client ${i.empty} has no site: give --site`]],
      ['a client alone, whose sites are not the default one', (i) => [['--client', String(i.acme)], `client ${i.acme} needs a site: give --site (its sites: ${i.acmeHq} "HQ")`]],
      ['a site alone, of a client other than the default', (i) => [['--site', String(i.acmeHq)], `site ${i.acmeHq} does not belong to the default client`]],
    ];
    it.each(cases)('%s: exit code 1, the reason naming the id, no user', async (_what, make) => {
      const [tenant, message] = make({ acme, acmeHq, otherHq, empty });
      const email = `refused-${Math.random().toString(36).slice(2)}@acme.test`;
      const res = await create(email, ...tenant);
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain(message);
      expect(await users(email)).toBe(0);
    });

    it('accepts a site of the given client, the default tenant by its ids, and neither id (the defaults apply)', async () => {
      const keys = (await cli('keys', 'show')).stdout;
      const defaultClient = /^RMM_DEFAULT_CLIENT_ID=(\d+)$/m.exec(keys)![1];
      const defaultSite = /^RMM_DEFAULT_SITE_ID=(\d+)$/m.exec(keys)![1];
      for (const [email, tenant] of [
        ['own-site@acme.test', ['--client', String(acme), '--site', String(acmeHq)]],
        ['default-ids@acme.test', ['--client', defaultClient, '--site', defaultSite]],
        ['default-client@acme.test', ['--client', defaultClient]],
        ['default-site@acme.test', ['--site', defaultSite]],
        ['no-ids@acme.test', []],
      ] as Array<[string, string[]]>) {
        const res = await create(email, ...tenant);
        expect([email, res.code, res.stderr]).toEqual([email, 0, expect.stringContaining(`created user ${email}`)]);
      }
    });
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

  it.each([['apikey', ['apikey create', 'apikey list', 'apikey revoke']], ['keys', ['keys show']], ['user', ['user create']], ['site', ['site create']]])(
    '"%s" alone prints its own commands (exit code 2), not "unknown command"',
    async (group, commands) => {
      const res = await cli(group);
      expect(res.code).toBe(2);
      expect(res.stderr).not.toContain('unknown command');
      expect(res.stderr).toContain(`usage: npm run cli -- ${group} <command>`);
      for (const c of commands) expect(res.stderr).toContain(`  ${c}`);
      expect(res.stderr).not.toContain(group === 'keys' ? 'apikey create' : 'keys show');
      const help = await cli(group, '--help');
      expect([help.code, help.stderr]).toEqual([0, res.stderr]);
    },
  );

  // (each case is its own process, with nothing shared: they run side by side)
  it.concurrent.each([
    ['an empty scope', ['apikey', 'create', '--name', 'x', '--scopes', 'clients:read,,admin'], '--scopes has an empty entry'],
    ['a malformed duration', ['apikey', 'create', '--name', 'x', '--scopes', 'admin', '--expires-in', 'soon'], '--expires-in must be a positive duration'],
    ['a zero duration', ['apikey', 'create', '--name', 'x', '--scopes', 'admin', '--expires-in', '0d'], '--expires-in must be a positive duration'],
    ['an unknown flag', ['apikey', 'create', '--name', 'x', '--scopes', 'admin', '--admin'], "Unknown option '--admin'"],
    ['an argument to apikey list', ['apikey', 'list', 'all'], 'Unexpected argument'],
    ['no key id', ['apikey', 'revoke'], 'ID is required'],
    ['a key id that is not a number', ['apikey', 'revoke', 'abc'], 'ID must be a positive whole number, got "abc"'],
    ['two key ids', ['apikey', 'revoke', '1', '2'], 'unexpected argument "2"'],
    ['no password', ['user', 'create', '--email', 'a@b.test'], '--password is required'],
    ['a client id that is not a number', ['user', 'create', '--email', 'a@b.test', '--password', 'secret-pw', '--client', 'acme'], '--client must be a positive whole number'],
    ['a site id of 0', ['user', 'create', '--email', 'a@b.test', '--password', 'secret-pw', '--site', '0'], '--site must be a positive whole number'],
    ['no client name', ['client', 'create'], '--name is required'],
    ['no client for the site', ['site', 'create', '--name', 'HQ'], '--client is required'],
    ['a site client id that is not a number', ['site', 'create', '--client', 'x1', '--name', 'HQ'], '--client must be a positive whole number'],
    ['an argument to keys show', ['keys', 'show', '--all'], "Unknown option '--all'"],
    ['an unknown subcommand', ['apikey', 'delete', '3'], 'unknown command "apikey delete"'],
  ])('exit code 2 for a usage error: %s, even when the database is unreachable', async (_what, args, message) => {
    // The command line is read before the configuration and the database: a usage error is never a 1.
    const res = await run([CLI_JS, ...args], { ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(message);
    expect(res.stderr).toContain('usage: npm run cli --');
  });

  it.each([
    ['an unknown scope', ['apikey', 'create', '--name', 'x', '--scopes', 'root'], 'unknown scope root'],
    ['a key name over 200 characters', ['apikey', 'create', '--name', 'k'.repeat(201), '--scopes', 'admin'], 'name must be at most 200 characters'],
    ['a weak password', ['user', 'create', '--email', 'weak@acme.test', '--password', 'abc'], 'Password should be at least 6 characters'],
    ['an e-mail that is not one', ['user', 'create', '--email', 'not-an-email', '--password', 'secret-pw'], 'Unable to validate email address'],
    ['a client name taken', ['client', 'create', '--name', 'Taken Ltd'], 'a client named "Taken Ltd" already exists'],
  ])('exit code 1 for a refused operation: %s, with the reason', async (_what, args, message) => {
    if (args[0] === 'client') await cli('client', 'create', '--name', 'Taken Ltd');
    const res = await cli(...args);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toContain('usage:');
  });

  it('exit code 1 when the database cannot be reached, for a well-formed command', async () => {
    const res = await run([CLI_JS, 'apikey', 'list'], { ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(res.code).toBe(1);
  });
});
