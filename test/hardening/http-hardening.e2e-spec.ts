import { connect } from 'node:net';
import { DataSource } from 'typeorm';
import { createKey } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';

const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const errorLines = (t: TestApp): string[] => t.logs.filter((l) => /"level":"(error|fatal)"/.test(l));

/** The HTTP layer under abuse: bodies, malformed URLs, slow clients, busy pools, headers. */
describe('HTTP hardening', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ HTTP_REQUEST_TIMEOUT_MS: '1500' });
    admin = await createKey(t, ['admin']);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('bodies', () => {
    it('refuses JSON nested deeper than 32 levels with each surface\'s 400, before validation (no 500, nothing in the error log)', async () => {
      const before = errorLines(t).length;
      const rmm = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).set('content-type', 'application/json').send(`{"name":"x","z":${deep(5000)}}`);
      expect(rmm.status).toBe(400);
      expect(rmm.body).toEqual({ detail: 'validation error', errors: [{ field: null, message: 'JSON nested deeper than 32 levels' }] });
      const auth = await t.http.post('/auth/v1/token?grant_type=password').set('content-type', 'application/json').send(deep(40));
      expect(auth.status).toBe(400);
      expect(auth.body).toMatchObject({ error_code: 'bad_json' });
      const rest = await t.http.post('/rest/v1/enrollment_log').set('content-type', 'application/json').send(deep(40));
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({ code: 'PGRST102' });
      expect(errorLines(t).length).toBe(before);
    });

    it('still takes JSON exactly 32 levels deep', async () => {
      const body = `{"name":"Depth Ltd","x":${deep(31)}}`;
      const res = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).set('content-type', 'application/json').send(body);
      expect(res.status).toBe(201);
    });

    it('cuts each surface\'s bodies at its own limit with 413 in its format', async () => {
      const fn = await t.http.post('/functions/v1/enroll-rmm').set('content-type', 'application/json').send(JSON.stringify({ hostname: 'h'.repeat(20_000), platform: 'linux' }));
      expect(fn.status).toBe(413);
      expect(fn.body).toEqual({ error: 'Request body is too large' });
      expect(fn.headers['access-control-allow-origin']).toBe('*');
      const auth = await t.http.post('/auth/v1/token?grant_type=password').set('content-type', 'application/json').send(JSON.stringify({ email: 'a@b.c', password: 'p'.repeat(70_000) }));
      expect(auth.status).toBe(413);
      expect(auth.body).toMatchObject({ error_code: 'request_too_large' });
      const rmm = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).set('content-type', 'application/json').send(JSON.stringify({ name: 'x', pad: 'p'.repeat(3 * 1024 * 1024) }));
      expect(rmm.status).toBe(413);
      expect(rmm.body).toEqual({ detail: 'Request body is too large' });
    });

    it('refuses a declared Content-Length over the limit before reading the body, and a body sent where no route is', async () => {
      const raw = (head: string): Promise<string> =>
        new Promise((resolve, reject) => {
          const url = new URL(t.url);
          const socket = connect(Number(url.port), url.hostname, () => socket.write(head));
          let data = '';
          socket.on('data', (d) => {
            data += d.toString();
            if (data.includes('\r\n\r\n') && /\r\n\r\n.+/s.test(data)) socket.destroy();
          });
          socket.on('close', () => resolve(data));
          socket.on('error', reject);
          setTimeout(() => socket.destroy(), 5_000).unref();
        });
      const tooBig = await raw('POST /functions/v1/enroll-rmm HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 900000000\r\n\r\n{');
      expect(tooBig).toMatch(/^HTTP\/1\.1 413 /);
      const nowhere = await raw('POST /no/such/route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n[[[[');
      expect(nowhere).toMatch(/^HTTP\/1\.1 404 /);
    });
  });

  it('answers a value PostgreSQL cannot store (a NUL character) with 400, never 500 (found by the fuzz suite)', async () => {
    const before = errorLines(t).length;
    const client = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).send({ name: 'Nul Ltd' });
    expect(client.status).toBe(201);
    for (const [method, path, body] of [
      ['put', `/api/v3/clients/${client.body.id}/`, { name: 'a\u0000b' }],
      ['post', '/api/v3/clients/', { name: 'x\u0000y' }],
      ['post', '/api/v3/scripts/', { name: 'nul-script', shell: 'bash', body: 'echo \u0000' }],
    ] as const) {
      const res = await t.http[method](path).set('X-API-KEY', admin).send(body);
      expect([path, res.status, res.body.detail]).toEqual([path, 400, 'validation error']);
      expect(res.body.errors[0].message).toMatch(/^a value cannot be stored: /);
    }
    expect(errorLines(t).length).toBe(before);
  });

  describe('URLs the router cannot read', () => {
    it('answers a malformed path with the surface\'s 404, CORS headers included for the function', async () => {
      const fn = await t.http.get('/functions/v1/enroll-rmm/%ff');
      expect(fn.status).toBe(404);
      expect(fn.body).toEqual({ error: 'Function not found' });
      expect(fn.headers['access-control-allow-origin']).toBe('*');
      expect(fn.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
      const rmm = await t.http.get('/api/v3/agents/%ff/').set('X-API-KEY', admin);
      expect(rmm.status).toBe(404);
      expect(rmm.body).toEqual({ detail: 'Not found' });
    });

    it('answers a path parameter over 100 characters with 414 in the surface\'s format', async () => {
      const res = await t.http.get(`/api/v3/agents/${'1'.repeat(150)}/`).set('X-API-KEY', admin);
      expect(res.status).toBe(414);
      expect(res.body).toEqual({ detail: 'URI Too Long' });
      expect(res.headers['x-request-id']).toBeDefined();
    });
  });

  it('cuts off a client that trickles its request (HTTP_REQUEST_TIMEOUT_MS)', async () => {
    const url = new URL(t.url);
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('POST /api/v3/clients/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na');
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      setTimeout(() => socket.destroy(), 20_000).unref();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(15_000); // cut by the server, not by this test's own guard
  });

  describe('headers', () => {
    it('sends nosniff and no-framing everywhere but the function, and no-store on answers that can carry secrets', async () => {
      for (const path of ['/healthz', '/docs', '/api/v3/clients/']) {
        const res = await t.http.get(path).set('X-API-KEY', admin);
        expect([path, res.headers['x-content-type-options'], res.headers['x-frame-options'], res.headers['content-security-policy']]).toEqual([
          path,
          'nosniff',
          'DENY',
          "frame-ancestors 'none'",
        ]);
      }
      const fn = await t.http.options('/functions/v1/enroll-rmm');
      expect(fn.headers['x-frame-options']).toBeUndefined();
      const key = await t.http.post('/api/v3/keys/').set('X-API-KEY', admin).send({ name: 'no-store', scopes: ['agents:read'] });
      expect(key.status).toBe(201);
      expect(key.headers['cache-control']).toBe('no-store');
      const token = await t.http.post('/auth/v1/token?grant_type=password').send({ email: 'nobody@example.com', password: 'x' });
      expect(token.headers['cache-control']).toBe('no-store');
      expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', admin)).headers['cache-control']).toBeUndefined();
    });

    it('serves only what Swagger UI needs under /docs, and keeps no key in the browser', async () => {
      for (const path of ['/docs/package.json', '/docs/README.md', '/docs/index.html', '/docs/swagger-ui-bundle.js.map', '/docs/absolute-path.js']) {
        expect([path, (await t.http.get(path)).status]).toEqual([path, 404]);
      }
      for (const path of ['/docs', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/openapi.json']) {
        expect([path, (await t.http.get(path)).status]).toEqual([path, 200]);
      }
      const init = await t.http.get('/docs/swagger-ui-init.js');
      expect(init.text).toContain('"persistAuthorization": false');
    });
  });
});

describe('a database pool with every connection busy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DB_POOL_SIZE: '2', DB_POOL_ACQUIRE_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 in each surface\'s format within the acquire time-out, with Retry-After, and recovers', async () => {
    const admin = await createKey(t, ['admin']);
    const ds = t.server.app.get(DataSource);
    const hold = Promise.all([ds.query('SELECT pg_sleep(2)'), ds.query('SELECT pg_sleep(2)')]);
    await new Promise((r) => setTimeout(r, 100));
    const rmm = await t.http.get('/api/v3/clients/').set('X-API-KEY', admin);
    expect([rmm.status, rmm.body, rmm.headers['retry-after']]).toEqual([503, { detail: 'the database is busy, retry shortly' }, '1']);
    const rest = await t.http.get('/rest/v1/user_profiles').set('apikey', t.server.runtime.dataServiceRoleKey);
    expect(rest.status).toBe(503);
    expect(rest.body).toMatchObject({ message: 'the database is busy, retry shortly' });
    await hold;
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', admin)).status).toBe(200);
    expect(t.logs.filter((l) => /"level":"error"/.test(l) && l.includes('/api/v3/clients'))).toEqual([]);
  });
});
