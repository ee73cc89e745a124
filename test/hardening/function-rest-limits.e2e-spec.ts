import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
};
const ENROLL = '/functions/v1/enroll-rmm';

async function signedIn(t: TestApp, email: string, tenant: { clientId: number; siteId: number }): Promise<{ id: string; token: string }> {
  const password = `${email}-password`;
  const { user } = await t.server.app.get(UsersService).create({ email, password, ...tenant });
  const login = await t.http.post('/auth/v1/token?grant_type=password').set('apikey', t.server.runtime.dataAnonKey).send({ email, password });
  expect(login.status).toBe(200);
  return { id: user.id, token: login.body.access_token as string };
}

const retryAfterOk = (value: string | undefined): void => {
  expect(value).toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
  expect(Number(value)).toBeLessThanOrEqual(60);
};

/**
 * Finding 2 (MEDIUM): the function's one backend key shared the 20 deployments a minute of /api/v3 among all
 * users, so one user could shut off enrollment for every tenant. Now each user has their own enrollment budget
 * (ENROLL_RATE_LIMIT_PER_USER_PER_MINUTE) and the function's key its own /api/v3 budget.
 */
describe('enrollment limits per user, and the function key\'s own /api/v3 budget (default configuration)', () => {
  let t: TestApp;
  const enroll = (token: string, hostname: string) => t.http.post(ENROLL).set('Authorization', `Bearer ${token}`).send({ hostname, platform: 'windows' });

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('25 enrollments by user A: 10 answer 200, then 429 {error} with Retry-After and CORS; user B of another tenant still gets 200', async () => {
    const a = await signedIn(t, 'a@acme.test', await createTenant(t, 'Acme'));
    const b = await signedIn(t, 'b@globex.test', await createTenant(t, 'Globex'));
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await enroll(a.token, `ACME-${i}`));
    expect(answers.map((r) => r.status)).toEqual([...Array(10).fill(200), ...Array(15).fill(429)]);
    const refused = answers[10];
    expect(refused.body).toEqual({ error: 'Too many enrollments: at most 10 per minute per user' });
    expect(refused.headers).toMatchObject(CORS);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    retryAfterOk(refused.headers['retry-after']);

    const other = await enroll(b.token, 'GLOBEX-1');
    expect(other.status).toBe(200);
    expect(other.body.download_url).toEqual(expect.any(String));
  });

  it('counts only requests that would create a deployment: a refused body does not spend the enrollment budget', async () => {
    const c = await signedIn(t, 'c@initech.test', await createTenant(t, 'Initech'));
    for (let i = 0; i < 12; i++) {
      const bad = await t.http.post(ENROLL).set('Authorization', `Bearer ${c.token}`).send({ hostname: 'x'.repeat(300), platform: 'windows' });
      expect(bad.status).toBe(400);
    }
    expect((await enroll(c.token, 'INITECH-1')).status).toBe(200);
  });

  it("the function's key is not held to 20 deployments a minute: 3 users x 8 enrollments all succeed; other keys still are", async () => {
    const users = [];
    for (const name of ['hooli', 'umbrella', 'vandelay']) users.push(await signedIn(t, `it@${name}.test`, await createTenant(t, name)));
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) for (const u of users) statuses.push((await enroll(u.token, `${u.id.slice(0, 4)}-${i}`)).status);
    expect(statuses).toEqual(Array(24).fill(200));

    // Another key, even one named like the function's, keeps the 20 deployments a minute.
    const tenant = await createTenant(t, 'Stark');
    const impostor = await createKey(t, ['deployments:write'], 'enroll-rmm function');
    const created: number[] = [];
    for (let i = 0; i < 21; i++) {
      created.push((await t.http.post('/api/v3/agents/deployments/').set('X-API-KEY', impostor).send({ client: tenant.clientId, site: tenant.siteId })).status);
    }
    expect(created).toEqual([...Array(20).fill(201), 429]);
  });
});

describe('per-caller budget of /rest/v1 and /functions/v1 together (PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE)', () => {
  const ANON = 'anon-key-for-limit-tests-0123456789';
  const SERVICE = 'service-key-for-limit-tests-0123456789';
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ DATA_ANON_KEY: ANON, DATA_SERVICE_ROLE_KEY: SERVICE, PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE: '5' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a user spends one budget on /rest/v1 and the function: then 429 in each surface\'s format with Retry-After; another user is unaffected', async () => {
    const tenant = await createTenant(t, 'Acme');
    const ann = await signedIn(t, 'ann@acme.test', tenant);
    const bob = await signedIn(t, 'bob@acme.test', tenant);
    const asAnn = { apikey: ANON, Authorization: `Bearer ${ann.token}` };

    // 5 requests: 3 to /rest/v1, one enrollment (whose own calls to /rest/v1 use the service role, not Ann's budget), one status.
    for (let i = 0; i < 3; i++) expect((await t.http.get('/rest/v1/enrollment_log?select=id').set(asAnn)).status).toBe(200);
    const enrolled = await t.http.post(ENROLL).set('Authorization', `Bearer ${ann.token}`).send({ hostname: 'ANN-1', platform: 'linux' });
    expect(enrolled.status).toBe(200);
    const status = await t.http.get(`${ENROLL}/status?deployment_uuid=${enrolled.body.deployment_uuid}`).set('Authorization', `Bearer ${ann.token}`);
    expect(status.status).toBe(200);

    const rest = await t.http.get('/rest/v1/enrollment_log?select=id').set(asAnn);
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ code: expect.any(String), details: null, hint: null, message: 'Too many requests: at most 5 per minute' });
    retryAfterOk(rest.headers['retry-after']);
    expect(rest.headers['access-control-allow-origin']).toBe('*');

    const fn = await t.http.post(ENROLL).set('Authorization', `Bearer ${ann.token}`).send({ hostname: 'ANN-2', platform: 'linux' });
    expect(fn.status).toBe(429);
    expect(fn.body).toEqual({ error: 'Too many requests: at most 5 per minute' });
    expect(fn.headers).toMatchObject(CORS);
    retryAfterOk(fn.headers['retry-after']);
    const fnStatus = await t.http.get(`${ENROLL}/status?deployment_uuid=${enrolled.body.deployment_uuid}`).set('Authorization', `Bearer ${ann.token}`);
    expect(fnStatus.status).toBe(429);
    expect(fnStatus.headers['access-control-allow-methods']).toBe('GET, OPTIONS');

    expect((await t.http.get('/rest/v1/enrollment_log?select=id').set({ apikey: ANON, Authorization: `Bearer ${bob.token}` })).status).toBe(200);
    expect((await t.http.post(ENROLL).set('Authorization', `Bearer ${bob.token}`).send({ hostname: 'BOB-1', platform: 'linux' })).status).toBe(200);
  });

  it('callers without a user token share their key\'s budget (anon); the service role, the server\'s own key, has the function key\'s', async () => {
    const anon = [];
    for (let i = 0; i < 6; i++) anon.push(await t.http.get('/rest/v1/user_profiles?select=id').set('apikey', ANON));
    expect(anon.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]); // 401 42501: anon has no grants, and is counted
    expect(anon[5].body.message).toBe('Too many requests: at most 5 per minute');
    retryAfterOk(anon[5].headers['retry-after']);

    for (let i = 0; i < 8; i++) {
      expect((await t.http.get('/rest/v1/user_profiles?select=id').set({ apikey: SERVICE, Authorization: `Bearer ${SERVICE}` })).status).toBe(200);
    }
  });
});
