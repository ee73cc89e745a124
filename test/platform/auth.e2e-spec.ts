import { SignJWT } from 'jose';
import { FixedClock } from '../../apps/api/src/common/clock';
import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/** /auth/v1 over real HTTP: every status and body of the GoTrue subset (issue 3). */
describe('/auth/v1 (GoTrue-compatible)', () => {
  const ANON = 'anon-key-for-auth-tests-0123456789';
  const SERVICE = 'service-key-for-auth-tests-0123456789';
  const JWT_SECRET = 'a-jwt-secret-for-the-auth-tests-0123456789abcdef';
  const clock = new FixedClock(new Date('2026-11-22T10:00:00Z'));
  let t: TestApp;
  let userId: string;

  const signIn = (email = 'ann@acme.test', password = 'ann-password', headers: Record<string, string> = {}) =>
    t.http.post('/auth/v1/token?grant_type=password').set({ apikey: ANON, ...headers }).send({ email, password, gotrue_meta_security: {} });
  const getUser = (token: string) => t.http.get('/auth/v1/user').set('apikey', ANON).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    t = await startTestApp({ DATA_ANON_KEY: ANON, DATA_SERVICE_ROLE_KEY: SERVICE, JWT_SECRET }, { clock });
    userId = (await t.server.app.get(UsersService).create({ email: 'ann@acme.test', password: 'ann-password', clientId: 3, siteId: 4 })).user.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /token?grant_type=password', () => {
    it('answers 200 with a session supabase-js accepts, and extra fields in the body are ignored', async () => {
      const res = await signIn();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 3600,
        expires_at: Math.floor(clock.now().getTime() / 1000) + 3600,
        refresh_token: expect.any(String),
        user: expect.objectContaining({ id: userId, email: 'ann@acme.test', aud: 'authenticated', role: 'authenticated' }),
      });
      expect(res.body.user.last_sign_in_at).toBe(clock.now().toISOString());
    });

    it('issues an HS256 JWT signed with JWT_SECRET carrying sub, role, aud, exp, email and session_id', async () => {
      const res = await signIn();
      const [header, payload] = res.body.access_token.split('.').slice(0, 2).map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
      expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(payload).toMatchObject({
        sub: userId,
        role: 'authenticated',
        aud: 'authenticated',
        email: 'ann@acme.test',
        session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        exp: res.body.expires_at,
      });
      const { jwtVerify } = await import('jose');
      await expect(jwtVerify(res.body.access_token, new TextEncoder().encode(JWT_SECRET), { currentDate: clock.now() })).resolves.toBeDefined();
    });

    it('refuses a wrong password and an unknown email alike, in the legacy body without the API version header', async () => {
      for (const [email, password] of [
        ['ann@acme.test', 'wrong-password'],
        ['nobody@acme.test', 'ann-password'],
        ['ann@acme.test', ''],
      ]) {
        const res = await signIn(email, password);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
      }
    });

    it('answers {code, message} and echoes X-Supabase-Api-Version when the request names it', async () => {
      const res = await signIn('ann@acme.test', 'wrong-password', { 'X-Supabase-Api-Version': '2024-01-01' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
      expect(res.headers['x-supabase-api-version']).toBe('2024-01-01');
    });

    it('stores passwords only as argon2id hashes', async () => {
      const [row] = await sql(t.db.url, 'SELECT encrypted_password FROM auth.users WHERE id = $1', [userId]);
      expect(row.encrypted_password).toMatch(/^\$argon2id\$/);
      expect(row.encrypted_password).not.toContain('ann-password');
    });

    it('needs the anon or service-role key in apikey: 401 with the gateway message otherwise', async () => {
      const none = await t.http.post('/auth/v1/token?grant_type=password').send({ email: 'ann@acme.test', password: 'ann-password' });
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ message: 'No API key found in request' });
      const wrong = await t.http.post('/auth/v1/token?grant_type=password').set('apikey', 'nope').send({ email: 'ann@acme.test', password: 'ann-password' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ message: 'Invalid API key' });
      const service = await signIn('ann@acme.test', 'ann-password', { apikey: SERVICE });
      expect(service.status).toBe(200);
    });

    it('answers a missing email, an unknown grant type and a body that is not JSON with 400s in GoTrue format', async () => {
      const noEmail = await t.http.post('/auth/v1/token?grant_type=password').set('apikey', ANON).send({ password: 'x' });
      expect(noEmail.status).toBe(400);
      expect(noEmail.body).toEqual({ code: 400, error_code: 'validation_failed', msg: 'missing email or phone' });
      const grant = await t.http.post('/auth/v1/token?grant_type=magic').set('apikey', ANON).send({});
      expect(grant.status).toBe(400);
      expect(grant.body.error_code).toBe('validation_failed');
      const bad = await t.http.post('/auth/v1/token?grant_type=password').set('apikey', ANON).set('Content-Type', 'application/json').send('{"email":');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ code: 400, error_code: 'bad_json', msg: 'Could not parse request body as JSON' });
    });
  });

  describe('POST /token?grant_type=refresh_token', () => {
    it('gives a new pair for the same session; a refresh token works once, and reusing it ends the session', async () => {
      const first = (await signIn()).body;
      const refresh = () => t.http.post('/auth/v1/token?grant_type=refresh_token').set('apikey', ANON);
      const second = await refresh().send({ refresh_token: first.refresh_token });
      expect(second.status).toBe(200);
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      const sessionOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).session_id;
      expect(sessionOf(second.body.access_token)).toBe(sessionOf(first.access_token));

      const again = await refresh().send({ refresh_token: first.refresh_token });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ code: 400, error_code: 'refresh_token_already_used', msg: 'Invalid Refresh Token: Already Used' });
      // A reused token means a copy leaked: the whole session is gone, its newer token too.
      expect((await refresh().send({ refresh_token: second.body.refresh_token })).status).toBe(400);
      expect((await getUser(second.body.access_token)).body.error_code).toBe('session_not_found');
    });

    it('refuses an unknown or missing refresh token', async () => {
      const unknown = await t.http.post('/auth/v1/token?grant_type=refresh_token').set('apikey', ANON).send({ refresh_token: 'nope' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error_code).toBe('refresh_token_not_found');
      const missing = await t.http.post('/auth/v1/token?grant_type=refresh_token').set('apikey', ANON).send({});
      expect(missing.status).toBe(400);
      expect(missing.body.error_code).toBe('validation_failed');
    });
  });

  describe('GET /user', () => {
    it('answers 200 with the user of a valid token', async () => {
      const res = await getUser((await signIn()).body.access_token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: userId, email: 'ann@acme.test', aud: 'authenticated', role: 'authenticated', app_metadata: { provider: 'email' } });
    });

    it('answers 401 without a bearer token', async () => {
      const res = await t.http.get('/auth/v1/user').set('apikey', ANON);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, error_code: 'no_authorization', msg: 'This endpoint requires a valid Bearer token' });
    });

    it('answers 403 bad_jwt for a malformed, forged or expired token', async () => {
      const malformed = await getUser('not-a-jwt');
      expect(malformed.status).toBe(403);
      expect(malformed.body.error_code).toBe('bad_jwt');

      const forged = await new SignJWT({ role: 'authenticated', session_id: '00000000-0000-4000-8000-000000000000' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('some-other-secret-that-is-long-enough-000'));
      expect((await getUser(forged)).body.error_code).toBe('bad_jwt');

      const token = (await signIn()).body.access_token;
      clock.advance(3601_000);
      try {
        const expired = await getUser(token);
        expect(expired.status).toBe(403);
        expect(expired.body).toEqual({ code: 403, error_code: 'bad_jwt', msg: expect.stringContaining('expired') });
      } finally {
        clock.advance(-3601_000);
      }
    });

    it('answers 403 user_not_found for a deleted user and session_not_found after logout', async () => {
      const users = t.server.app.get(UsersService);
      const gone = await users.create({ email: 'gone@acme.test', password: 'gone-password' });
      const token = (await signIn('gone@acme.test', 'gone-password')).body.access_token;
      await sql(t.db.url, 'DELETE FROM auth.users WHERE id = $1', [gone.user.id]);
      const res = await getUser(token);
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('user_not_found');

      const session = (await signIn()).body;
      const out = await t.http.post('/auth/v1/logout?scope=local').set('apikey', ANON).set('Authorization', `Bearer ${session.access_token}`);
      expect(out.status).toBe(204);
      const after = await getUser(session.access_token);
      expect(after.status).toBe(403);
      expect(after.body.error_code).toBe('session_not_found');
      const refresh = await t.http.post('/auth/v1/token?grant_type=refresh_token').set('apikey', ANON).send({ refresh_token: session.refresh_token });
      expect(refresh.status).toBe(400);
    });
  });

  describe('POST /logout', () => {
    it('scope=global ends every session of the user; scope=others keeps the caller’s', async () => {
      const a = (await signIn()).body;
      const b = (await signIn()).body;
      const c = (await signIn()).body;
      expect((await t.http.post('/auth/v1/logout?scope=others').set('apikey', ANON).set('Authorization', `Bearer ${a.access_token}`)).status).toBe(204);
      expect((await getUser(a.access_token)).status).toBe(200);
      expect((await getUser(b.access_token)).status).toBe(403);
      expect((await t.http.post('/auth/v1/logout').set('apikey', ANON).set('Authorization', `Bearer ${a.access_token}`)).status).toBe(204);
      expect((await getUser(a.access_token)).status).toBe(403);
      expect((await getUser(c.access_token)).status).toBe(403);
    });

    it('needs a bearer token', async () => {
      const res = await t.http.post('/auth/v1/logout').set('apikey', ANON);
      expect(res.status).toBe(401);
    });
  });

  describe('admin users (service-role key only)', () => {
    const admin = (method: 'get' | 'post' | 'delete', path: string, key = SERVICE) =>
      t.http[method](`/auth/v1/admin/users${path}`).set('apikey', key).set('Authorization', `Bearer ${key}`);

    it('creates a user (200, no profile row), lists it, and deletes it', async () => {
      const created = await admin('post', '').send({ email: 'Bob@Acme.test', password: 'bob-password', email_confirm: true, user_metadata: { team: 'ops' } });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ email: 'bob@acme.test', email_confirmed_at: expect.any(String), user_metadata: { team: 'ops' } });
      expect(await sql(t.db.url, 'SELECT 1 FROM user_profiles WHERE id = $1', [created.body.id])).toHaveLength(0);
      expect((await signIn('bob@acme.test', 'bob-password')).status).toBe(200);

      const list = await admin('get', '?per_page=100');
      expect(list.status).toBe(200);
      expect(list.body.users.map((u: { email: string }) => u.email)).toContain('bob@acme.test');
      expect((await admin('get', `/${created.body.id}`)).body.email).toBe('bob@acme.test');

      const del = await admin('delete', `/${created.body.id}`);
      expect(del.status).toBe(200);
      expect((await admin('get', `/${created.body.id}`)).status).toBe(404);
      expect((await admin('delete', `/${created.body.id}`)).body.error_code).toBe('user_not_found');
      expect((await admin('delete', '/not-a-uuid')).status).toBe(404);
    });

    it('refuses a duplicate email (422 email_exists) and a short password (422 weak_password)', async () => {
      const dup = await admin('post', '').send({ email: 'ann@acme.test', password: 'whatever-1' });
      expect(dup.status).toBe(422);
      expect(dup.body.error_code).toBe('email_exists');
      const weak = await admin('post', '').send({ email: 'weak@acme.test', password: '123' });
      expect(weak.status).toBe(422);
      expect(weak.body.error_code).toBe('weak_password');
    });

    it('refuses the anon key and a user token: 403 not_admin', async () => {
      expect((await admin('get', '', ANON)).body).toEqual({ code: 403, error_code: 'not_admin', msg: 'User not allowed' });
      const token = (await signIn()).body.access_token;
      const asUser = await t.http.post('/auth/v1/admin/users').set('apikey', ANON).set('Authorization', `Bearer ${token}`).send({ email: 'x@acme.test', password: 'x-password' });
      expect(asUser.status).toBe(403);
      expect(asUser.body.error_code).toBe('not_admin');
    });
  });

  it('answers preflight requests and every answer with CORS headers for browsers', async () => {
    const pre = await t.http.options('/auth/v1/token?grant_type=password');
    expect(pre.status).toBe(200);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-headers']).toContain('apikey');
    const res = await signIn();
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers unknown /auth/v1 paths 404 in GoTrue format', async () => {
    const res = await t.http.get('/auth/v1/nothing-here').set('apikey', ANON);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, error_code: 'not_found' });
  });

  it('never writes the keys, passwords or tokens to the log', async () => {
    const session = (await signIn()).body;
    await getUser(session.access_token);
    const log = t.logs.join('\n');
    for (const secret of [ANON, SERVICE, JWT_SECRET, 'ann-password', session.access_token, session.refresh_token]) expect(log).not.toContain(secret);
  });
});
