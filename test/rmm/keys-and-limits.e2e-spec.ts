import { ApiKeysService } from '../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { ApiKeyUsage } from '../../apps/api/src/rmm/access/api-keys/api-key-usage';
import { FixedClock } from '../../apps/api/src/common/clock';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { createKey } from '../utils/rmm-fixtures';

/** X-API-KEY, scopes, key administration and the two per-key rate limits of /api/v3. */
describe('/api/v3 keys, scopes and limits', () => {
  const ADMIN = 'admin-key-for-keys-tests-0123456789';
  const START = new Date('2026-11-22T12:00:00Z');
  const clock = new FixedClock(START);
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '1000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' }, { clock });
  });
  // Tests move the clock (expiry); each starts from the same time, whatever ran before it.
  beforeEach(() => clock.set(START));
  afterAll(async () => {
    await t?.close();
  });

  describe('authentication (401) and scopes (403)', () => {
    it('answers 401 {detail: Invalid token} without a key, with a wrong one, a revoked one or an expired one', async () => {
      expect((await t.http.get('/api/v3/clients/')).body).toEqual({ detail: 'Invalid token' });
      const wrong = await t.http.get('/api/v3/clients/').set('X-API-KEY', 'rmm_not-a-real-key');
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ detail: 'Invalid token' });

      const keys = t.server.app.get(ApiKeysService);
      const revoked = await keys.create({ name: 'to-revoke', scopes: ['clients:read'] });
      expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', revoked.secret)).status).toBe(200);
      expect((await t.http.delete(`/api/v3/keys/${revoked.key.id}/`).set('X-API-KEY', ADMIN)).status).toBe(204);
      expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', revoked.secret)).status).toBe(401);

      const expiring = await t.http.post('/api/v3/keys/').set('X-API-KEY', ADMIN).send({ name: 'short', scopes: ['clients:read'], expires_in: '1h' });
      expect(expiring.status).toBe(201);
      expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', expiring.body.key)).status).toBe(200);
      clock.advance(3_600_001);
      expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', expiring.body.key)).body).toEqual({ detail: 'Invalid token' });
    });

    it('answers 403 {detail: permission denied} for a key without the scope; admin has every scope', async () => {
      const reader = await createKey(t, ['clients:read']);
      expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', reader)).status).toBe(200);
      const denied = await t.http.post('/api/v3/clients/').set('X-API-KEY', reader).send({ name: 'Nope' });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ detail: 'permission denied' });
      expect((await t.http.get('/api/v3/agents/deployments/').set('X-API-KEY', reader)).status).toBe(403);
      expect((await t.http.get('/api/v3/keys/').set('X-API-KEY', reader)).status).toBe(403);
      expect((await t.http.get('/api/v3/agents/deployments/').set('X-API-KEY', ADMIN)).status).toBe(200);
    });

    it('checks the key before anything else: a wrong key on an unknown id is 401, not 404', async () => {
      expect((await t.http.delete('/api/v3/keys/99999/').set('X-API-KEY', 'wrong')).status).toBe(401);
    });
  });

  describe('key administration (admin)', () => {
    it('creates a key (201, secret shown once), lists keys without secrets, and revokes', async () => {
      const created = await t.http
        .post('/api/v3/keys')
        .set('X-API-KEY', ADMIN)
        .send({ name: 'psa', scopes: ['agents:read', 'deployments:write'], expires_at: '2027-06-01T00:00:00Z' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'psa',
        prefix: created.body.key.slice(0, 12),
        scopes: ['agents:read', 'deployments:write'],
        clients: null,
        expires_at: '2027-06-01T00:00:00.000Z',
        revoked_at: null,
        last_used_at: null,
        created_at: expect.any(String),
        key: expect.stringMatching(/^rmm_/),
      });
      const [row] = await sql(t.db.url, 'SELECT secret_hash FROM api_keys WHERE id = $1', [created.body.id]);
      expect(row.secret_hash).not.toContain(created.body.key);
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);

      const list = await t.http.get('/api/v3/keys/').set('X-API-KEY', ADMIN);
      expect(list.status).toBe(200);
      const mine = list.body.find((k: { id: number }) => k.id === created.body.id);
      expect(mine).toMatchObject({ name: 'psa', prefix: created.body.key.slice(0, 12) });
      expect(JSON.stringify(list.body)).not.toContain(created.body.key);
      expect(list.body.every((k: object) => !('key' in k) && !('secret_hash' in k))).toBe(true);

      const del = await t.http.delete(`/api/v3/keys/${created.body.id}`).set('X-API-KEY', ADMIN);
      expect(del.status).toBe(204);
      expect((await t.http.get('/api/v3/keys/').set('X-API-KEY', ADMIN)).body.find((k: { id: number }) => k.id === created.body.id).revoked_at).toEqual(
        clock.now().toISOString(),
      );
    });

    it.each([
      [{ scopes: ['agents:read'] }, 'name'],
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x', scopes: ['agents:read', 'root'] }, 'scopes'],
      [{ name: 'x', scopes: 'admin' }, 'scopes'],
      [{ name: 'x', scopes: ['admin'], expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      [{ name: 'x', scopes: ['admin'], expires_at: 'tomorrow' }, 'expires_at'],
      [{ name: 'x', scopes: ['admin'], expires_in: '30 days' }, 'expires_in'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await t.http.post('/api/v3/keys/').set('X-API-KEY', ADMIN).send(body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('validation error');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('answers 404 for revoking an unknown key and for a non-numeric id', async () => {
      expect((await t.http.delete('/api/v3/keys/424242/').set('X-API-KEY', ADMIN)).body).toEqual({ detail: 'Not found' });
      expect((await t.http.delete('/api/v3/keys/abc/').set('X-API-KEY', ADMIN)).status).toBe(404);
      expect((await t.http.delete('/api/v3/keys/99999999999999999999/').set('X-API-KEY', ADMIN)).status).toBe(404);
    });

    it('keeps last_used_at without writing on every request (batched)', async () => {
      const { key, secret } = await t.server.app.get(ApiKeysService).create({ name: 'usage', scopes: ['clients:read'] });
      for (let i = 0; i < 5; i++) await t.http.get('/api/v3/clients/').set('X-API-KEY', secret);
      const [before] = await sql(t.db.url, 'SELECT last_used_at FROM api_keys WHERE id = $1', [key.id]);
      expect(before.last_used_at).toBeNull(); // not yet written: uses are batched
      await t.server.app.get(ApiKeyUsage).flush();
      const [after] = await sql(t.db.url, 'SELECT last_used_at FROM api_keys WHERE id = $1', [key.id]);
      expect(after.last_used_at).toEqual(clock.now());
    });

    it('never logs a key', async () => {
      const created = await t.http.post('/api/v3/keys/').set('X-API-KEY', ADMIN).send({ name: 'log-check', scopes: ['admin'] });
      await t.http.get('/api/v3/clients/').set('X-API-KEY', created.body.key);
      const log = t.logs.join('\n');
      expect(log).not.toContain(created.body.key);
      expect(log).not.toContain(ADMIN);
    });
  });
});

describe('/api/v3 rate limits (one bucket per key across all endpoints)', () => {
  let t: TestApp;
  let tenant: { client: number; site: number };
  const ADMIN = 'admin-key-for-limit-tests-0123456789';

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN }); // the defaults: 100 per minute, 20 deployments per minute
    const c = await t.http.post('/api/v3/clients/').set('X-API-KEY', ADMIN).send({ name: 'Limits', site_name: 'HQ' });
    tenant = { client: c.body.id, site: c.body.sites[0].id };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the 101st request of a minute with 429 {detail: rate limited} and Retry-After, whatever the endpoints', async () => {
    const key = await createKey(t, ['clients:read', 'deployments:read']);
    for (let i = 0; i < 100; i++) {
      const path = i % 2 === 0 ? '/api/v3/clients/' : '/api/v3/agents/deployments/';
      const res = await t.http.get(path).set('X-API-KEY', key);
      expect(res.status).toBe(200);
    }
    const over = await t.http.get('/api/v3/clients/1/sites/').set('X-API-KEY', key);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: 'rate limited' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);

    // Counted per key, not per address: another key from the same address is not limited.
    const other = await createKey(t, ['clients:read']);
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', other)).status).toBe(200);
  });

  it('answers the 21st deployment creation of a minute with 429 and Retry-After', async () => {
    const key = await createKey(t, ['deployments:write']);
    for (let i = 0; i < 20; i++) {
      const res = await t.http.post('/api/v3/agents/deployments/').set('X-API-KEY', key).send({ client: tenant.client, site: tenant.site });
      expect(res.status).toBe(201);
    }
    const over = await t.http.post('/api/v3/agents/deployments/').set('X-API-KEY', key).send({ client: tenant.client, site: tenant.site });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: 'rate limited' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const [{ n }] = await sql(t.db.url, 'SELECT count(*)::int AS n FROM deployments');
    expect(n).toBe(20);
  });
});

