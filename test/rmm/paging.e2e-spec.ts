import { startTestApp, TestApp } from '../utils/test-app';

/**
 * `?limit=&offset=` and `X-Total-Count` on the lists that once ignored them: clients, a client's sites, and
 * API keys. Same rules as every other list: ordered by id, plain array, the header only when paging.
 */
describe('/api/v3 paging of clients, sites and keys', () => {
  const ADMIN = 'admin-key-for-paging-tests-0123456789abcdef';
  let t: TestApp;
  const admin = () => ({ 'X-API-KEY': ADMIN });
  const ids = (body: Array<{ id: number }>) => body.map((r) => r.id);

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000' });
    for (const name of ['Page A', 'Page B', 'Page C', 'Page D']) {
      expect((await t.http.post('/api/v3/clients/').set(admin()).send({ name, site_name: `${name} HQ` })).status).toBe(201);
    }
    for (const name of ['page-1', 'page-2', 'page-3']) {
      expect((await t.http.post('/api/v3/keys/').set(admin()).send({ name, scopes: ['agents:read'] })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pages GET /api/v3/clients/ by id, with each client\'s sites, and X-Total-Count', async () => {
    const all = await t.http.get('/api/v3/clients/').set(admin());
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBeUndefined();
    expect(all.body.length).toBeGreaterThanOrEqual(5); // the default client and the four above
    expect(ids(all.body)).toEqual([...ids(all.body)].sort((a, b) => a - b));

    const page = await t.http.get('/api/v3/clients/?limit=2&offset=1').set(admin());
    expect(page.status).toBe(200);
    expect(page.headers['x-total-count']).toBe(String(all.body.length));
    expect(page.body).toEqual(all.body.slice(1, 3));
    expect(page.body.every((c: { sites: unknown[] }) => c.sites.length === 1)).toBe(true);

    const offsetOnly = await t.http.get(`/api/v3/clients?offset=${all.body.length - 1}`).set(admin());
    expect([offsetOnly.body, offsetOnly.headers['x-total-count']]).toEqual([all.body.slice(-1), String(all.body.length)]);
    const past = await t.http.get('/api/v3/clients/?limit=10&offset=1000').set(admin());
    expect([past.status, past.body, past.headers['x-total-count']]).toEqual([200, [], String(all.body.length)]);
  });

  it("pages GET /api/v3/clients/{id}/sites/ by id, and X-Total-Count counts only that client's sites", async () => {
    const client = (await t.http.post('/api/v3/clients/').set(admin()).send({ name: 'Many Sites' })).body;
    const made: number[] = [];
    for (const name of ['S1', 'S2', 'S3']) made.push((await t.http.post(`/api/v3/clients/${client.id}/sites/`).set(admin()).send({ name })).body.id);

    const all = await t.http.get(`/api/v3/clients/${client.id}/sites/`).set(admin());
    expect([ids(all.body), all.headers['x-total-count']]).toEqual([made, undefined]);
    const page = await t.http.get(`/api/v3/clients/${client.id}/sites/?limit=1&offset=2`).set(admin());
    expect(page.status).toBe(200);
    expect(page.body).toEqual([{ id: made[2], name: 'S3', client: client.id, custom_fields: {} }]);
    expect(page.headers['x-total-count']).toBe('3');
    expect((await t.http.get('/api/v3/clients/999999/sites/?limit=1').set(admin())).status).toBe(404);
  });

  it('pages GET /api/v3/keys/ by id, never showing a secret, with X-Total-Count', async () => {
    const all = await t.http.get('/api/v3/keys/').set(admin());
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBeUndefined();
    expect(all.body.length).toBeGreaterThanOrEqual(4); // the admin key and the three above
    expect(ids(all.body)).toEqual([...ids(all.body)].sort((a, b) => a - b));

    const page = await t.http.get('/api/v3/keys/?limit=2&offset=1').set(admin());
    expect(page.status).toBe(200);
    expect(page.headers['x-total-count']).toBe(String(all.body.length));
    expect(page.body).toEqual(all.body.slice(1, 3));
    expect(page.body.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);
  });

  it.each(['/api/v3/clients/', '/api/v3/keys/', '/api/v3/clients/1/sites/'])('refuses a bad page on %s with 400 naming the field', async (path) => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
    ]) {
      const res = await t.http.get(`${path}?${query}`).set(admin());
      const fields = [...new Set(res.body.errors?.map((e: { field: string }) => e.field))];
      expect([query, res.status, res.body.detail, fields]).toEqual([query, 400, 'validation error', [field]]);
    }
  });
});
