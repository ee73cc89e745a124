import { createLogger } from '../../apps/api/src/common/logging/logger';
import { loadConfig } from '../../apps/api/src/config/app-config';
import { createServer } from '../../apps/api/src/server';
import { Client } from 'pg';
import { ApiKeysService } from '../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { ADMIN_ENV_KEY_NAME, FUNCTION_KEY_NAME, RmmBootstrap } from '../../apps/api/src/rmm/bootstrap/rmm-bootstrap.service';
import { startTestApp, TestApp } from '../utils/test-app';

describe('the server (foundation)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers /healthz with 200 {status: ok}', async () => {
    const res = await t.http.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 when the database answers', async () => {
    const res = await t.http.get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', database: 'up' });
  });

  it('serves the same routes with and without a trailing slash', async () => {
    expect((await t.http.get('/healthz/')).status).toBe(200);
    expect((await t.http.get('/readyz/')).status).toBe(200);
  });

  it('serves Swagger UI at /docs, redirects /docs/ there, and the OpenAPI document at /docs/openapi.json', async () => {
    const ui = await t.http.get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
    expect(ui.text).toContain('swagger-ui');
    const slash = await t.http.get('/docs/');
    expect(slash.status).toBe(301);
    expect(slash.headers.location).toBe('/docs');
    const doc = await t.http.get('/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/healthz'].get.operationId).toBe('healthLiveness');
    const ids = Object.values(doc.body.paths).flatMap((ops) => Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length); // operation ids are unique
    expect(doc.body.components.securitySchemes['api-key']).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-KEY' }),
    );
  });

  it('gives every answer a request id, and keeps one the client sent', async () => {
    const fresh = await t.http.get('/healthz');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.http.get('/healthz').set('X-Request-Id', 'trace-abc-123');
    expect(given.headers['x-request-id']).toBe('trace-abc-123');
    const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.reqId === 'trace-abc-123');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/healthz', status: 200 });
  });

  it('answers unknown paths 404 in the format of their surface', async () => {
    const api = await t.http.get('/api/v3/no-such-thing/');
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ detail: 'Not found' });
    const other = await t.http.get('/no-such-thing');
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ statusCode: 404, message: 'Cannot GET /no-such-thing' });
  });

  it('generates the secrets that were not given, and the default client and site', async () => {
    const r = t.server.runtime;
    expect(r.generated.sort()).toEqual(['DATA_ANON_KEY', 'DATA_SERVICE_ROLE_KEY', 'JWT_SECRET', 'RMM_AGENT_SIGNING_KEY', 'RMM_API_KEY']);
    expect(r.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(r.dataAnonKey).toMatch(/^sb_publishable_/);
    expect(r.dataServiceRoleKey).toMatch(/^sb_secret_/);
    const pg = new Client({ connectionString: t.db.url });
    await pg.connect();
    try {
      const site = await pg.query('SELECT s.id, s.name, c.id AS client_id, c.name AS client FROM sites s JOIN clients c ON c.id = s.client_id');
      expect(site.rows).toEqual([{ id: r.rmmDefaultSiteId, name: 'Default', client_id: r.rmmDefaultClientId, client: 'Default' }]);
      const keys = await pg.query('SELECT name, scopes, secret_hash FROM api_keys');
      expect(keys.rows).toEqual([expect.objectContaining({ name: FUNCTION_KEY_NAME, scopes: ['deployments:write'] })]);
      // Only a hash is stored.
      expect(JSON.stringify(keys.rows)).not.toContain(r.rmmApiKey);
    } finally {
      await pg.end();
    }
    expect(await t.server.app.get(ApiKeysService).verify(r.rmmApiKey)).toMatchObject({ name: FUNCTION_KEY_NAME });
  });

  it('never writes a generated secret to the log', () => {
    const r = t.server.runtime;
    const all = t.logs.join('\n');
    for (const s of [r.jwtSecret, r.dataAnonKey, r.dataServiceRoleKey, r.rmmApiKey]) expect(all).not.toContain(s);
  });
});

