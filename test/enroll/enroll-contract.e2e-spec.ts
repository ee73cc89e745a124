import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { FakeBackend, refusedUrl } from '../utils/fake-backend';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * The spec's Errors table and processing order for POST /functions/v1/enroll-rmm, row by row,
 * against a fake backend (RMM_API_URL) that records what it received and fails on demand. The data
 * platform is this server's own (DATA_URL defaults to the server itself), called in process.
 */
const BACKEND_KEY = 'contract-backend-key-0123456789';
const SERVICE_KEY = 'contract-service-role-key-0123456789';
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
};
const PATH = '/functions/v1/enroll-rmm';

describe('POST /functions/v1/enroll-rmm (contract)', () => {
  let t: TestApp;
  let backend: FakeBackend;
  let token: string; // a user with a profile for client 5, site 6
  let userId: string;
  let tokenNoProfile: string;
  let tokenNullTenant: string;

  const signIn = async (email: string, password: string): Promise<string> => {
    const res = await t.http
      .post('/auth/v1/token?grant_type=password')
      .set('apikey', t.server.runtime.dataAnonKey)
      .send({ email, password });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  };
  const enroll = (auth: string | undefined, body: unknown, contentType = 'application/json') => {
    const req = t.http.post(PATH);
    if (auth !== undefined) req.set('Authorization', auth);
    if (body === undefined) return req;
    return req.set('Content-Type', contentType).send(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const expectFunctionError = (res: { status: number; body: unknown; headers: Record<string, string> }, status: number, error: string | RegExp) => {
    expect(res.status).toBe(status);
    if (typeof error === 'string') expect(res.body).toEqual({ error });
    else expect((res.body as { error: string }).error).toMatch(error);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers).toMatchObject(CORS);
  };

  beforeAll(async () => {
    backend = await new FakeBackend().start();
    t = await startTestApp({
      RMM_API_URL: backend.url,
      RMM_API_KEY: BACKEND_KEY,
      DATA_SERVICE_ROLE_KEY: SERVICE_KEY,
      RMM_DEFAULT_CLIENT_ID: '77',
      RMM_DEFAULT_SITE_ID: '88',
      ENROLL_UPSTREAM_TIMEOUT_MS: '1500',
      // This file enrolls one user far more than 10 times a minute; the per-user limit has its own tests.
      ENROLL_RATE_LIMIT_PER_USER_PER_MINUTE: '1000',
    });
    const users = t.server.app.get(UsersService);
    userId = (await users.create({ email: 'tech@acme.test', password: 'pw-acme-1', clientId: 5, siteId: 6 })).user.id;
    const noProfile = await users.create({ email: 'nobody@acme.test', password: 'pw-nobody-1' });
    await sql(t.db.url, 'DELETE FROM user_profiles WHERE id = $1', [noProfile.user.id]);
    await users.create({ email: 'default@acme.test', password: 'pw-default-1' });
    token = await signIn('tech@acme.test', 'pw-acme-1');
    tokenNoProfile = await signIn('nobody@acme.test', 'pw-nobody-1');
    tokenNullTenant = await signIn('default@acme.test', 'pw-default-1');
  });
  afterAll(async () => {
    await t?.close();
    await backend?.stop();
  });
  beforeEach(() => {
    backend.mode = 201;
    backend.received.length = 0;
  });

  describe('CORS and method (step 1)', () => {
    it('answers OPTIONS with 200, an empty body and the three CORS headers', async () => {
      const res = await t.http.options(PATH);
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers).toMatchObject(CORS);
    });

    it.each(['get', 'put', 'patch', 'delete'] as const)('answers %s with 405 Method not allowed before looking at the token', async (method) => {
      const res = await t.http[method](PATH);
      expectFunctionError(res, 405, 'Method not allowed');
    });
  });

  describe('token (step 2)', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a Basic header', 'Basic dXNlcjpwYXNz'],
      ['a lower-case bearer', `bearer ${'x'.repeat(20)}`],
      ['"Bearer" without a space', 'Bearer'],
    ])('answers 401 Missing Bearer token for %s', async (_what, auth) => {
      expectFunctionError(await enroll(auth, { hostname: 'h', platform: 'windows' }), 401, 'Missing Bearer token');
    });

    it.each([
      ['garbage', 'Bearer not-a-jwt'],
      ['a token signed with another secret', 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjMiLCJyb2xlIjoiYXV0aGVudGljYXRlZCJ9.c2lnbmF0dXJl'],
      ['the anon key', 'Bearer ANON'],
    ])('answers 401 Invalid user token for %s', async (_what, auth) => {
      const header = auth === 'Bearer ANON' ? `Bearer ${t.server.runtime.dataAnonKey}` : auth;
      expectFunctionError(await enroll(header, { hostname: 'h', platform: 'windows' }), 401, 'Invalid user token');
    });

    it('checks the token before the body: a bad token with a bad body is 401', async () => {
      expectFunctionError(await enroll('Bearer nope', '{not json'), 401, 'Invalid user token');
    });
  });

  describe('profile (step 3)', () => {
    it('answers 404 User profile not found for a user without a profile row', async () => {
      expectFunctionError(await enroll(`Bearer ${tokenNoProfile}`, { hostname: 'h', platform: 'windows' }), 404, 'User profile not found');
    });

    it('answers 404, not 400, when that user also sends a body that is not JSON, or no fields', async () => {
      expectFunctionError(await enroll(`Bearer ${tokenNoProfile}`, '{"hostname": '), 404, 'User profile not found');
      expectFunctionError(await enroll(`Bearer ${tokenNoProfile}`, 'plain words', 'text/plain'), 404, 'User profile not found');
      expectFunctionError(await enroll(`Bearer ${tokenNoProfile}`, {}), 404, 'User profile not found');
      expect(backend.received).toHaveLength(0);
    });

    it('uses RMM_DEFAULT_CLIENT_ID and RMM_DEFAULT_SITE_ID when the profile ids are null', async () => {
      const res = await enroll(`Bearer ${tokenNullTenant}`, { hostname: 'dflt', platform: 'linux' });
      expect(res.status).toBe(200);
      expect(JSON.parse(backend.received[0].body)).toMatchObject({ client: 77, site: 88 });
    });
  });

  describe('body (steps 4 and 5)', () => {
    it.each([
      ['broken JSON', '{"hostname": "h", '],
      ['an empty body', ''],
      ['words', 'hello'],
    ])('answers 400 Invalid JSON body for %s', async (_what, body) => {
      expectFunctionError(await enroll(`Bearer ${token}`, body), 400, 'Invalid JSON body');
    });

    it('parses the body itself whatever the content type: text/plain JSON and no content type are read', async () => {
      expect((await enroll(`Bearer ${token}`, { hostname: 'tp', platform: 'windows' }, 'text/plain')).status).toBe(200);
      const bare = await t.http.post(PATH).set('Authorization', `Bearer ${token}`).serialize((x: unknown) => x as string).send('{"hostname":"nc","platform":"linux"}').unset('Content-Type');
      expect(bare.status).toBe(200);
      const notJson = await enroll(`Bearer ${token}`, 'not json', 'text/plain');
      expectFunctionError(notJson, 400, 'Invalid JSON body');
    });

    it.each([
      [{ platform: 'windows' }],
      [{ hostname: 'h' }],
      [{ hostname: '', platform: 'windows' }],
      [{ hostname: 'h', platform: '' }],
      [{ hostname: '   ', platform: 'windows' }],
      [{ hostname: 42, platform: 'windows' }],
      [[]],
      [null],
      ['"just a string"'],
    ])('answers 400 hostname and platform are required for %j', async (body) => {
      const res = await enroll(`Bearer ${token}`, typeof body === 'string' ? body : JSON.stringify(body));
      expectFunctionError(res, 400, 'hostname and platform are required');
      expect(backend.received).toHaveLength(0);
    });
  });

  describe('backend call (step 6) and answer (step 8)', () => {
    it('sends exactly {client, site, expires, arch} with X-API-KEY and answers 200 with the deployment', async () => {
      const before = Date.now();
      const res = await enroll(`Bearer ${token}`, { hostname: 'WS-001', platform: 'windows', extra: 'ignored' });
      const after = Date.now();
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject(CORS);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(backend.received).toHaveLength(1);
      const got = backend.received[0];
      expect(got.method).toBe('POST');
      expect(got.path).toBe('/api/v3/agents/deployments/');
      expect(got.headers['x-api-key']).toBe(BACKEND_KEY);
      expect(got.headers['content-type']).toMatch(/^application\/json/);
      const sent = JSON.parse(got.body);
      expect(Object.keys(sent).sort()).toEqual(['arch', 'client', 'expires', 'site']);
      expect(sent).toMatchObject({ client: 5, site: 6, arch: 'amd64' });
      expect(sent.expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const expires = new Date(sent.expires).getTime();
      expect(expires).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
      expect(expires).toBeLessThanOrEqual(after + 86_400_000 + 1000);
      // The function answers the backend's own deployment, untouched.
      const n = Number(/\/download\/(\d+)$/.exec(res.body.download_url)?.[1]);
      expect(res.body).toEqual({
        download_url: `https://rmm.example.test/download/${n}`,
        deployment_uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        expires_at: sent.expires,
      });
    });

    it.each([
      ['windows', undefined, 'amd64'],
      ['darwin', undefined, 'amd64-mac'],
      ['linux', undefined, 'amd64'],
      ['freebsd', undefined, 'amd64'],
      ['windows', 'arm64', 'arm64'],
      ['darwin', 'riscv-not-validated', 'riscv-not-validated'],
    ])('platform %s with arch %s sends arch %s (other platforms and arches are not rejected)', async (platform, arch, expected) => {
      const res = await enroll(`Bearer ${token}`, { hostname: 'a', platform, ...(arch ? { arch } : {}) });
      expect(res.status).toBe(200);
      expect(JSON.parse(backend.received[0].body).arch).toBe(expected);
    });

    it('writes a pending enrollment_log row for the deployment', async () => {
      const res = await enroll(`Bearer ${token}`, { hostname: 'LOG-1', platform: 'darwin' });
      const rows = await sql(t.db.url, 'SELECT * FROM enrollment_log WHERE deployment_uuid = $1', [res.body.deployment_uuid]);
      expect(rows).toEqual([
        expect.objectContaining({ user_id: userId, client_id: 5, site_id: 6, hostname: 'LOG-1', platform: 'darwin', status: 'pending', agent_id: null, completed_at: null }),
      ]);
    });

    it('creates a new deployment and a new log row on every call (re-enrollment is not deduplicated here)', async () => {
      const a = await enroll(`Bearer ${token}`, { hostname: 'SAME', platform: 'windows' });
      const b = await enroll(`Bearer ${token}`, { hostname: 'SAME', platform: 'windows' });
      expect(a.body.deployment_uuid).not.toBe(b.body.deployment_uuid);
      expect(backend.received).toHaveLength(2);
      const rows = await sql(t.db.url, `SELECT deployment_uuid FROM enrollment_log WHERE hostname = 'SAME'`);
      expect(rows).toHaveLength(2);
    });

    it.each([400, 401, 404, 429, 500] as const)('answers 502 when the backend answers %s, without its body, and writes no log row', async (status) => {
      backend.mode = status;
      const res = await enroll(`Bearer ${token}`, { hostname: `FAIL-${status}`, platform: 'windows' });
      expectFunctionError(res, 502, /deployment creation failed/i);
      expect(JSON.stringify(res.body)).not.toMatch(/rate limited|validation|Invalid token|server error/);
      expect(await sql(t.db.url, `SELECT 1 FROM enrollment_log WHERE hostname = $1`, [`FAIL-${status}`])).toEqual([]);
      const logged = t.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'backend deployment creation failed');
      expect(logged[logged.length - 1].result.status).toBe(status);
    });

    it('answers 502 when the backend answers success without a deployment', async () => {
      backend.mode = 'not-json-201';
      expectFunctionError(await enroll(`Bearer ${token}`, { hostname: 'nj', platform: 'windows' }), 502, /deployment creation failed/i);
    });

    it('answers 502 within the time limit when the backend does not answer', async () => {
      backend.mode = 'hang';
      const started = Date.now();
      const res = await enroll(`Bearer ${token}`, { hostname: 'hang', platform: 'windows' });
      expectFunctionError(res, 502, /deployment creation failed/i);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });

  describe('secrets', () => {
    it('never returns or logs the backend key or the service-role key, even when the backend echoes the key', async () => {
      backend.mode = 'echo-key-401';
      const res = await enroll(`Bearer ${token}`, { hostname: 'echo', platform: 'windows' });
      expect(res.status).toBe(502);
      expect(JSON.stringify(res.body)).not.toContain(BACKEND_KEY);
      expect(backend.received[0].body).not.toContain(SERVICE_KEY);
      const all = t.logs.join('\n');
      expect(all).toContain('[REDACTED]'); // the echoed key was there, and was scrubbed
      expect(all).not.toContain(BACKEND_KEY);
      expect(all).not.toContain(SERVICE_KEY);
    });
  });
});

