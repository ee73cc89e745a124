import { FixedClock } from '../../apps/api/src/common/clock';
import { OperatorsService } from '../../apps/api/src/rmm/access/operators/operators.service';
import { totpCode } from '../../apps/api/src/rmm/access/operators/totp';
import { createKey } from '../utils/rmm-fixtures';
import { CONSOLE, createOperator, OPERATOR_PASSWORD, sessionPair, signIn } from '../utils/operators';
import { SoftAuthenticator } from '../utils/soft-authenticator';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const PUBLIC_URL = 'https://rmm.example.test';
const ORIGIN = PUBLIC_URL;
const INVALID = { detail: 'Invalid credentials' };

type Options = { challenge: string; rp: { id: string }; user: { id: string }; rpId?: string; allowCredentials?: { id: string }[] } & Record<string, unknown>;
type Ceremony = { challenge_id: string; options: Options };

/**
 * Passkeys over HTTP (docs/sso.md, "Passkeys"), with a software authenticator (test/utils/soft-authenticator.ts):
 * registration, the operator's list, sign-in with a passkey alone, the refusals (a cloned credential's counter, the
 * wrong origin or RP id, a replayed challenge, no user verification), a passkey as the second factor of a password
 * sign-in, and step-up. PUBLIC_URL is https://rmm.example.test: the RP id is its host, the origin its origin.
 */
