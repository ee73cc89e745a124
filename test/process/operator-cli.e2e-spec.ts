import * as argon2 from 'argon2';
import { Client } from 'pg';
import { CLI_JS, cleanEnv, run } from '../utils/processes';
import { createTestDatabase, TestDatabase } from '../utils/test-db';

// Each command is a process loading the server's modules (about 1 s of CPU, minutes on a busy machine).
jest.setTimeout(300_000);

/** `npm run cli -- operator …` as an admin runs it: real processes, the password on standard input. */
describe('operator CLI commands', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const cli = (args: string[], input?: string) => run([CLI_JS, ...args], env, 60_000, input);
  const query = async (text: string, params: unknown[] = []) => {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      return (await pg.query(text, params)).rows;
    } finally {
      await pg.end();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    env = cleanEnv({ DATABASE_URL: db.url });
  });
  afterAll(() => db?.drop());

  it('operator create reads the password from standard input and stores only its argon2id hash', async () => {
    const [client] = await query(`INSERT INTO clients (name) VALUES ('CLI Co') RETURNING id`);
    const res = await cli(['operator', 'create', '--email', 'Ops@MSP.test', '--role', 'technician', '--clients', String(client.id)], 'a long password\nignored second line\n');
    expect(res.stderr).toContain(`created operator 1 ops@msp.test (technician, clients ${client.id})`);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('1\n');
    const [row] = await query(`SELECT email, role, clients, password_hash FROM operators`);
    expect(row).toMatchObject({ email: 'ops@msp.test', role: 'technician', clients: [client.id] });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(row.password_hash, 'a long password')).toBe(true);
    const audit = await query(`SELECT actor_kind, action, outcome, target FROM audit_log WHERE action = 'operator create'`);
    expect(audit).toEqual([expect.objectContaining({ actor_kind: 'cli', outcome: 'ok' })]);
    expect(JSON.stringify(audit)).not.toContain('a long password');
  });

  it('refuses a bad role, an unknown client, a short or missing password, with the reason', async () => {
    // A wrong role is a usage error (2), said before any password is asked for (issue 29: it complained of the
    // password), whether a password comes or not.
    for (const input of ['a long password\n', '']) {
      const badRole = await cli(['operator', 'create', '--email', 'x@msp.test', '--role', 'boss'], input);
      expect([input, badRole.code]).toEqual([input, 2]);
      expect(badRole.stderr).toContain('rmm-cli: --role must be one of admin, technician, viewer, got "boss"');
      expect(badRole.stderr).toContain('usage: npm run cli -- operator create --email E --role admin|technician|viewer');
      expect(badRole.stderr).not.toMatch(/password/i);
    }
    const unknown = await cli(['operator', 'create', '--email', 'x@msp.test', '--role', 'viewer', '--clients', '4242'], 'a long password\n');
    expect(unknown.stderr).toContain('clients: no client with id 4242');
    const short = await cli(['operator', 'create', '--email', 'x@msp.test', '--role', 'viewer'], 'short\n');
    expect(short.stderr).toContain('password: at least 8 characters');
    const none = await cli(['operator', 'create', '--email', 'x@msp.test', '--role', 'viewer'], '');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('password: none given');
    const usage = await cli(['operator', 'create', '--role', 'viewer'], 'a long password\n');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--email is required');
    expect(await query(`SELECT email FROM operators WHERE email = 'x@msp.test'`)).toEqual([]);
  });

  it('operator list, password, totp and disable', async () => {
    const list = await cli(['operator', 'list']);
    expect(list.stdout.split('\n')[0]).toBe('ID\tEMAIL\tROLE\tCLIENTS\tTOTP\tDISABLED\tBREAK_GLASS\tSSO\tCREATED');
    expect(list.stdout).toMatch(/^1\tops@msp\.test\ttechnician\t\d+\tno\tno\tno\tno\t/m);

    const [session] = await query(
      `INSERT INTO operator_sessions (token_hash, operator_id, last_seen_at, expires_at, authenticated_at, method) VALUES ('x', 1, now(), now() + interval '1 hour', now(), 'password') RETURNING id`,
    );
    const pw = await cli(['operator', 'password', '--email', 'ops@msp.test'], 'another long password\n');
    expect(pw.code).toBe(0);
    expect(pw.stderr).toContain('their sessions have ended');
    const [row] = await query(`SELECT password_hash FROM operators WHERE id = 1`);
    expect(await argon2.verify(row.password_hash, 'another long password')).toBe(true);
    expect(await query(`SELECT id FROM operator_sessions WHERE id = $1`, [session.id])).toEqual([]);

    const totp = await cli(['operator', 'totp', '--email', 'ops@msp.test']);
    expect(totp.code).toBe(0);
    const lines = totp.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^otpauth:\/\/totp\/RMM:ops%40msp\.test\?issuer=RMM&secret=[A-Z2-7]+/);
    expect(lines.slice(1)).toHaveLength(10);
    for (const code of lines.slice(1)) expect(code).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}$/);
    const [withTotp] = await query(`SELECT totp_secret, recovery_codes FROM operators WHERE id = 1`);
    expect(lines[0]).toContain(withTotp.totp_secret);
    expect(withTotp.recovery_codes).toHaveLength(10);
    expect(withTotp.recovery_codes).not.toContain(lines[1]); // stored hashed

    const off = await cli(['operator', 'disable', '--email', 'OPS@msp.test']);
    expect(off.code).toBe(0);
    expect((await query(`SELECT disabled FROM operators WHERE id = 1`))[0].disabled).toBe(true);
    const missing = await cli(['operator', 'disable', '--email', 'nobody@msp.test']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no operator with email nobody@msp.test');
  });

  it('operator create --break-glass and operator link-oidc (issue 33: single sign-on)', async () => {
    const made = await cli(['operator', 'create', '--email', 'glass@msp.test', '--role', 'admin', '--break-glass'], 'a long password\n');
    expect(made.code).toBe(0);
    expect(made.stderr).toContain('glass@msp.test (admin, every client, break-glass)');
    const link = await cli(['operator', 'link-oidc', '--email', 'glass@msp.test']);
    expect(link.code).toBe(0);
    expect(link.stderr).toContain('the next provider sign-in with this e-mail, if the provider verified it, links that account (once)');
    expect(await query(`SELECT break_glass, oidc_link_allowed, oidc_subject FROM operators WHERE email = 'glass@msp.test'`)).toEqual([{ break_glass: true, oidc_link_allowed: true, oidc_subject: null }]);
    expect((await cli(['operator', 'list'])).stdout).toMatch(/\tglass@msp\.test\tadmin\tall\tno\tno\tyes\tlink allowed\t/);
    await query(`UPDATE operators SET oidc_issuer = 'https://idp.test', oidc_subject = 'abc', oidc_link_allowed = false WHERE email = 'glass@msp.test'`);
    expect((await cli(['operator', 'list'])).stdout).toMatch(/\tglass@msp\.test\tadmin\tall\tno\tno\tyes\tlinked\t/);
    const again = await cli(['operator', 'link-oidc', '--email', 'glass@msp.test']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('linked to a provider account already');
  });
});