describe('POST /functions/v1/enroll-rmm when the backend refuses connections', () => {
  it('answers 502 at once', async () => {
    const t = await startTestApp({ RMM_API_URL: await refusedUrl(), RMM_API_KEY: BACKEND_KEY });
    try {
      await t.server.app.get(UsersService).create({ email: 'r@x.test', password: 'pw-r-12345', clientId: 1, siteId: 1 });
      const login = await t.http.post('/auth/v1/token?grant_type=password').set('apikey', t.server.runtime.dataAnonKey).send({ email: 'r@x.test', password: 'pw-r-12345' });
      const started = Date.now();
      const res = await t.http.post(PATH).set('Authorization', `Bearer ${login.body.access_token}`).send({ hostname: 'h', platform: 'linux' });
      expect(res.status).toBe(502);
      expect(res.body.error).toMatch(/deployment creation failed/i);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(t.logs.join('\n')).not.toContain(BACKEND_KEY);
    } finally {
      await t.close();
    }
  });
});

describe('POST /functions/v1/enroll-rmm when the audit insert fails', () => {
  it('still answers 200, retries, and logs an error naming the deployment uuid', async () => {
    const backend = await new FakeBackend().start();
    const t = await startTestApp({ RMM_API_URL: backend.url, RMM_API_KEY: BACKEND_KEY });
    try {
      await t.server.app.get(UsersService).create({ email: 'a@x.test', password: 'pw-a-12345', clientId: 1, siteId: 1 });
      const login = await t.http.post('/auth/v1/token?grant_type=password').set('apikey', t.server.runtime.dataAnonKey).send({ email: 'a@x.test', password: 'pw-a-12345' });
      await sql(t.db.url, 'ALTER TABLE enrollment_log RENAME TO enrollment_log_gone');
      const res = await t.http.post(PATH).set('Authorization', `Bearer ${login.body.access_token}`).send({ hostname: 'h', platform: 'linux' });
      expect(res.status).toBe(200);
      const uuid = res.body.deployment_uuid;
      const deadline = Date.now() + 10_000;
      const failed = () => t.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'enrollment_log insert failed after retries');
      while (!failed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(failed()).toMatchObject({ level: 'error', deployment_uuid: uuid });
      const attempts = t.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'enrollment_log insert failed');
      expect(attempts).toHaveLength(3);
    } finally {
      await t.close();
      await backend.stop();
    }
  });
});
