import type { Test } from 'supertest';
import { startTestApp, TestApp } from '../utils/test-app';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';

/** The /api/v3 contract as a whole: every operation documented with its key and scope; no 500 for odd input. */
describe('the /api/v3 contract as a whole', () => {
  let t: TestApp;
  let admin: string;
  let agentId: number;

  beforeAll(async () => {
    t = await startTestApp({ RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '100000' });
    admin = await createKey(t, ['admin']);
    agentId = await insertAgent(t, { hostname: 'ODD-INPUT', ...(await createTenant(t, 'Acme')) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('documents every /api/v3 operation with the api-key security, its scope and its 401/403/429 answers', async () => {
    const doc = (await t.http.get('/docs/openapi.json')).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)
      .filter(([path]) => path.startsWith('/api/v3/') && !path.startsWith('/api/v3/auth/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.length).toBeGreaterThanOrEqual(35);
    for (const { at, op } of operations) {
      expect([at, op.security]).toEqual([at, [{ 'api-key': [] }, { 'session-cookie': [] }]]);
      expect([at, op['x-required-scope']]).toEqual([at, expect.any(String)]);
      expect([at, op.summary]).toEqual([at, expect.stringContaining(`Scope: ${op['x-required-scope'] as string}`)]);
      expect([at, Object.keys(op.responses as object)]).toEqual([at, expect.arrayContaining(['401', '403', '429'])]);
    }
    expect(doc.paths['/deploy/{uuid}'].get.security).toEqual([]); // public: declared with no requirement
  });

  it('never answers 500 to odd bodies, query strings or path ids, and always answers {detail}', async () => {
    const requests: Array<[string, string, unknown?]> = [];
    const bodies = [[], [1, 2], null, 'text', 123, true, { client: { $gt: 1 } }, { name: 'x'.repeat(100_000) }, { script: 1e308, timeout: -1e308 }];
    const posts = ['/api/v3/agents/deployments/', '/api/v3/clients/', '/api/v3/keys/', '/api/v3/scripts/', '/api/v3/checks/', '/api/v3/tasks/', `/api/v3/agents/${agentId}/runscript/`, '/api/v3/clients/1/sites/', '/api/v3/policies/', '/api/v3/policies/preview/'];
    for (const p of posts) for (const b of bodies) requests.push(['post', p, b]);
    for (const q of ['client=1&client=2', 'hostname=a&hostname=b', 'limit=1e3000', 'offset=abc', 'agent[]=1', 'resolved[x]=1', 'limit=', 'monitoring_type[]=server']) {
      for (const p of ['/api/v3/agents/', '/api/v3/alerts/', '/api/v3/checks/', '/api/v3/tasks/', '/api/v3/clients/']) requests.push(['get', `${p}?${q}`]);
    }
    for (const id of ['%00', '1%27', '9'.repeat(60), '0x10', '1e3', ' 1', '%F0%9F%98%80']) {
      for (const p of ['/api/v3/agents/ID/', '/api/v3/scripts/ID/', '/api/v3/checks/ID/', '/api/v3/tasks/ID/', '/api/v3/clients/ID/sites/']) requests.push(['get', p.replace('ID', id)]);
      requests.push(['delete', `/api/v3/agents/deployments/${id}/`], ['get', `/deploy/${id}`], ['post', `/api/v3/alerts/${id}/resolve/`]);
    }
    for (const [method, path, body] of requests) {
      const req = (t.http as unknown as Record<string, (p: string) => Test>)[method](path).set('X-API-KEY', admin);
      const res = body === undefined ? await req : await req.set('Content-Type', 'application/json').send(JSON.stringify(body));
      const at = [method, path, JSON.stringify(body)?.slice(0, 40)];
      expect([...at, res.status]).toEqual([...at, expect.any(Number)]);
      expect([...at, res.status < 500]).toEqual([...at, true]);
      if (res.status >= 400) expect([...at, typeof res.body?.detail]).toEqual([...at, 'string']);
    }
  });
});
