import { FixedClock } from '../../apps/api/src/common/clock';
import { AgentsService } from '../../apps/api/src/rmm/fleet/agents/agents.service';
import { API_KEY_CACHE_TTL_MS } from '../../apps/api/src/rmm/access/api-keys/api-key-cache';
import type { AgentEntity } from '@app/entities';
import { AGENT_STREAM_BATCH } from '../../apps/api/src/rmm/fleet/agents/agents.sql';
import { CLI_JS, cleanEnv, run } from '../utils/processes';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Issue 13's HTTP part: the agent endpoints answer from one raw query (the same JSON as the entity mappers
 * gave), the unpaged list of many agents streams (valid JSON, every agent, in id order), and the key cache
 * never lets a revoked or expired key through.
 */

/** The spec's Agent as the stored record says it should be (the oracle the one row mapper is held to). */
const expectedAgent = (a: AgentEntity) => ({
  agent_id: String(a.id),
  hostname: a.hostname,
  client: a.client ? { id: a.client.id, name: a.client.name } : null,
  site: a.site ? { id: a.site.id, name: a.site.name } : null,
  plat: a.plat,
  monitoring_type: a.monitoringType,
  operating_system: a.operatingSystem,
  version: a.version,
  last_seen: a.lastSeen ? a.lastSeen.toISOString() : null,
  never_connected: a.lastSeen === null,
  status: a.status,
  logged_in_username: a.loggedInUsername,
  public_ip: a.publicIp,
  local_ip: a.localIp,
  cpu_model: a.cpuModel,
  total_ram: a.totalRam,
  disks: a.disks,
  tags: a.tags,
  maintenance: a.maintenance || (a.maintenanceUntil !== null && a.maintenanceUntil > new Date()),
  maintenance_until: a.maintenanceUntil !== null && a.maintenanceUntil > new Date() ? a.maintenanceUntil.toISOString() : null,
  custom_fields: {},
});
/** The agent detail object as the stored record says it should be. */
const expectedDetail = (a: AgentEntity) => ({
  ...expectedAgent(a),
  patches_pending: a.patchesPending,
  wmi_detail: a.wmiDetail,
  deployment: a.deploymentId,
  os_hostname: a.osHostname,
  check_results_dropped: Number(a.checkResultsDropped ?? 0),
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});
describe('/api/v3/agents at scale: raw rows, the streamed list', () => {
  const ADMIN = 'admin-key-for-agents-scale-tests-0123456789';
  const COUNT = AGENT_STREAM_BATCH * 2 + 345; // three batches, the last one partial
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  const admin = () => ({ 'X-API-KEY': ADMIN });

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000' });
    tenant = await createTenant(t, 'Scale Co');
    await insertAgent(t, { hostname: 'full-1', ...tenant, patchesPending: 3 });
    // An agent that reported nothing yet: every nullable field null.
    await sql(t.db.url, `INSERT INTO agents (hostname, client_id, site_id, plat) VALUES ('bare-1', $1, $2, 'linux')`, [tenant.clientId, tenant.siteId]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the list, a page and the detail with exactly the JSON the entity mappers give', async () => {
    const agents = t.server.app.get(AgentsService);
    const list = await t.http.get('/api/v3/agents/').set(admin());
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBeUndefined();
    expect(list.body).toHaveLength(2);
    const entities: AgentEntity[] = await Promise.all(list.body.map((a: { agent_id: string }) => agents.get(Number(a.agent_id))));
    expect(list.body).toEqual(JSON.parse(JSON.stringify(entities.map(expectedAgent))));
    const page = await t.http.get('/api/v3/agents/?limit=1&offset=1').set(admin());
    expect([page.body, page.headers['x-total-count']]).toEqual([list.body.slice(1), '2']);
    for (const e of entities) {
      const detail = await t.http.get(`/api/v3/agents/${e.id}/`).set(admin());
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(JSON.parse(JSON.stringify(expectedDetail(e))));
    }
    expect((await t.http.get('/api/v3/agents/?hostname=bare-1').set(admin())).body.map((a: { hostname: string }) => a.hostname)).toEqual(['bare-1']);
  });

  it(`streams the unpaged list of ${COUNT} agents: valid JSON, every agent once, in id order, the same as the pages`, async () => {
    await sql(
      t.db.url,
      `INSERT INTO agents (hostname, client_id, site_id, plat, status, monitoring_type, disks)
       SELECT 'many-' || g, $1, $2, 'windows', 'online', CASE WHEN g % 2 = 0 THEN 'server' ELSE 'workstation' END, '[{"device":"C:","free":"1 GB","total":"2 GB","percent":50}]' FROM generate_series(1, $3::int) g`,
      [tenant.clientId, tenant.siteId, COUNT - 2],
    );
    const res = await t.http.get('/api/v3/agents/').set(admin()).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-total-count']).toBeUndefined();
    // Written piece by piece, not as one string: chunked, no Content-Length.
    expect([res.headers['transfer-encoding'], res.headers['content-length']]).toEqual(['chunked', undefined]);
    const all = JSON.parse(res.text) as Array<{ agent_id: string; hostname: string; monitoring_type: string }>;
    expect(all).toHaveLength(COUNT);
    const ids = all.map((a) => Number(a.agent_id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(COUNT);

    const pages: unknown[] = [];
    for (let offset = 0; offset < COUNT; offset += 1000) {
      const page = await t.http.get(`/api/v3/agents/?limit=1000&offset=${offset}`).set(admin());
      expect(page.headers['x-total-count']).toBe(String(COUNT));
      pages.push(...page.body);
    }
    expect(all).toEqual(pages);

    // Filters apply to every batch (more than one batch of servers).
    const servers = all.filter((a) => a.monitoring_type === 'server');
    expect(servers.length).toBeGreaterThan(AGENT_STREAM_BATCH);
    const filtered = await t.http.get(`/api/v3/agents/?client=${tenant.clientId}&monitoring_type=server`).set(admin()).buffer(true);
    expect(JSON.parse(filtered.text)).toEqual(servers);
  });
});

describe('/api/v3 key cache: a revoked or expired key is refused at once', () => {
  const ADMIN = 'admin-key-for-key-cache-tests-0123456789ab';
  const clock = new FixedClock(new Date('2026-11-23T12:00:00Z'));
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000' }, { clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  const newKey = async (body: Record<string, unknown>) => {
    const res = await t.http.post('/api/v3/keys/').set('X-API-KEY', ADMIN).send({ scopes: ['clients:read'], ...body });
    expect(res.status).toBe(201);
    return res.body as { id: number; key: string };
  };

  it('keeps answering a cached key, and refuses it on the very next request once revoked over REST', async () => {
    const key = await newKey({ name: 'cached' });
    for (let i = 0; i < 5; i++) expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', key.key)).status).toBe(200);
    expect((await t.http.delete(`/api/v3/keys/${key.id}/`).set('X-API-KEY', ADMIN)).status).toBe(204);
    const after = await t.http.get('/api/v3/clients/').set('X-API-KEY', key.key);
    expect([after.status, after.body]).toEqual([401, { detail: 'Invalid token' }]);
    // Other keys are untouched by the revocation.
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', ADMIN)).status).toBe(200);
  });

  it('refuses a cached key revoked by another process (the operator CLI, no Redis) within moments: PostgreSQL NOTIFY', async () => {
    const key = await newKey({ name: 'revoked-by-cli' });
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', key.key)).status).toBe(200); // now cached
    const env = cleanEnv({ DATABASE_URL: t.db.url });
    delete env.REDIS_URL; // the notification, not the Redis bus, must carry it
    const res = await run([CLI_JS, 'apikey', 'revoke', String(key.id)], env);
    expect(res.code).toBe(0);
    // Well within the cache's 10 s lifetime: the notification dropped it.
    await until('the cached key refused', async () => (await t.http.get('/api/v3/clients/').set('X-API-KEY', key.key)).status === 401, API_KEY_CACHE_TTL_MS / 2);
  });

  it('refuses a cached key the moment it expires', async () => {
    const key = await newKey({ name: 'expiring', expires_in: '1h' });
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', key.key)).status).toBe(200);
    clock.advance(3_600_001);
    const after = await t.http.get('/api/v3/clients/').set('X-API-KEY', key.key);
    expect([after.status, after.body]).toEqual([401, { detail: 'Invalid token' }]);
  });

  it('refuses a wrong secret with the prefix of a cached key', async () => {
    const key = await newKey({ name: 'prefix' });
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', key.key)).status).toBe(200);
    const forged = key.key.slice(0, -1) + (key.key.endsWith('A') ? 'B' : 'A');
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', forged)).status).toBe(401);
  });
});
