import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * How the server serves the operator console's built files (apps/api/src/console/), on a small build of its own
 * (index.html and two hashed assets in a temporary folder) so that it does not depend on `npm run build`.
 */
describe('serving the console at /app/', () => {
  let t: TestApp;
  let missing: TestApp;
  let dir: string;
  const INDEX = '<!doctype html><html lang="en"><head><script type="module" src="/app/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rmm-console-serving-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log("console")');
    writeFileSync(join(dir, 'assets', 'index-DeF456.css'), 'body{color:#000}');
    writeFileSync(join(dir, 'secret.txt'), 'not served');
    t = await startTestApp({}, { overrides: { consoleDir: dir } });
    missing = await startTestApp({}, { overrides: { consoleDir: join(dir, 'not-built') } });
  });
  afterAll(async () => {
    await t?.close();
    await missing?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('redirects / to /app/', async () => {
    const res = await t.http.get('/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/app/');
  });

  it('answers index.html, never cached, for /app/ and any page path under it (the page routes itself)', async () => {
    for (const path of ['/app', '/app/', '/app/agents', '/app/agents/42', '/app/scripts/new?x=1', '/app/a/b/c.d']) {
      const res = await t.http.get(path);
      expect([path, res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([path, 200, 'text/html; charset=utf-8', 'no-cache']);
      expect([path, res.text]).toEqual([path, INDEX]);
    }
    const head = await t.http.head('/app/agents');
    expect([head.status, head.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
  });

  it('serves the hashed assets with their types and a year-long immutable cache', async () => {
    const js = await t.http.get('/app/assets/index-AbC123.js');
    expect([js.status, js.headers['content-type'], js.headers['cache-control']]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']);
    expect(js.text).toBe('console.log("console")');
    const css = await t.http.get('/app/assets/index-DeF456.css');
    expect([css.status, css.headers['content-type'], css.headers['cache-control']]).toEqual([200, 'text/css; charset=utf-8', 'public, max-age=31536000, immutable']);
  });

  it('answers 404 in plain text (not the page, not cached) for an asset that is not there, and reads nothing outside assets/', async () => {
    for (const path of [
      '/app/assets/index-Old999.js',
      '/app/assets/secret.txt',
      '/app/assets/..%2Fsecret.txt',
      '/app/assets/..%2F..%2Findex.html',
      '/app/assets/%2e%2e',
      '/app/assets/index-AbC123.js%00.css',
      `/app/assets/${'a'.repeat(300)}.js`,
    ]) {
      const res = await t.http.get(path);
      expect([path, res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([path, 404, 'text/plain; charset=utf-8', 'no-cache']);
      expect([path, res.text]).toEqual([path, 'Not found\n']);
    }
  });

  it('sends a Content-Security-Policy that allows only this origin on the console, and keeps the API’s own elsewhere', async () => {
    for (const path of ['/app/', '/app/agents/1', '/app/assets/index-AbC123.js']) {
      const csp = String((await t.http.get(path)).headers['content-security-policy']);
      const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect([path, directives]).toEqual([
        path,
        expect.objectContaining({
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'"],
          'connect-src': ["'self'"],
          'object-src': ["'none'"],
          'frame-ancestors': ["'none'"],
        }),
      ]);
      expect([path, csp]).not.toEqual([path, expect.stringMatching(/unsafe-inline|unsafe-eval|\*/)]);
    }
    expect((await t.http.get('/api/v3/agents/')).headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect((await t.http.get('/healthz')).headers['content-security-policy']).toBe("frame-ancestors 'none'");
  });

  it('answers 503 with what to do when the console is not built, never a 500', async () => {
    for (const path of ['/app/', '/app/agents']) {
      const res = await missing.http.get(path);
      expect([path, res.status, res.headers['content-type']]).toEqual([path, 503, 'text/plain; charset=utf-8']);
      expect(res.text).toContain('npm run build');
    }
    const asset = await missing.http.get('/app/assets/index-AbC123.js');
    expect(asset.status).toBe(404);
    expect((await missing.http.get('/')).status).toBe(302);
  });
});
