import { FixedClock } from '../../apps/api/src/common/clock';
import { OperatorsService } from '../../apps/api/src/rmm/access/operators/operators.service';
import { totpCode } from '../../apps/api/src/rmm/access/operators/totp';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { CONSOLE, createOperator, OPERATOR_PASSWORD, sessionPair, signIn } from '../utils/operators';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Operators and console sessions (docs/console.md): sign-in with password and TOTP, the cookie's attributes,
 * /auth/me and logout, roles as scopes, the CSRF header, idle and absolute ends, sessions ended by disabling or a
 * new password, the sign-in limits, and the audit log naming the operator. Real server, real HTTP, real PostgreSQL.
 */
describe('operators and console sessions', () => {
  let t: TestApp;
  const clock = new FixedClock(new Date('2026-11-26T08:00:00Z'));
  let admin: string;
  let clientId: number;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_FAILED_SIGNINS_PER_ACCOUNT: '6', RMM_SESSION_IDLE_MINUTES: '60', RMM_SESSION_MAX_HOURS: '12' }, { clock });
    admin = await createKey(t, ['admin']);
    ({ clientId } = await createTenant(t, 'Operators Co'));
  }, 60_000);
  afterAll(() => t?.close());

  it('signs in with the right password only, answering the same 401 for every wrong part', async () => {
    await createOperator(t, 'Tech@Example.test', 'technician');
    for (const body of [
      { email: 'tech@example.test', password: 'wrong password here' },
      { email: 'nobody@example.test', password: OPERATOR_PASSWORD },
      { email: 'tech@example.test', password: '' },
    ]) {
      const res = await t.http.post('/api/v3/auth/login').send(body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Invalid credentials' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect((await t.http.post('/api/v3/auth/login').send({ email: 'tech@example.test' })).status).toBe(400);
    expect((await t.http.post('/api/v3/auth/login').send('not json').set('Content-Type', 'application/json')).status).toBe(400);

    const res = await t.http.post('/api/v3/auth/login').send({ email: ' TECH@example.test ', password: OPERATOR_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ operator: { id: expect.any(Number), email: 'tech@example.test', role: 'technician', clients: null, scopes: expect.arrayContaining(['agents:read', 'scripts:run']) } });
    expect(res.body.operator.scopes).not.toContain('admin');
    const cookie = [res.headers['set-cookie']].flat()[0] as string;
    expect(cookie).toMatch(/^rmm_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    const [row] = await sql(t.db.url, `SELECT token_hash FROM operator_sessions ORDER BY created_at DESC LIMIT 1`);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(cookie).not.toContain(row.token_hash);
  });

  it('accepts the cookie wherever X-API-KEY is accepted, with the role as scopes and the CSRF header for changes', async () => {
    const cookie = await signIn(t, 'tech@example.test');
    expect((await t.http.get('/api/v3/auth/me').set('Cookie', cookie)).body.operator.email).toBe('tech@example.test');
    expect((await t.http.get('/api/v3/agents/').set('Cookie', cookie)).status).toBe(200);
    // A change without the header: refused before anything happens.
    const refused = await t.http.post(`/api/v3/clients/${clientId}/sites/`).set('Cookie', cookie).send({ name: 'Branch' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'CSRF check failed' });
    expect(refused.headers['set-cookie']).toBeUndefined();
    const made = await t.http.post(`/api/v3/clients/${clientId}/sites/`).set('Cookie', cookie).set(CONSOLE).send({ name: 'Branch' });
    expect(made.status).toBe(201);
    // A technician is not an admin: keys, audit, operators, client create.
    for (const path of ['/api/v3/keys/', '/api/v3/audit/', '/api/v3/operators/']) {
      expect((await t.http.get(path).set('Cookie', cookie)).body).toEqual({ detail: 'permission denied' });
    }
    expect((await t.http.post('/api/v3/clients/').set('Cookie', cookie).set(CONSOLE).send({ name: 'New Co' })).status).toBe(403);
    // No cookie, a made-up one: 401.
    expect((await t.http.get('/api/v3/agents/').set('Cookie', 'rmm_session=made-up')).status).toBe(401);
    expect((await t.http.get('/api/v3/auth/me')).status).toBe(401);
    // An API key is not a session.
    expect((await t.http.get('/api/v3/auth/me').set('X-API-KEY', admin)).status).toBe(401);
  });

  it('gives a viewer read scopes only and an admin everything', async () => {
    await createOperator(t, 'viewer@example.test', 'viewer');
    const viewer = await signIn(t, 'viewer@example.test');
    expect((await t.http.get('/api/v3/alerts/').set('Cookie', viewer)).status).toBe(200);
    const denied = await t.http.post(`/api/v3/clients/${clientId}/sites/`).set('Cookie', viewer).set(CONSOLE).send({ name: 'Nope' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: 'permission denied' });

    await createOperator(t, 'admin@example.test', 'admin');
    const boss = await signIn(t, 'admin@example.test');
    expect((await t.http.get('/api/v3/keys/').set('Cookie', boss)).status).toBe(200);
    const created = await t.http.post('/api/v3/operators/').set('Cookie', boss).set(CONSOLE).send({ email: 'new@example.test', password: 'long enough pw', role: 'viewer', clients: [clientId] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), email: 'new@example.test', role: 'viewer', clients: [clientId], disabled: false, totp: false, break_glass: false, sso: false, created_at: expect.any(String) });
    const again = await t.http.post('/api/v3/operators/').set('Cookie', boss).set(CONSOLE).send({ email: 'NEW@example.test', password: 'long enough pw', role: 'viewer' });
    expect(again.status).toBe(409);
    const bad = await t.http.post('/api/v3/operators/').set('Cookie', boss).set(CONSOLE).send({ email: 'x@example.test', password: 'short', role: 'boss', clients: [999999] });
    expect(bad.status).toBe(400);
    const unknownClient = await t.http.post('/api/v3/operators/').set('X-API-KEY', admin).send({ email: 'y@example.test', password: 'long enough pw', role: 'viewer', clients: [999999] });
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.body.errors).toEqual([{ field: 'clients', message: 'no client with id 999999' }]);
    const list = await t.http.get('/api/v3/operators/').set('X-API-KEY', admin);
    expect(list.body.map((o: { email: string }) => o.email)).toEqual(expect.arrayContaining(['tech@example.test', 'viewer@example.test', 'admin@example.test', 'new@example.test']));
    expect(JSON.stringify(list.body)).not.toMatch(/argon2|password/);
  });

  it('names the operator in the audit log', async () => {
    const cookie = await signIn(t, 'admin@example.test');
    const res = await t.http.post(`/api/v3/clients/${clientId}/sites/`).set('Cookie', cookie).set(CONSOLE).send({ name: 'Audited' });
    expect(res.status).toBe(201);
    await until('the audit row naming the operator', async () => {
      const rows = await sql(t.db.url, `SELECT actor_kind, actor_name, action, status FROM audit_log WHERE action = 'POST /api/v3/clients/{id}/sites/' AND actor_kind = 'operator'`);
      return rows.some((r) => r.actor_name === 'admin@example.test' && r.status === 201);
    });
  });

  it('records each sign-in in the audit log: the operator (id and e-mail) for a success, the e-mail tried for a failure, the address and the method; never the password or code', async () => {
    const id = await createOperator(t, 'audited@example.test', 'admin');
    const setup = await t.http.post(`/api/v3/operators/${id}/totp`).set('X-API-KEY', admin).expect(201);
    const secret = new URL(setup.body.otpauth_uri).searchParams.get('secret')!;
    const code = totpCode(secret, clock.now());
    const recovery = setup.body.recovery_codes[1] as string;
    const login = (body: Record<string, string>) => t.http.post('/api/v3/auth/login').send(body);
    expect((await login({ email: 'Audited@Example.test', password: 'a wrong password 7' })).status).toBe(401);
    expect((await login({ email: 'ghost@example.test', password: OPERATOR_PASSWORD })).status).toBe(401);
    expect((await login({ email: 'audited@example.test', password: OPERATOR_PASSWORD })).body).toMatchObject({ totp_required: true });
    expect((await login({ email: 'audited@example.test', password: OPERATOR_PASSWORD, totp: '000001' })).status).toBe(401);
    const ok = await login({ email: 'audited@example.test', password: OPERATOR_PASSWORD, totp: code });
    expect(ok.status).toBe(200);
    expect((await login({ email: 'audited@example.test', password: OPERATOR_PASSWORD, totp: recovery })).status).toBe(200);
    await t.http.post('/api/v3/auth/logout').set('Cookie', sessionPair(ok.headers['set-cookie'])).set(CONSOLE).expect(204);

    const res = await t.http.get('/api/v3/audit/?path=/api/v3/auth/&limit=1000').set('X-API-KEY', admin).expect(200);
    type Row = { actor_kind: string; actor_id: string | null; actor_name: string | null; action: string; status: number; outcome: string; client_address: string };
    const rows = (res.body as Row[]).filter((r) => ['audited@example.test', 'ghost@example.test'].includes(r.actor_name ?? '')).reverse();
    expect(rows.map((r) => [r.actor_kind, r.actor_id, r.actor_name, r.action, r.status, r.outcome])).toEqual([
      ['anonymous', null, 'audited@example.test', 'POST /api/v3/auth/login/', 401, '401 password'],
      ['anonymous', null, 'ghost@example.test', 'POST /api/v3/auth/login/', 401, '401 password'],
      ['anonymous', null, 'audited@example.test', 'POST /api/v3/auth/login/', 401, '401 password'],
      ['anonymous', null, 'audited@example.test', 'POST /api/v3/auth/login/', 401, '401 password+totp'],
      ['operator', String(id), 'audited@example.test', 'POST /api/v3/auth/login/', 200, '200 password+totp'],
      ['operator', String(id), 'audited@example.test', 'POST /api/v3/auth/login/', 200, '200 password+recovery_code'],
      ['operator', String(id), 'audited@example.test', 'POST /api/v3/auth/logout/', 204, '204'],
    ]);
    for (const r of rows) expect(r.client_address).toMatch(/127\.0\.0\.1$/);
    const table = JSON.stringify(await sql(t.db.url, 'SELECT * FROM audit_log'));
    for (const secretText of [OPERATOR_PASSWORD, 'a wrong password 7', code, recovery, '000001']) expect([secretText, table.includes(secretText)]).toEqual([secretText, false]);
  });

  it('ends a session at logout, server-side', async () => {
    const cookie = await signIn(t, 'viewer@example.test');
    expect((await t.http.post('/api/v3/auth/logout').set('Cookie', cookie)).status).toBe(403); // the CSRF header
    const out = await t.http.post('/api/v3/auth/logout').set('Cookie', cookie).set(CONSOLE);
    expect(out.status).toBe(204);
    expect([out.headers['set-cookie']].flat()[0]).toMatch(/^rmm_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/);
    expect((await t.http.get('/api/v3/agents/').set('Cookie', cookie)).status).toBe(401);
  });

  it('ends sessions after the idle time and at the absolute end', async () => {
    const idle = await signIn(t, 'viewer@example.test');
    clock.advance(59 * 60_000);
    expect((await t.http.get('/api/v3/auth/me').set('Cookie', idle)).status).toBe(200); // and moves the idle clock
    clock.advance(59 * 60_000);
    expect((await t.http.get('/api/v3/auth/me').set('Cookie', idle)).status).toBe(200);
    clock.advance(61 * 60_000);
    expect((await t.http.get('/api/v3/auth/me').set('Cookie', idle)).status).toBe(401);

    const busy = await signIn(t, 'viewer@example.test');
    for (let i = 0; i < 23; i++) {
      clock.advance(30 * 60_000);
      expect((await t.http.get('/api/v3/auth/me').set('Cookie', busy)).status).toBe(200);
    }
    clock.advance(30 * 60_000 + 1000); // 12 h after sign-in, however active
    expect((await t.http.get('/api/v3/auth/me').set('Cookie', busy)).status).toBe(401);
  });

  it('ends every session of an operator who is disabled or gets a new password, at once', async () => {
    const id = await createOperator(t, 'leaver@example.test', 'technician');
    const a = await signIn(t, 'leaver@example.test');
    const b = await signIn(t, 'leaver@example.test');
    await t.http.patch(`/api/v3/operators/${id}/`).set('X-API-KEY', admin).send({ password: 'a brand new password' }).expect(200);
    expect((await t.http.get('/api/v3/auth/me').set('Cookie', a)).status).toBe(401);
    expect((await t.http.get('/api/v3/auth/me').set('Cookie', b)).status).toBe(401);
    const c = await signIn(t, 'leaver@example.test', 'a brand new password');
    const res = await t.http.patch(`/api/v3/operators/${id}/`).set('X-API-KEY', admin).send({ disabled: true });
    expect(res.body.disabled).toBe(true);
    expect((await t.http.get('/api/v3/agents/').set('Cookie', c)).status).toBe(401);
    const login = await t.http.post('/api/v3/auth/login').send({ email: 'leaver@example.test', password: 'a brand new password' });
    expect(login.status).toBe(401);
    expect(login.body).toEqual({ detail: 'Invalid credentials' });
  });

  it('asks for the TOTP code after the right password, takes each code once, and recovery codes once', async () => {
    const id = await createOperator(t, 'mfa@example.test', 'admin');
    const setup = await t.http.post(`/api/v3/operators/${id}/totp`).set('X-API-KEY', admin).expect(201);
    expect(setup.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/RMM:mfa%40example\.test\?issuer=RMM&secret=[A-Z2-7]+&algorithm=SHA1&digits=6&period=30$/);
    expect(setup.body.recovery_codes).toHaveLength(10);
    const secret = new URL(setup.body.otpauth_uri).searchParams.get('secret')!;

    const noCode = await t.http.post('/api/v3/auth/login').send({ email: 'mfa@example.test', password: OPERATOR_PASSWORD });
    expect(noCode.status).toBe(401);
    expect(noCode.body).toEqual({ detail: 'Invalid credentials', totp_required: true });
    expect(noCode.headers['set-cookie']).toBeUndefined();
    const wrongPassword = await t.http.post('/api/v3/auth/login').send({ email: 'mfa@example.test', password: 'not it at all', totp: '000000' });
    expect(wrongPassword.body).toEqual({ detail: 'Invalid credentials' });
    const wrongCode = await t.http.post('/api/v3/auth/login').send({ email: 'mfa@example.test', password: OPERATOR_PASSWORD, totp: totpCode(secret, new Date(clock.now().getTime() + 10 * 60_000)) });
    expect(wrongCode.status).toBe(401);

    const code = totpCode(secret, clock.now());
    const ok = await t.http.post('/api/v3/auth/login').send({ email: 'mfa@example.test', password: OPERATOR_PASSWORD, totp: code });
    expect(ok.status).toBe(200);
    expect(sessionPair(ok.headers['set-cookie'])).toMatch(/^rmm_session=/);
    // The same code again (an eavesdropper's replay within its 30 s): refused.
    expect((await t.http.post('/api/v3/auth/login').send({ email: 'mfa@example.test', password: OPERATOR_PASSWORD, totp: code })).status).toBe(401);

    const recovery = setup.body.recovery_codes[0] as string;
    expect((await t.http.post('/api/v3/auth/login').send({ email: 'mfa@example.test', password: OPERATOR_PASSWORD, totp: recovery })).status).toBe(200);
    expect((await t.http.post('/api/v3/auth/login').send({ email: 'mfa@example.test', password: OPERATOR_PASSWORD, totp: recovery })).status).toBe(401);
    const listed = await t.http.get(`/api/v3/operators/${id}/`).set('X-API-KEY', admin);
    expect(listed.body.totp).toBe(true);
  });

  it("applies the data platform's sign-in limits per account, the right password included", async () => {
    await createOperator(t, 'target@example.test', 'viewer');
    for (let i = 0; i < 6; i++) {
      expect((await t.http.post('/api/v3/auth/login').send({ email: 'target@example.test', password: `guess number ${i}` })).status).toBe(401);
    }
    const limited = await t.http.post('/api/v3/auth/login').send({ email: 'target@example.test', password: OPERATOR_PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: 'rate limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another account from the same address is not locked by it.
    expect((await t.http.post('/api/v3/auth/login').send({ email: 'admin@example.test', password: OPERATOR_PASSWORD })).status).toBe(200);
  });

  it('never writes a session secret or password to the log', async () => {
    const pair = await signIn(t, 'admin@example.test');
    await t.http.get('/api/v3/agents/').set('Cookie', pair);
    const token = pair.split('=')[1];
    expect(t.logs.join('\n')).not.toContain(token);
    expect(t.logs.join('\n')).not.toContain(OPERATOR_PASSWORD);
    const ops = await t.server.app.get(OperatorsService).list();
    expect(ops.every((o) => o.passwordHash?.startsWith('$argon2id$'))).toBe(true);
  });
});
