import { ConfigError, loadConfig } from '../../apps/api/src/config/app-config';
import { startTestApp, TestApp } from '../utils/test-app';

/** RMM_CORS_ORIGINS opens /api/v3 to a dashboard on another origin, and only to the origins listed. */
describe('CORS for /api/v3', () => {
  const ADMIN = 'admin-key-for-cors-tests-0123456789abcdef';
  const DASH = 'https://dash.example.com';
  const LOCAL = 'http://localhost:5173';

  describe('with RMM_CORS_ORIGINS set', () => {
    let t: TestApp;
    beforeAll(async () => {
      // Written the way an operator might: spaces, upper case, a default port and a trailing slash.
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_CORS_ORIGINS: ` HTTPS://Dash.Example.com:443/ , ${LOCAL}` });
    });
    afterAll(async () => {
      await t?.close();
    });

    const preflight = (path: string, origin: string, method = 'GET', headers = 'x-api-key') =>
      t.http.options(path).set('Origin', origin).set('Access-Control-Request-Method', method).set('Access-Control-Request-Headers', headers);

    it.each([DASH, LOCAL])('answers the preflight of %s with its origin, the methods, X-API-KEY and content-type', async (origin) => {
      const res = await preflight('/api/v3/clients/', origin, 'POST', 'x-api-key, content-type');
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers.vary).toMatch(/\bOrigin\b/);
      const allowHeaders = res.headers['access-control-allow-headers'].split(/,\s*/).map((h: string) => h.toLowerCase());
      expect(allowHeaders).toEqual(expect.arrayContaining(['x-api-key', 'content-type']));
      const methods = res.headers['access-control-allow-methods'].split(/,\s*/);
      expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
      expect(res.headers['access-control-expose-headers']).toBe('X-Total-Count, Retry-After, X-Request-Id');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('answers preflights of paths with parameters, with and without the trailing slash, before any key is checked', async () => {
      for (const path of ['/api/v3/agents/42/', '/api/v3/agents/42/runscript', '/api/v3/keys/7/', '/api/v3']) {
        const res = await preflight(path, DASH, 'DELETE');
        expect([path, res.status, res.headers['access-control-allow-origin']]).toEqual([path, 200, DASH]);
      }
    });

    it('puts the headers on real answers (a paged list exposes X-Total-Count) and on errors', async () => {
      const list = await t.http.get('/api/v3/clients/?limit=1').set('Origin', DASH).set('X-API-KEY', ADMIN);
      expect(list.status).toBe(200);
      expect(list.headers['access-control-allow-origin']).toBe(DASH);
      expect(list.headers['access-control-expose-headers']).toContain('X-Total-Count');
      expect(list.headers['x-total-count']).toBeDefined();
      const refused = await t.http.get('/api/v3/clients/').set('Origin', DASH).set('X-API-KEY', 'wrong');
      expect([refused.status, refused.body, refused.headers['access-control-allow-origin']]).toEqual([401, { detail: 'Invalid token' }, DASH]);
      const missing = await t.http.get('/api/v3/clients/999999/').set('Origin', LOCAL).set('X-API-KEY', ADMIN);
      expect([missing.status, missing.headers['access-control-allow-origin']]).toEqual([404, LOCAL]);
    });

    it('gives an origin that is not listed no CORS headers, on the preflight and on the answer', async () => {
      for (const origin of ['https://evil.example.com', 'https://dash.example.com.evil.test', 'http://dash.example.com', 'null']) {
        const pre = await preflight('/api/v3/clients/', origin);
        const real = await t.http.get('/api/v3/clients/').set('Origin', origin).set('X-API-KEY', ADMIN);
        for (const res of [pre, real]) {
          expect([origin, Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))]).toEqual([origin, []]);
          expect(res.headers.vary).toMatch(/\bOrigin\b/);
        }
      }
      const noOrigin = await t.http.get('/api/v3/clients/').set('X-API-KEY', ADMIN);
      expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('leaves the other surfaces their own policies', async () => {
      const fn = await t.http.options('/functions/v1/enroll-rmm').set('Origin', DASH);
      expect(fn.headers['access-control-allow-origin']).toBe('*');
      expect(fn.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
      const rest = await t.http.options('/rest/v1/user_profiles').set('Origin', DASH);
      expect(rest.headers['access-control-allow-headers']).not.toContain('x-api-key');
      const health = await t.http.get('/healthz').set('Origin', DASH);
      expect(health.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('without RMM_CORS_ORIGINS (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('opens /api/v3 to no origin: no preflight is answered and no CORS header is sent', async () => {
      const pre = await t.http.options('/api/v3/clients/').set('Origin', DASH).set('Access-Control-Request-Method', 'GET');
      expect(pre.status).toBe(404);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const real = await t.http.get('/api/v3/clients/').set('Origin', DASH).set('X-API-KEY', ADMIN);
      expect(real.status).toBe(200);
      expect(Object.keys(real.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  });

  describe('RMM_CORS_ORIGINS validation', () => {
    it('keeps origins as browsers send them, once each', () => {
      expect(loadConfig({}).rmmCorsOrigins).toEqual([]);
      expect(loadConfig({ RMM_CORS_ORIGINS: 'https://a.example.com,http://127.0.0.1:8080, https://A.example.com/' }).rmmCorsOrigins).toEqual([
        'https://a.example.com',
        'http://127.0.0.1:8080',
      ]);
    });

    it.each([
      ['*', 'has "*", which is not an origin'],
      ['dash.example.com', 'has "dash.example.com", which is not an origin'],
      ['https://dash.example.com/app', 'has "https://dash.example.com/app", which is not an origin'],
      ['https://dash.example.com?x=1', 'which is not an origin'],
      ['ftp://dash.example.com', 'has "ftp://dash.example.com", which is not an origin'],
      ['https://user:pw@dash.example.com', 'which is not an origin'],
      ['https://a.example.com,,https://b.example.com', 'has an empty entry'],
    ])('refuses %j with a message naming the variable and an example', (value, message) => {
      let error: unknown;
      try {
        loadConfig({ RMM_CORS_ORIGINS: value });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('RMM_CORS_ORIGINS');
      expect((error as ConfigError).message).toMatch(/^RMM_CORS_ORIGINS /);
      expect((error as ConfigError).message).toContain(message);
      expect((error as ConfigError).message).toContain('https://dash.example.com');
    });
  });
});
