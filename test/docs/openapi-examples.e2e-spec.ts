import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * The error examples of docs/openapi.json are what the server answers: a few real refusals of each surface,
 * compared with the example its operation documents for that status.
 */
type Media = { example?: unknown; examples?: Record<string, { value: unknown }> };
const doc = JSON.parse(readFileSync(join(__dirname, '../../docs/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, Media> }> }>>;
};
const examplesOf = (path: string, method: string, status: number): unknown[] => {
  const media = doc.paths[path][method].responses[String(status)]?.content?.['application/json'];
  return media?.examples ? Object.values(media.examples).map((e) => e.value) : media?.example === undefined ? [] : [media.example];
};

const ADMIN = 'examples-admin-key-0123456789abcdefgh';

describe('the error examples of docs/openapi.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('give each error response of a surface its own example, none of them the 400 body', () => {
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const media = response.content?.['application/json'];
          if (Number(status) < 400 || !media || path === '/readyz') continue;
          const all = examplesOf(path, method, Number(status));
          if (all.length === 0) wrong.push(`${method} ${path} ${status}: no example`);
          if (status !== '400' && all.some((e) => /validation error|does not belong/.test(JSON.stringify(e)))) wrong.push(`${method} ${path} ${status}: a 400 body`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ['/api/v3/clients', 'get', 401, () => t.http.get('/api/v3/clients')],
    ['/api/v3/clients/{id}', 'get', 404, () => t.http.get('/api/v3/clients/999999').set('X-API-KEY', ADMIN)],
    ['/functions/v1/enroll-rmm/status', 'get', 401, () => t.http.get('/functions/v1/enroll-rmm/status')],
    ['/functions/v1/enroll-rmm', 'post', 401, () => t.http.post('/functions/v1/enroll-rmm').send({})],
    ['/auth/v1/token', 'post', 401, () => t.http.post('/auth/v1/token?grant_type=password').send({})],
    ['/auth/v1/token', 'post', 400, () => t.http.post('/auth/v1/token?grant_type=password').set('apikey', t.server.runtime.dataAnonKey).send({ email: 'nobody@example.com', password: 'wrong-password' })],
    ['/auth/v1/token', 'post', 400, () => t.http.post('/auth/v1/token?grant_type=magic').set('apikey', t.server.runtime.dataAnonKey).send({})],
    ['/rest/v1/{table}', 'get', 401, () => t.http.get('/rest/v1/user_profiles')],
    ['/rest/v1/{table}', 'get', 404, () => t.http.get('/rest/v1/agents').set('apikey', t.server.runtime.dataServiceRoleKey)],
    ['/rest/v1/{table}', 'get', 406, () => t.http.get('/rest/v1/user_profiles').set('apikey', t.server.runtime.dataServiceRoleKey).set('Accept-Profile', 'private')],
    ['/rest/v1/{table}', 'get', 400, () => t.http.get('/rest/v1/user_profiles?id=zz.1').set('apikey', t.server.runtime.dataServiceRoleKey)],
  ])('%s %s %i: the answer is one of the documented examples', async (path, method, status, send) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(examplesOf(path, method, status)).toContainEqual(res.body);
  });
});