describe('passkeys', () => {
  let t: TestApp;
  const clock = new FixedClock(new Date('2026-12-01T09:00:00Z'));
  let adminKey: string;

  beforeAll(async () => {
    t = await startTestApp({}, { clock, overrides: { publicUrl: PUBLIC_URL } });
    adminKey = await createKey(t, ['admin']);
  }, 60_000);
  afterAll(() => t?.close());

  const post = (path: string, cookie?: string) => {
    const r = t.http.post(path).set(CONSOLE);
    return cookie ? r.set('Cookie', cookie) : r;
  };
  const begin = async (path: string, cookie?: string): Promise<Ceremony> => (await post(path, cookie).expect(200)).body as Ceremony;

  /** Registers a passkey for the cookie's operator with the authenticator; returns the passkey's id. */
  const register = async (cookie: string, auth: SoftAuthenticator, name?: string): Promise<string> => {
    const c = await begin('/api/v3/auth/passkeys/options', cookie);
    const res = await post('/api/v3/auth/passkeys/', cookie).send({ challenge_id: c.challenge_id, name, response: auth.register(c.options) });
    expect(res.status).toBe(201);
    return (res.body as { id: string }).id;
  };

  const passkeySignIn = async (auth: SoftAuthenticator, twist: Parameters<SoftAuthenticator['assert']>[1] = {}) => {
    const c = await begin('/api/v3/auth/passkeys/sign-in/options');
    return post('/api/v3/auth/passkeys/sign-in').send({ challenge_id: c.challenge_id, response: auth.assert(c.options, twist) });
  };

  it('registers passkeys (discoverable, user verification required, RP id and origin from PUBLIC_URL), lists, renames and removes them', async () => {
    await createOperator(t, 'keys@example.test', 'technician');
    await createOperator(t, 'other@example.test', 'technician');
    const cookie = await signIn(t, 'keys@example.test');
    const other = await signIn(t, 'other@example.test');
    const auth = new SoftAuthenticator(ORIGIN, true);

    const first = await begin('/api/v3/auth/passkeys/options', cookie);
    expect(first.options).toMatchObject({
      rp: { id: 'rmm.example.test' },
      user: { name: 'keys@example.test' },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const created = await post('/api/v3/auth/passkeys/', cookie).send({ challenge_id: first.challenge_id, name: 'Laptop', response: auth.register(first.options) });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Laptop', created_at: clock.now().toISOString(), last_used_at: null, device_type: 'multiDevice', backed_up: true });

    clock.advance(1000);
    // The next registration excludes the credential the operator has (an authenticator does not register twice).
    const second = await begin('/api/v3/auth/passkeys/options', cookie);
    expect(second.options.excludeCredentials).toEqual([expect.objectContaining({ id: auth.credentials[0].id, type: 'public-key' })]);
    const phone = await post('/api/v3/auth/passkeys/', cookie).send({ challenge_id: second.challenge_id, response: new SoftAuthenticator(ORIGIN).register(second.options) });
    expect(phone.body).toMatchObject({ name: 'Passkey', device_type: 'singleDevice', backed_up: false });

    const list = await t.http.get('/api/v3/auth/passkeys/').set('Cookie', cookie).expect(200);
    expect((list.body as { name: string }[]).map((p) => p.name)).toEqual(['Laptop', 'Passkey']);
    expect((await t.http.get('/api/v3/auth/passkeys/').set('Cookie', other).expect(200)).body).toEqual([]);

    const id = (phone.body as { id: string }).id;
    const renamed = await t.http.patch(`/api/v3/auth/passkeys/${id}`).set(CONSOLE).set('Cookie', cookie).send({ name: ' Phone ' }).expect(200);
    expect(renamed.body).toMatchObject({ id, name: 'Phone' });
    // Someone else's passkey, or an id that is none, does not exist for the caller.
    expect((await t.http.patch(`/api/v3/auth/passkeys/${id}`).set(CONSOLE).set('Cookie', other).send({ name: 'mine' })).status).toBe(404);
    expect((await t.http.delete(`/api/v3/auth/passkeys/${id}`).set(CONSOLE).set('Cookie', other)).status).toBe(404);
    expect((await t.http.delete('/api/v3/auth/passkeys/not-a-uuid').set(CONSOLE).set('Cookie', cookie)).status).toBe(404);
    // Changes need the console's header; without a session, nothing.
    expect((await t.http.delete(`/api/v3/auth/passkeys/${id}`).set('Cookie', cookie)).body).toEqual({ detail: 'CSRF check failed' });
    expect((await post('/api/v3/auth/passkeys/options')).status).toBe(401);
    expect((await t.http.get('/api/v3/auth/passkeys/').set('X-API-KEY', adminKey)).status).toBe(401);

    await t.http.delete(`/api/v3/auth/passkeys/${id}`).set(CONSOLE).set('Cookie', cookie).expect(204);
    expect(((await t.http.get('/api/v3/auth/passkeys/').set('Cookie', cookie)).body as unknown[]).length).toBe(1);
  });

  it('refuses a registration from another origin, for another RP id, without user verification, or with a used challenge', async () => {
    await createOperator(t, 'reg@example.test', 'viewer');
    const cookie = await signIn(t, 'reg@example.test');
    const auth = new SoftAuthenticator(ORIGIN);
    for (const twist of [{ origin: 'https://evil.example.test' }, { rpId: 'evil.example.test' }, { uv: false }]) {
      const c = await begin('/api/v3/auth/passkeys/options', cookie);
      const res = await post('/api/v3/auth/passkeys/', cookie).send({ challenge_id: c.challenge_id, response: auth.register(c.options, twist) });
      expect([JSON.stringify(twist), res.status, (res.body as { errors: { field: string }[] }).errors[0].field]).toEqual([JSON.stringify(twist), 400, 'response']);
    }
    const c = await begin('/api/v3/auth/passkeys/options', cookie);
    const answer = { challenge_id: c.challenge_id, response: auth.register(c.options) };
    expect((await post('/api/v3/auth/passkeys/', cookie).send(answer)).status).toBe(201);
    const again = await post('/api/v3/auth/passkeys/', cookie).send(answer);
    expect([again.status, (again.body as { errors: { field: string }[] }).errors[0].field]).toEqual([400, 'challenge_id']);
    expect(await sql(t.db.url, `SELECT name FROM operator_passkeys p JOIN operators o ON o.id = p.operator_id WHERE o.email = 'reg@example.test'`)).toHaveLength(1);
  });

  it('signs in with a passkey alone (discoverable: no allowCredentials), setting rmm_session with the method passkey, even with password sign-in turned off', async () => {
    await createOperator(t, 'alone@example.test', 'technician');
    const auth = new SoftAuthenticator(ORIGIN);
    await register(await signIn(t, 'alone@example.test'), auth, 'Key');

    const c = await begin('/api/v3/auth/passkeys/sign-in/options');
    expect(c.options).toMatchObject({ rpId: 'rmm.example.test', userVerification: 'required' });
    expect(c.options.allowCredentials ?? []).toEqual([]);
    t.server.runtime.passwordLogin = false;
    try {
      const res = await post('/api/v3/auth/passkeys/sign-in').send({ challenge_id: c.challenge_id, response: auth.assert(c.options) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ operator: { email: 'alone@example.test', role: 'technician' } });
      const cookie = sessionPair(res.headers['set-cookie']);
      expect(res.headers['set-cookie']![0]).toMatch(/HttpOnly; SameSite=Strict; Secure$/);
      expect((await t.http.get('/api/v3/auth/me').set('Cookie', cookie).expect(200)).body).toMatchObject({ operator: { email: 'alone@example.test' } });
      const methods = await sql<{ method: string }>(t.db.url, `SELECT s.method FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE o.email = 'alone@example.test' ORDER BY s.method`);
      expect(methods.map((m) => m.method)).toEqual(['passkey', 'password']);
      const list = await t.http.get('/api/v3/auth/passkeys/').set('Cookie', cookie).expect(200);
      expect(list.body).toEqual([expect.objectContaining({ name: 'Key', last_used_at: clock.now().toISOString() })]);
    } finally {
      t.server.runtime.passwordLogin = true;
    }
  });

  it('refuses a cloned credential whose counter does not increase, a replayed challenge, the wrong origin or RP id, no user verification, an unknown or removed passkey, a disabled operator', async () => {
    const id = await createOperator(t, 'refused@example.test', 'technician');
    const cookie = await signIn(t, 'refused@example.test');
    const auth = new SoftAuthenticator(ORIGIN);
    const passkeyId = await register(cookie, auth);
    const original = auth.credentials[0];

    // A copy of the authenticator made now: it and the original both sign the next counter; the second use is refused.
    const copy = auth.clone(original);
    expect((await passkeySignIn(auth)).status).toBe(200);
    const cloned = await passkeySignIn(auth, { credential: copy });
    expect([cloned.status, cloned.body]).toEqual([401, INVALID]);
    expect(cloned.headers['set-cookie']).toBeUndefined();
    expect((await passkeySignIn(auth, { counter: 1 })).status).toBe(401); // lower than the server's
    expect((await passkeySignIn(auth, { counter: 50 })).status).toBe(200); // the original moves on

    // A replayed answer: its challenge was taken by the first use.
    const c = await begin('/api/v3/auth/passkeys/sign-in/options');
    const answer = { challenge_id: c.challenge_id, response: auth.assert(c.options) };
    expect((await post('/api/v3/auth/passkeys/sign-in').send(answer)).status).toBe(200);
    expect((await post('/api/v3/auth/passkeys/sign-in').send(answer)).body).toEqual(INVALID);

    for (const twist of [{ origin: 'https://rmm.example.test.evil.example' }, { rpId: 'evil.example.test' }, { uv: false }]) {
      const res = await passkeySignIn(auth, twist);
      expect([JSON.stringify(twist), res.status, res.body]).toEqual([JSON.stringify(twist), 401, INVALID]);
    }
    // An expired challenge (5 minutes), an unknown credential.
    const old = await begin('/api/v3/auth/passkeys/sign-in/options');
    clock.advance(5 * 60_000 + 1);
    expect((await post('/api/v3/auth/passkeys/sign-in').send({ challenge_id: old.challenge_id, response: auth.assert(old.options) })).status).toBe(401);
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.register({ challenge: 'x', rp: { id: 'rmm.example.test' }, user: { id: 'eA' } });
    expect((await passkeySignIn(stranger)).body).toEqual(INVALID);

    await t.server.app.get(OperatorsService).update(id, { disabled: true });
    expect((await passkeySignIn(auth)).body).toEqual(INVALID);
    await t.server.app.get(OperatorsService).update(id, { disabled: false });
    const signedIn = await passkeySignIn(auth);
    expect(signedIn.status).toBe(200);
    const again = sessionPair(signedIn.headers['set-cookie']);
    await t.http.delete(`/api/v3/auth/passkeys/${passkeyId}`).set(CONSOLE).set('Cookie', again).expect(204);
    expect((await passkeySignIn(auth)).body).toEqual(INVALID);

    // The audit log has each try, the method and the address (a failure names nobody, or the account when known).
    await until('the passkey sign-ins in the audit log', async () => {
      const rows = await sql<{ outcome: string }>(t.db.url, `SELECT outcome FROM audit_log WHERE action = 'POST /api/v3/auth/passkeys/sign-in/'`);
      return rows.some((r) => r.outcome === '401 passkey') && rows.some((r) => r.outcome === '200 passkey');
    });
    const rows = await sql<{ actor_kind: string; actor_name: string; client_address: string }>(
      t.db.url,
      `SELECT actor_kind, actor_name, client_address FROM audit_log WHERE action = 'POST /api/v3/auth/passkeys/sign-in/' AND outcome = '200 passkey' AND actor_name = 'refused@example.test'`,
    );
    expect(rows[0]).toMatchObject({ actor_kind: 'operator', actor_name: 'refused@example.test' });
    expect(rows[0].client_address).toMatch(/127\.0\.0\.1$/);
  });

  it('asks for a passkey as the second factor of a password sign-in, alone or beside the TOTP code', async () => {
    const id = await createOperator(t, 'second@example.test', 'admin');
    const auth = new SoftAuthenticator(ORIGIN);
    await register(await signIn(t, 'second@example.test'), auth);
    const login = (body: object) => t.http.post('/api/v3/auth/login').send({ email: 'second@example.test', password: OPERATOR_PASSWORD, ...body });

    const asked = await login({});
    expect(asked.status).toBe(401);
    expect(asked.body).toEqual({ detail: 'Invalid credentials', passkey_required: true, passkey_options: expect.any(Object), challenge_id: expect.any(String) });
    const body = asked.body as { passkey_options: Options; challenge_id: string };
    expect(body.passkey_options.allowCredentials).toEqual([expect.objectContaining({ id: auth.credentials[0].id })]);
    // A wrong password asks for nothing more.
    expect((await t.http.post('/api/v3/auth/login').send({ email: 'second@example.test', password: 'not the password' })).body).toEqual(INVALID);
    // A wrong passkey answer: refused, with a new ceremony offered.
    const wrong = await login({ passkey: { challenge_id: body.challenge_id, response: auth.assert(body.passkey_options, { uv: false }) } });
    expect(wrong.body).toMatchObject({ passkey_required: true });
    const fresh = wrong.body as { passkey_options: Options; challenge_id: string };
    const ok = await login({ passkey: { challenge_id: fresh.challenge_id, response: auth.assert(fresh.passkey_options) } });
    expect(ok.status).toBe(200);
    const methods = await sql<{ method: string }>(t.db.url, `SELECT method FROM operator_sessions WHERE operator_id = $1 ORDER BY method`, [id]);
    expect(methods.map((m) => m.method)).toEqual(['password', 'password+passkey']); // (the first: before the passkey existed)

    // With TOTP set up too, either second factor is enough.
    const { uri } = await t.server.app.get(OperatorsService).enableTotp(id);
    const both = await login({});
    expect(both.body).toMatchObject({ detail: 'Invalid credentials', totp_required: true, passkey_required: true });
    const secret = new URL(uri).searchParams.get('secret')!;
    expect((await login({ totp: totpCode(secret, clock.now()) })).status).toBe(200);
    const again = (await login({})).body as { passkey_options: Options; challenge_id: string };
    expect((await login({ passkey: { challenge_id: again.challenge_id, response: auth.assert(again.passkey_options) } })).status).toBe(200);
  });

  it('re-authenticates a session with a passkey (step-up): authenticated_at moves to now, for this session only', async () => {
    await createOperator(t, 'stepup@example.test', 'technician');
    const auth = new SoftAuthenticator(ORIGIN);
    await createOperator(t, 'nokeys@example.test', 'technician');
    const signedInAt = clock.now();
    const cookie = await signIn(t, 'stepup@example.test');
    await register(cookie, auth);
    clock.advance(11 * 60_000);
    const authenticatedAt = async (): Promise<string> => {
      const [row] = await sql<{ at: Date }>(t.db.url, `SELECT s.authenticated_at AS at FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE o.email = 'stepup@example.test'`);
      return row.at.toISOString();
    };
    expect(await authenticatedAt()).toBe(signedInAt.toISOString());

    const c = await begin('/api/v3/auth/passkeys/step-up/options', cookie);
    expect(c.options.allowCredentials).toEqual([expect.objectContaining({ id: auth.credentials[0].id })]);
    // Without user verification: refused, nothing moves.
    expect((await post('/api/v3/auth/passkeys/step-up', cookie).send({ challenge_id: c.challenge_id, response: auth.assert(c.options, { uv: false }) })).body).toEqual(INVALID);
    expect(await authenticatedAt()).toBe(signedInAt.toISOString());

    const next = await begin('/api/v3/auth/passkeys/step-up/options', cookie);
    await post('/api/v3/auth/passkeys/step-up', cookie).send({ challenge_id: next.challenge_id, response: auth.assert(next.options) }).expect(204);
    expect(await authenticatedAt()).toBe(clock.now().toISOString());

    // Another operator's session cannot finish this one's ceremony; an operator without passkeys is told so.
    const nokeys = await signIn(t, 'nokeys@example.test');
    const mine = await begin('/api/v3/auth/passkeys/step-up/options', cookie);
    expect((await post('/api/v3/auth/passkeys/step-up', nokeys).send({ challenge_id: mine.challenge_id, response: auth.assert(mine.options) })).status).toBe(401);
    const none = await post('/api/v3/auth/passkeys/step-up/options', nokeys);
    expect([none.status, (none.body as { errors: { message: string }[] }).errors[0].message]).toEqual([400, 'no passkey is registered for this operator']);
  });
});

describe('passkeys: beginning sign-ins is bounded per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { overrides: { publicUrl: PUBLIC_URL } });
  }, 60_000);
  afterAll(() => t?.close());

  it('lets one address begin 60 passkey sign-ins a minute, then answers 429 with Retry-After and stores no more challenges', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await t.http.post('/api/v3/auth/passkeys/sign-in/options').set(CONSOLE)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await t.http.post('/api/v3/auth/passkeys/sign-in/options').set(CONSOLE);
    expect([refused.status, refused.body]).toEqual([429, { detail: 'rate limited' }]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const [row] = await sql<{ n: string }>(t.db.url, `SELECT count(*) AS n FROM auth_challenges WHERE purpose = 'passkey_sign_in'`);
    expect(Number(row.n)).toBe(60);
  });
});