describe('/api/v3 rate limits count only requests that passed the key and scope checks', () => {
  // A budget of 3 per minute: a refused request that were counted would show as a 429 by the 4th.
  const LIMIT = 3;
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RMM_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('does not count requests refused with 403 against the key\'s budget', async () => {
    const reader = await createKey(t, ['clients:read']);
    for (let i = 0; i < LIMIT + 2; i++) {
      const denied = await t.http.post('/api/v3/clients/').set('X-API-KEY', reader).send({ name: `Nope ${i}` });
      expect([i, denied.status]).toEqual([i, 403]);
    }
    // The whole budget is still there for what the key may do, and then it is spent.
    for (let i = 0; i < LIMIT; i++) expect([i, (await t.http.get('/api/v3/clients/').set('X-API-KEY', reader)).status]).toEqual([i, 200]);
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', reader)).status).toBe(429);
  });

  it('does not count requests refused with 401 against anyone', async () => {
    for (let i = 0; i < LIMIT + 2; i++) expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', 'wrong')).status).toBe(401);
  });
});

describe('/api/v3 rate limits with the counters in Redis', () => {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    console.log('skipped: the shared-Redis rate-limit test needs REDIS_URL (e.g. redis://127.0.0.1:6379); .ci/run sets it when Redis answers');
    it.skip('two instances share one bucket per key (needs REDIS_URL)', () => undefined);
    return;
  }
  let a: TestApp;
  let b: TestApp;
  const ADMIN = `admin-key-redis-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    const env = { RMM_ADMIN_API_KEY: ADMIN, REDIS_URL: redisUrl, RMM_RATE_LIMIT_PER_MINUTE: '10' };
    a = await startTestApp(env);
    b = await startTestApp(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('two instances share one bucket per key: the 11th request across both is refused', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 === 0 ? a : b).http.get('/api/v3/clients/').set('X-API-KEY', ADMIN);
      expect(res.status).toBe(200);
    }
    const over = await a.http.get('/api/v3/clients/').set('X-API-KEY', ADMIN);
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect((await b.http.get('/api/v3/clients/').set('X-API-KEY', ADMIN)).status).toBe(429);
  });
});