describe('a second start on the same database', () => {
  it('reuses the generated secrets and the default tenant instead of making new ones', async () => {
    const first = await startTestApp();
    const before = { ...first.server.runtime };
    await first.server.close(); // keep the database
    const second = await createServer(loadConfig({ DATABASE_URL: first.db.url }), { logger: createLogger('silent') });
    try {
      const after = second.runtime;
      expect(after.jwtSecret).toBe(before.jwtSecret);
      expect(after.dataAnonKey).toBe(before.dataAnonKey);
      expect(after.dataServiceRoleKey).toBe(before.dataServiceRoleKey);
      expect(after.rmmApiKey).toBe(before.rmmApiKey);
      expect(after.rmmDefaultClientId).toBe(before.rmmDefaultClientId);
      expect(after.rmmDefaultSiteId).toBe(before.rmmDefaultSiteId);
      expect(second.db.migrated).toEqual([]);
    } finally {
      await second.close();
      await first.db.drop();
    }
  });
});

describe('secrets given in the environment', () => {
  const env = {
    JWT_SECRET: 'env-jwt-secret-0123456789-0123456789-abcdef',
    DATA_ANON_KEY: 'env-anon-key-abcdefgh',
    DATA_SERVICE_ROLE_KEY: 'env-service-role-key-abcdefgh',
    RMM_API_KEY: 'env-rmm-api-key-abcdefgh',
    RMM_AGENT_SIGNING_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
    RMM_ADMIN_API_KEY: 'env-admin-key-0123456789',
    RMM_DEFAULT_CLIENT_ID: '7',
    RMM_DEFAULT_SITE_ID: '9',
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(env);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are used as given and nothing is generated', () => {
    const r = t.server.runtime;
    expect(r.generated).toEqual([]);
    expect(r).toMatchObject({
      jwtSecret: env.JWT_SECRET,
      dataAnonKey: env.DATA_ANON_KEY,
      dataServiceRoleKey: env.DATA_SERVICE_ROLE_KEY,
      rmmApiKey: env.RMM_API_KEY,
      rmmDefaultClientId: 7,
      rmmDefaultSiteId: 9,
    });
  });

  it('make RMM_ADMIN_API_KEY an admin key and RMM_API_KEY the function key, with exactly those secrets', async () => {
    const keys = t.server.app.get(ApiKeysService);
    expect(await keys.verify(env.RMM_ADMIN_API_KEY)).toMatchObject({ name: ADMIN_ENV_KEY_NAME, scopes: ['admin'] });
    expect(await keys.verify(env.RMM_API_KEY)).toMatchObject({ name: FUNCTION_KEY_NAME, scopes: ['deployments:write'] });
  });

  it('restores RMM_ADMIN_API_KEY on the next start even if it was revoked', async () => {
    const keys = t.server.app.get(ApiKeysService);
    const admin = (await keys.verify(env.RMM_ADMIN_API_KEY))!;
    await keys.revoke(admin.id);
    expect(await keys.verify(env.RMM_ADMIN_API_KEY)).toBeNull();
    await t.server.app.get(RmmBootstrap).run(); // what the next start does
    expect(await keys.verify(env.RMM_ADMIN_API_KEY)).toMatchObject({ scopes: ['admin'] });
  });

  it('never appear in the log', () => {
    const all = t.logs.join('\n');
    for (const s of Object.values(env).filter((v) => v.length > 4)) expect(all).not.toContain(s);
  });
});

describe('readiness when the database goes away', () => {
  it('answers /readyz 503 {status: unavailable} while /healthz stays 200', async () => {
    const t = await startTestApp();
    try {
      await t.db.drop(); // WITH (FORCE): ends the app's connections too
      const ready = await t.http.get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable', database: 'down' });
      expect((await t.http.get('/healthz')).status).toBe(200);
    } finally {
      await t.server.close();
    }
  });
});

describe('the committed OpenAPI document', () => {
  it('is what the server serves (run `npm run openapi` after changing the API)', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const committed = JSON.parse(readFileSync(join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8'));
    const t = await startTestApp();
    try {
      const served = (await t.http.get('/docs/openapi.json')).body;
      // The Swagger plugin lists a union's members in the order the compiler holds them, which differs
      // between `nest build` and ts-jest; the order of an enum carries no meaning.
      expect(sortEnums(served)).toEqual(sortEnums(committed));
    } finally {
      await t.close();
    }
  });
});

function sortEnums(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortEnums);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === 'enum' && Array.isArray(v) ? [...v].sort() : sortEnums(v)]),
    );
  }
  return value;
}
