import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { Client } from 'pg';
import { startTestApp, TestApp } from '../utils/test-app';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';

/** Agents' tags and monitoring type (issue #31, point 1): PATCH, the bulk edit, the tag filter, audit and events. */
describe('/api/v3 agents: tags and monitoring_type', () => {
  const ADMIN = 'admin-key-for-agent-tags-0123456789';
  let t: TestApp;
  let acme: { clientId: number; siteId: number };
  let globex: { clientId: number; siteId: number };
  let a1: number;
  let a2: number;
  let a3: number;
  let g1: number;
  const admin = () => ({ 'X-API-KEY': ADMIN });
  const seen: Array<{ event: string; data: unknown }> = [];

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    acme = await createTenant(t, 'Acme');
    globex = await createTenant(t, 'Globex');
    a1 = await insertAgent(t, { hostname: 'ACME-1', ...acme });
    a2 = await insertAgent(t, { hostname: 'ACME-2', ...acme });
    a3 = await insertAgent(t, { hostname: 'ACME-3', ...acme, monitoringType: 'server' });
    g1 = await insertAgent(t, { hostname: 'GLOBEX-1', ...globex });
    const events = t.server.app.get(RmmEvents);
    events.on('agent.updated', (data) => seen.push({ event: 'agent.updated', data }));
    events.on('agents.regrouped', (data) => seen.push({ event: 'agents.regrouped', data }));
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const tagsOf = async (id: number): Promise<string[]> => (await t.http.get(`/api/v3/agents/${id}/`).set(admin()).expect(200)).body.tags;
  const ids = async (q: string, key = ADMIN): Promise<string[]> => {
    const res = await t.http.get(`/api/v3/agents/?${q}`).set('X-API-KEY', key);
    expect(res.status).toBe(200);
    return res.body.map((a: { agent_id: string }) => a.agent_id);
  };
  const changeRows = async (id: number) => {
    const rows = (await t.http.get(`/api/v3/audit/?path=/api/v3/agents/${id}/&limit=100`).set(admin()).expect(200)).body as Array<Record<string, any>>;
    return rows.filter((r) => r.status === null).map((r) => ({ action: r.action, actor_name: r.actor_name, change: r.changes }));
  };

  it('shows tags, maintenance and maintenance_until in the list and the detail (an agent starts with none)', async () => {
    const list = (await t.http.get('/api/v3/agents/').set(admin()).expect(200)).body;
    expect(list[0]).toMatchObject({ agent_id: String(a1), tags: [], maintenance: false, maintenance_until: null });
    expect((await t.http.get(`/api/v3/agents/${a1}/`).set(admin()).expect(200)).body).toMatchObject({ tags: [], maintenance: false, maintenance_until: null });
  });

  it('PATCH replaces the tags: stored lowercase, trimmed, sorted, without duplicates; audited and announced', async () => {
    const res = await t.http.patch(`/api/v3/agents/${a1}/`).set(admin()).send({ tags: ['Finance', ' paris ', 'finance', 'site:HQ-1.a_b'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ agent_id: String(a1), tags: ['finance', 'paris', 'site:hq-1.a_b'] });
    expect(await tagsOf(a1)).toEqual(['finance', 'paris', 'site:hq-1.a_b']);

    const replaced = await t.http.patch(`/api/v3/agents/${a1}/`).set(admin()).send({ tags: ['finance'] });
    expect(replaced.body.tags).toEqual(['finance']);
    expect(seen).toEqual([
      { event: 'agent.updated', data: { agentId: a1 } },
      { event: 'agents.regrouped', data: { agentIds: [a1] } },
      { event: 'agent.updated', data: { agentId: a1 } },
      { event: 'agents.regrouped', data: { agentIds: [a1] } },
    ]);
    expect(await changeRows(a1)).toEqual([
      { action: 'PATCH /api/v3/agents/{agentId}/', actor_name: 'admin (RMM_ADMIN_API_KEY)', change: { before: { tags: ['finance', 'paris', 'site:hq-1.a_b'] }, after: { tags: ['finance'] } } },
      { action: 'PATCH /api/v3/agents/{agentId}/', actor_name: 'admin (RMM_ADMIN_API_KEY)', change: { before: { tags: [] }, after: { tags: ['finance', 'paris', 'site:hq-1.a_b'] } } },
    ]);
  });

  it('a PATCH that changes nothing writes nothing and announces nothing', async () => {
    const before = (await changeRows(a1)).length;
    expect((await t.http.patch(`/api/v3/agents/${a1}/`).set(admin()).send({ tags: ['FINANCE'] })).status).toBe(200);
    expect(seen).toEqual([]);
    expect((await changeRows(a1)).length).toBe(before);
  });

  it('PATCH changes monitoring_type (regrouped: policies match on it), with before and after', async () => {
    const res = await t.http.patch(`/api/v3/agents/${a2}/`).set(admin()).send({ monitoring_type: 'server' });
    expect(res.status).toBe(200);
    expect(res.body.monitoring_type).toBe('server');
    expect(await ids('monitoring_type=server')).toEqual([String(a2), String(a3)]);
    expect(seen).toEqual([
      { event: 'agent.updated', data: { agentId: a2 } },
      { event: 'agents.regrouped', data: { agentIds: [a2] } },
    ]);
    expect((await changeRows(a2))[0].change).toEqual({ before: { monitoring_type: 'workstation' }, after: { monitoring_type: 'server' } });
    await t.http.patch(`/api/v3/agents/${a2}/`).set(admin()).send({ monitoring_type: 'workstation' }).expect(200);
  });

  it.each([
    [{ tags: ['ok', 'no/slash'] }, 'tags', '"no/slash" is not a tag: 1–64 characters of letters, digits, space and _ . : -'],
    [{ tags: [''] }, 'tags', '"" is not a tag: 1–64 characters of letters, digits, space and _ . : -'],
    [{ tags: ['x'.repeat(65)] }, 'tags', `"${'x'.repeat(65)}" is not a tag: 1–64 characters of letters, digits, space and _ . : -`],
    [{ tags: [7] }, 'tags', '7 is not a tag: 1–64 characters of letters, digits, space and _ . : -'],
    [{ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags', 'at most 50 tags'],
    [{ tags: 'finance' }, 'tags', 'tags must be an array'],
    [{ tags: null }, 'tags', 'tags must not be null'],
    [{ monitoring_type: 'laptop' }, 'monitoring_type', expect.stringContaining('monitoring_type must be one of')],
    [{ maintenance: 'yes' }, 'maintenance', 'maintenance must be a boolean value'],
    [{}, 'tags', 'give tags, monitoring_type or maintenance (or several)'],
  ])('PATCH %j is 400 naming the field (and the tag), changing nothing', async (body, field, message) => {
    const res = await t.http.patch(`/api/v3/agents/${a3}/`).set(admin()).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'validation error', errors: expect.arrayContaining([{ field, message }]) });
    expect(await tagsOf(a3)).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('PATCH of an unknown agent is 404', async () => {
    expect((await t.http.patch('/api/v3/agents/99999/').set(admin()).send({ tags: ['x'] })).body).toEqual({ detail: 'Not found' });
  });

  it('bulk adds and removes tags in one call; updated counts only the agents that changed', async () => {
    // a1 has finance already: adding it changes a2 and a3 only
    let res = await t.http.post('/api/v3/agents/tags/').set(admin()).send({ agents: [String(a1), String(a2), String(a3)], add: ['Finance'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 2 });
    expect([await tagsOf(a1), await tagsOf(a2), await tagsOf(a3)]).toEqual([['finance'], ['finance'], ['finance']]);
    expect(seen).toEqual([
      { event: 'agent.updated', data: { agentId: a2 } },
      { event: 'agent.updated', data: { agentId: a3 } },
      { event: 'agents.regrouped', data: { agentIds: [a2, a3] } },
    ]);
    seen.length = 0;

    res = await t.http.post('/api/v3/agents/tags/').set(admin()).send({ agents: [String(a1), String(a2)], add: ['paris', 'vip'], remove: ['finance'] });
    expect(res.body).toEqual({ updated: 2 });
    expect([await tagsOf(a1), await tagsOf(a2), await tagsOf(a3)]).toEqual([['paris', 'vip'], ['paris', 'vip'], ['finance']]);
    expect((await changeRows(a2))[0]).toEqual({ action: 'POST /api/v3/agents/tags/', actor_name: 'admin (RMM_ADMIN_API_KEY)', change: { before: { tags: ['finance'] }, after: { tags: ['paris', 'vip'] } } });

    // Nothing to change: 0, no event
    seen.length = 0;
    res = await t.http.post('/api/v3/agents/tags/').set(admin()).send({ agents: [a1, a2], remove: ['unknown-tag'] });
    expect(res.body).toEqual({ updated: 0 });
    expect(seen).toEqual([]);
  });

  it('lists the agents carrying every tag given (?tag=a&tag=b), matched lowercase', async () => {
    await t.http.post('/api/v3/agents/tags/').set(admin()).send({ agents: [String(a1), String(a3)], add: ['finance'] }).expect(200);
    // a1: finance, paris, vip; a2: paris, vip; a3: finance
    expect(await ids('tag=finance')).toEqual([String(a1), String(a3)]);
    expect(await ids('tag=paris')).toEqual([String(a1), String(a2)]);
    expect(await ids('tag=FINANCE&tag=paris')).toEqual([String(a1)]);
    expect(await ids('tag=finance&tag=nowhere')).toEqual([]);
    expect(await ids(`tag=paris&client=${acme.clientId}&limit=1`)).toEqual([String(a1)]);
    const paged = await t.http.get('/api/v3/agents/?tag=paris&limit=1').set(admin());
    expect(paged.headers['x-total-count']).toBe('2');
    const bad = await t.http.get('/api/v3/agents/?tag=a/b').set(admin());
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'tag', message: '"a/b" is not a tag: 1–64 characters of letters, digits, space and _ . : -' }]);
  });

  it.each([
    [{ agents: [], add: ['x'] }, 'agents', 'agents must contain at least 1 elements'],
    [{ agents: ['abc'], add: ['x'] }, 'agents', 'agents each must be an agent id (digits)'],
    [{ agents: Array.from({ length: 5001 }, (_, i) => String(i + 1)), add: ['x'] }, 'agents', 'agents must contain no more than 5000 elements'],
    [{ agents: ['1'], add: ['bad/tag'] }, 'add', '"bad/tag" is not a tag: 1–64 characters of letters, digits, space and _ . : -'],
    [{ agents: ['1'], remove: ['?'] }, 'remove', '"?" is not a tag: 1–64 characters of letters, digits, space and _ . : -'],
    [{ agents: ['1'], add: ['x'], remove: ['X'] }, 'remove', '"x" is both added and removed'],
    [{ agents: ['1'] }, 'add', 'give a tag to add or to remove'],
  ])('bulk %#: 400 naming %s', async (body, field, message) => {
    const res = await t.http.post('/api/v3/agents/tags/').set(admin()).send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([{ field, message }]));
  });

  it('bulk with an unknown agent is 400 naming it, and changes no agent', async () => {
    const res = await t.http.post('/api/v3/agents/tags/').set(admin()).send({ agents: [String(a1), '99999'], add: ['new-tag'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'validation error', errors: [{ field: 'agents', message: 'no agent 99999' }] });
    expect(await tagsOf(a1)).toEqual(['finance', 'paris', 'vip']);
    expect(seen).toEqual([]);
  });

  it('bulk that would give an agent more than 50 tags refuses the whole edit', async () => {
    const many = Array.from({ length: 48 }, (_, i) => `m${i}`);
    await t.http.patch(`/api/v3/agents/${a3}/`).set(admin()).send({ tags: many }).expect(200);
    const res = await t.http.post('/api/v3/agents/tags/').set(admin()).send({ agents: [String(a2), String(a3)], add: ['x1', 'x2', 'x3'] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'add', message: `agent ${a3} would have 51 tags: at most 50` }]);
    expect(await tagsOf(a2)).toEqual(['paris', 'vip']);
    await t.http.patch(`/api/v3/agents/${a3}/`).set(admin()).send({ tags: ['finance'] }).expect(200);
  });

  it('a client-limited caller tags only its clients\' agents: another client\'s is unknown (400 / 404), and the filter sees only its own', async () => {
    const res = await t.http.post('/api/v3/keys/').set(admin()).send({ name: 'acme-tech', scopes: ['agents:read', 'agents:write'], clients: [acme.clientId] });
    expect(res.status).toBe(201);
    const limited = res.body.key as string;
    await t.http.patch(`/api/v3/agents/${g1}/`).set(admin()).send({ tags: ['finance'] }).expect(200);

    const bulk = await t.http.post('/api/v3/agents/tags/').set('X-API-KEY', limited).send({ agents: [String(a1), String(g1)], add: ['limited'] });
    expect(bulk.status).toBe(400);
    expect(bulk.body.errors).toEqual([{ field: 'agents', message: `no agent ${g1}` }]);
    expect(await tagsOf(a1)).not.toContain('limited');
    expect((await t.http.patch(`/api/v3/agents/${g1}/`).set('X-API-KEY', limited).send({ tags: [] })).status).toBe(404);
    expect(await tagsOf(g1)).toEqual(['finance']);

    expect(await ids('tag=finance', limited)).toEqual([String(a1), String(a3)]);
    expect(await ids('tag=finance')).toEqual([String(a1), String(a3), String(g1)]);
    expect((await t.http.post('/api/v3/agents/tags/').set('X-API-KEY', limited).send({ agents: [String(a1)], add: ['limited'] })).body).toEqual({ updated: 1 });
  });

  it('needs agents:write', async () => {
    const reader = await createKey(t, ['agents:read']);
    expect((await t.http.post('/api/v3/agents/tags/').set('X-API-KEY', reader).send({ agents: [String(a1)], add: ['x'] })).status).toBe(403);
    expect((await t.http.patch(`/api/v3/agents/${a1}/`).set('X-API-KEY', reader).send({ tags: [] })).status).toBe(403);
  });

  it('the filter is answered by the GIN index (tags @> $1)', async () => {
    const pg = new Client({ connectionString: t.db.url });
    await pg.connect();
    try {
      await pg.query('SET enable_seqscan = off'); // four rows: the planner would rather scan; the index must be usable
      const plan = await pg.query(`EXPLAIN SELECT a.id FROM agents a WHERE a.tags @> $1::text[]`, [['finance']]);
      expect(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toContain('IDX_agents_tags');
    } finally {
      await pg.end();
    }
  });
});
