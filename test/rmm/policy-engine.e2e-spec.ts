import { Client } from 'pg';
import { CheckType } from '@app/entities';
import { TransactionHost } from '../../apps/api/src/database/transaction-host';
import { MaintenanceWindows } from '../../apps/api/src/rmm/automation/policies/maintenance-windows';
import { PolicyEngine } from '../../apps/api/src/rmm/automation/policies/policy-engine';
import { checkKey, taskKey } from '../../apps/api/src/rmm/automation/policies/policy-merge';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { AgentWireMessage, FakeAgent } from '../utils/fake-agent';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const ADMIN = 'policy-engine-admin-key-0123456789abcdef';
const EVERY_2S = '*/2 * * * * *';

interface PolicyCheckFixture {
  check_type: CheckType;
  settings: Record<string, unknown>;
  name?: string;
  script_id?: number;
}
interface PolicyFixture {
  name: string;
  enforced?: boolean;
  priority?: number;
  targets?: Record<string, unknown>;
  exclude?: Record<string, unknown>;
  windows?: Array<{ schedule: string; duration_minutes: number; timezone: string }>;
  checks?: PolicyCheckFixture[];
  tasks?: Array<{ name: string; script: number; args?: string[]; schedule: string }>;
}

/**
 * The policy engine (issue #31 points 6, 7, 8): the policies are written here with SQL, as the policies API would
 * store them, and announced with `policies.changed` / `agents.regrouped`, as that API and the tags API do. What is
 * asserted is what agents get (checks.sync, script.run) and what the per-agent API shows.
 */
describe('the policy engine: policy items reach the agents they match', () => {
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  const admin = { 'X-API-KEY': ADMIN };
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_TASK_TICK_MS: '200' }, { overrides: { checkResultSpacing: false } });
    tenant = await createTenant(t, 'Policy Engine Ltd', 'HQ');
  });
  afterAll(async () => {
    for (const a of open.splice(0)) a.ws.terminate();
    await t?.close();
  });

  const events = (): RmmEvents => t.server.app.get(RmmEvents);
  const engine = (): PolicyEngine => t.server.app.get(PolicyEngine);

  const enroll = async (hostname: string, tags: string[] = []): Promise<{ id: string; agent: FakeAgent }> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname, plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    await sql(t.db.url, `UPDATE agents SET tags = $2 WHERE id = $1`, [Number(r.body.agent_id), tags]);
    const agent = await FakeAgent.connect(t.url, r.body.agent_id, r.body.agent_secret);
    open.push(agent);
    await agent.next('checks.sync');
    return { id: r.body.agent_id, agent };
  };

  /** The policy and its items in one transaction, as the policies API stores them; then policies.changed. */
  const createPolicy = async (p: PolicyFixture): Promise<{ id: number; checks: number[]; tasks: number[] }> => {
    const pg = new Client({ connectionString: t.db.url });
    await pg.connect();
    const checks: number[] = [];
    const tasks: number[] = [];
    let id: number;
    try {
      await pg.query('BEGIN');
      const { rows } = await pg.query<{ id: number }>(
        `INSERT INTO policies (name, enforced, priority, targets, exclude, maintenance_windows) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [p.name, p.enforced ?? false, p.priority ?? 500, JSON.stringify(p.targets ?? {}), JSON.stringify(p.exclude ?? {}), JSON.stringify(p.windows ?? [])],
      );
      id = rows[0].id;
      for (const [i, c] of (p.checks ?? []).entries()) {
        const keySettings = c.check_type === 'script' ? { ...c.settings, script: c.script_id } : c.settings;
        const r = await pg.query<{ id: number }>(
          `INSERT INTO policy_checks (policy_id, position, key, check_type, name, settings, script_id) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [id, i, checkKey(c.check_type, keySettings), c.check_type, c.name ?? `${c.check_type} check`, JSON.stringify(c.settings), c.script_id ?? null],
        );
        checks.push(r.rows[0].id);
      }
      for (const [i, k] of (p.tasks ?? []).entries()) {
        const r = await pg.query<{ id: number }>(
          `INSERT INTO policy_tasks (policy_id, position, key, name, script_id, args, schedule) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [id, i, taskKey(k.script, k.args ?? [], k.schedule), k.name, k.script, JSON.stringify(k.args ?? []), k.schedule],
        );
        tasks.push(r.rows[0].id);
      }
      await pg.query('COMMIT');
    } finally {
      await pg.end();
    }
    events().emit('policies.changed', { policyId: id });
    return { id, checks, tasks };
  };

  const script = async (name: string): Promise<number> => {
    const res = await t.http.post('/api/v3/scripts/').set(admin).send({ name, shell: 'bash', body: 'echo hi' });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };

  /** The next checks.sync the agent gets whose list satisfies `ok` (earlier lists are the way there). */
  const syncWhere = async (agent: FakeAgent, ok: (checks: Array<Record<string, any>>) => boolean): Promise<Array<Record<string, any>>> => {
    for (;;) {
      const m: AgentWireMessage = await agent.next('checks.sync');
      if (ok(m.checks)) return m.checks;
    }
  };
  const checksOf = async (agentId: string): Promise<Array<Record<string, any>>> => {
    const res = await t.http.get(`/api/v3/checks/?agent=${agentId}`).set(admin);
    expect(res.status).toBe(200);
    return res.body;
  };
  const tasksOf = async (agentId: string): Promise<Array<Record<string, any>>> => {
    const res = await t.http.get(`/api/v3/tasks/?agent=${agentId}`).set(admin);
    expect(res.status).toBe(200);
    return res.body;
  };

  it("gives the agents a policy matches its check (with source) and its task, and neither to an untagged or excluded agent; results and alerts are per agent", async () => {
    const a = await enroll('pe-fin-01', ['finance']);
    const b = await enroll('pe-fin-02', ['finance', 'hq']);
    const c = await enroll('pe-other-01', ['sales']);
    const x = await enroll('pe-fin-excluded', ['finance']);
    const job = await script('pe-nightly');
    const policy = await createPolicy({
      name: 'Finance baseline',
      targets: { tags_any: ['finance'] },
      exclude: { agents: [Number(x.id)] },
      checks: [{ check_type: 'diskspace', settings: { drive: '/', threshold_percent: 10 }, name: 'Root disk' }],
      tasks: [{ name: 'Nightly', script: job, schedule: EVERY_2S, args: ['--quick'] }],
    });

    const gotA = await syncWhere(a.agent, (list) => list.some((k) => k.checkType === 'diskspace'));
    const gotB = await syncWhere(b.agent, (list) => list.some((k) => k.checkType === 'diskspace'));
    expect(gotA).toEqual([expect.objectContaining({ checkType: 'diskspace', name: 'Root disk', settings: { drive: '/', threshold_percent: 10 } })]);
    expect(gotB).toHaveLength(1);
    await engine().settled();
    expect(await checksOf(c.id)).toEqual([]);
    expect(await checksOf(x.id)).toEqual([]);
    expect(await tasksOf(c.id)).toEqual([]);
    expect(await tasksOf(x.id)).toEqual([]);
    expect(c.agent.messages.filter((m) => m.type === 'checks.sync')).toEqual([]);

    const [checkA] = await checksOf(a.id);
    expect(checkA).toMatchObject({ id: gotA[0].id, agent: a.id, check_type: 'diskspace', name: 'Root disk', status: 'pending', source: { type: 'policy', policy: { id: policy.id, name: 'Finance baseline' }, enforced: false, key: 'diskspace:/' } });
    const [taskA] = await tasksOf(a.id);
    expect(taskA).toMatchObject({ name: 'Nightly', script: job, schedule: EVERY_2S, enabled: true, source: { type: 'policy', policy: { id: policy.id, name: 'Finance baseline' }, enforced: false, key: expect.any(String) } });
    expect(taskA.next_run_at).not.toBeNull();

    // The task fires on each matching agent as its own task would; the run is recorded per agent.
    for (const agent of [a.agent, b.agent]) {
      const run = await agent.next('script.run');
      expect(run).toMatchObject({ shell: 'bash', body: 'echo hi', args: ['--quick'] });
      agent.send({ type: 'result', id: run.id, ok: true, result: { retcode: 0, stdout: 'hi\n', stderr: '', executionTime: 0.01, timedOut: false } });
    }
    await until('a succeeded run of the policy task on agent a', async () => {
      const runs = (await t.http.get(`/api/v3/tasks/${taskA.id}/runs/`).set(admin)).body as Array<{ status: string; agent: string }>;
      return runs.some((r) => r.status === 'succeeded' && r.agent === a.id);
    });
    expect(c.agent.messages.filter((m) => m.type === 'script.run')).toEqual([]);

    // A failing result of agent a's state of the check: its history and alert, not b's.
    a.agent.send({ type: 'check.result', checkId: checkA.id, status: 'failing', moreInfo: '3% free' });
    await until('the check failing on a', async () => (await checksOf(a.id))[0].status === 'failing');
    const alerts = (await t.http.get(`/api/v3/alerts/?agent=${a.id}`).set(admin)).body as Array<Record<string, unknown>>;
    expect(alerts).toEqual([expect.objectContaining({ alert_type: 'check_failure', agent: a.id, check: checkA.id, resolved: false })]);
    expect((await t.http.get(`/api/v3/checks/${checkA.id}/history/`).set(admin)).body).toEqual([expect.objectContaining({ status: 'failing', more_info: '3% free' })]);
    expect((await checksOf(b.id))[0]).toMatchObject({ status: 'pending' });

    // Managed by the policy: the per-agent API refuses to change or delete the state row.
    for (const res of [await t.http.patch(`/api/v3/checks/${checkA.id}/`).set(admin).send({ run_interval: 60 }), await t.http.delete(`/api/v3/checks/${checkA.id}/`).set(admin)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: "managed by policy Finance baseline: use the agent's policy overrides" });
    }
    for (const res of [await t.http.patch(`/api/v3/tasks/${taskA.id}/`).set(admin).send({ enabled: false }), await t.http.delete(`/api/v3/tasks/${taskA.id}/`).set(admin)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: "managed by policy Finance baseline: use the agent's policy overrides" });
    }

    // The tag goes: the check leaves a's list within 10 s and its open alert resolves, reason policy removed.
    await sql(t.db.url, `UPDATE agents SET tags = '{}' WHERE id = $1`, [Number(a.id)]);
    events().emit('agents.regrouped', { agentIds: [Number(a.id)] });
    await syncWhere(a.agent, (list) => list.length === 0);
    expect(await checksOf(a.id)).toEqual([]);
    expect(await tasksOf(a.id)).toEqual([]);
    const [resolved] = (await t.http.get(`/api/v3/alerts/?agent=${a.id}&resolved=true`).set(admin)).body as Array<Record<string, unknown>>;
    expect((await t.http.get(`/api/v3/alerts/?agent=${a.id}`).set(admin)).body).toEqual([]);
    expect(resolved).toMatchObject({ alert_type: 'check_failure', resolved: true, resolved_by: 'system: policy removed' });
    expect(await checksOf(b.id)).toHaveLength(1);
  });

  it("lets an enforced policy's check win over the agent's own check of the same key: the own one is kept but not sent", async () => {
    const e = await enroll('pe-ops-01');
    const own = await t.http.post('/api/v3/checks/').set(admin).send({ agent: e.id, check_type: 'memory', settings: { threshold_percent: 95 } });
    expect(own.status).toBe(201);
    await syncWhere(e.agent, (list) => list.some((k) => k.id === own.body.id));
    await sql(t.db.url, `UPDATE agents SET tags = '{ops}' WHERE id = $1`, [Number(e.id)]);
    events().emit('agents.regrouped', { agentIds: [Number(e.id)] });
    await engine().settled();
    const policy = await createPolicy({ name: 'Ops enforced', enforced: true, targets: { tags_any: ['ops'] }, checks: [{ check_type: 'memory', settings: { threshold_percent: 80 }, name: 'Memory (ops)' }] });
    const list = await syncWhere(e.agent, (l) => l.some((k) => k.name === 'Memory (ops)'));
    expect(list).toEqual([expect.objectContaining({ checkType: 'memory', name: 'Memory (ops)', settings: { threshold_percent: 80 } })]);
    const shown = await checksOf(e.id);
    expect(shown.map((k) => [k.name, k.source])).toEqual([
      [own.body.name, { type: 'agent' }],
      ['Memory (ops)', { type: 'policy', policy: { id: policy.id, name: 'Ops enforced' }, enforced: true, key: 'memory' }],
    ]);
    // A result for the shadowed own check is not recorded (the agent was not given it).
    e.agent.send({ type: 'check.result', checkId: own.body.id, status: 'failing', moreInfo: 'x' });
    const [policyCheck] = shown.filter((k) => k.source.type === 'policy');
    e.agent.send({ type: 'check.result', checkId: policyCheck.id, status: 'passing', moreInfo: 'ok' });
    await until('the policy check passing', async () => (await checksOf(e.id)).some((k) => k.id === policyCheck.id && k.status === 'passing'));
    expect((await t.http.get(`/api/v3/checks/${own.body.id}/`).set(admin)).body).toMatchObject({ status: 'pending', source: { type: 'agent' } });

    // Overriding an enforced item is refused.
    const res = await t.http.put(`/api/v3/agents/${e.id}/policy-overrides/`).set(admin).send([{ policy: policy.id, key: 'memory', disabled: true }]);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: 'enforced by policy Ops enforced' });
  });

  it('disables an inherited check on one agent only with an override, and answers the overrides; a bad one is 400', async () => {
    const p = await enroll('pe-web-01', ['web']);
    const q = await enroll('pe-web-02', ['web']);
    const policy = await createPolicy({ name: 'Web ping', targets: { tags_any: ['web'] }, checks: [{ check_type: 'ping', settings: { target: 'example.org' }, name: 'Ping example' }] });
    await syncWhere(p.agent, (l) => l.length === 1);
    await syncWhere(q.agent, (l) => l.length === 1);

    const put = await t.http.put(`/api/v3/agents/${p.id}/policy-overrides/`).set(admin).send([{ policy: policy.id, key: 'ping:example.org', disabled: true }]);
    expect(put.status).toBe(200);
    const expected = [{ policy: policy.id, policy_name: 'Web ping', key: 'ping:example.org', disabled: true, settings: null, run_interval: null, fails_b4_alert: null }];
    expect(put.body).toEqual(expected);
    expect((await t.http.get(`/api/v3/agents/${p.id}/policy-overrides/`).set(admin)).body).toEqual(expected);
    await until('the PUT in the audit log', async () =>
      (await sql(t.db.url, `SELECT 1 FROM audit_log WHERE action = 'PUT /api/v3/agents/{agentId}/policy-overrides/' AND target = $1 AND status = 200`, [`/api/v3/agents/${p.id}/policy-overrides/`])).length === 1,
    );
    await syncWhere(p.agent, (l) => l.length === 0);
    expect((await checksOf(p.id))[0]).toMatchObject({ name: 'Ping example', enabled: false });
    expect((await checksOf(q.id))[0]).toMatchObject({ name: 'Ping example', enabled: true });

    // An adjustment: another interval on q only.
    const adjust = await t.http.put(`/api/v3/agents/${q.id}/policy-overrides/`).set(admin).send([{ policy: policy.id, key: 'ping:example.org', run_interval: 300 }]);
    expect(adjust.status).toBe(200);
    await syncWhere(q.agent, (l) => l.length === 1 && l[0].runInterval === 300);

    for (const [body, field] of [
      [[{ policy: 999999, key: 'x' }], '[0].policy'],
      [[{ policy: policy.id, key: 'ping:other' }], '[0].key'],
      [[{ policy: policy.id, key: 'ping:example.org', settings: { target: '-bad' } }], '[0].settings.target'],
      [[{ policy: 'one', key: 'ping:example.org' }], '[0].policy'],
      [{ policy: policy.id }, 'body'],
    ] as const) {
      const res = await t.http.put(`/api/v3/agents/${p.id}/policy-overrides/`).set(admin).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await t.http.put(`/api/v3/agents/99999/policy-overrides/`).set(admin).send([])).status).toBe(404);
    // A key limited to another client sees no such agent (404), reading or writing; its own client's agents it may.
    const other = await createTenant(t, 'Policy Engine Other Ltd', 'HQ');
    const limited = await t.http.post('/api/v3/keys/').set(admin).send({ name: 'pe-limited', scopes: ['agents:read', 'agents:write'], clients: [other.clientId] });
    expect(limited.status).toBe(201);
    const asLimited = { 'X-API-KEY': limited.body.key as string };
    expect((await t.http.get(`/api/v3/agents/${p.id}/policy-overrides/`).set(asLimited)).status).toBe(404);
    expect((await t.http.put(`/api/v3/agents/${p.id}/policy-overrides/`).set(asLimited).send([])).status).toBe(404);
    expect((await t.http.get(`/api/v3/agents/${p.id}/policy-overrides/`).set(admin)).body).toEqual(expected);

    // A script check's settings change what runs on the agent: scripts:run is needed for that, not to disable it.
    const sid = await script('pe-web-probe');
    const probe = await createPolicy({ name: 'Web probe', targets: { tags_any: ['web'] }, checks: [{ check_type: 'script', settings: { args: ['--fast'] }, script_id: sid, name: 'Probe' }] });
    const probeKey = checkKey('script', { args: ['--fast'], script: sid });
    await engine().settled();
    const noRun = { 'X-API-KEY': await createKey(t, ['agents:read', 'agents:write']) };
    const refused = await t.http.put(`/api/v3/agents/${q.id}/policy-overrides/`).set(noRun).send([{ policy: probe.id, key: probeKey, settings: { args: ['--slow'] } }]);
    expect([refused.status, refused.body]).toEqual([403, { detail: 'permission denied' }]);
    expect((await t.http.put(`/api/v3/agents/${q.id}/policy-overrides/`).set(noRun).send([{ policy: probe.id, key: probeKey, disabled: true }])).status).toBe(200);
    expect((await t.http.put(`/api/v3/agents/${q.id}/policy-overrides/`).set(admin).send([{ policy: probe.id, key: probeKey, settings: { args: ['--slow'] } }])).status).toBe(200);
    const probeOnQ = await syncWhere(q.agent, (l) => l.some((k) => k.name === 'Probe' && k.script?.args?.[0] === '--slow'));
    expect(probeOnQ.find((k) => k.name === 'Probe')!.script).toMatchObject({ shell: 'bash', body: 'echo hi', args: ['--slow'] });

    // An empty list removes them: the check runs on p again.
    expect((await t.http.put(`/api/v3/agents/${p.id}/policy-overrides/`).set(admin).send([])).body).toEqual([]);
    await syncWhere(p.agent, (l) => l.some((k) => k.name === 'Ping example'));
  });

  it("puts the agents a policy's maintenance window matches in maintenance, and takes them out when the window goes", async () => {
    const m = await enroll('pe-maint-01', ['night']);
    const n = await enroll('pe-maint-02', ['day']);
    const policy = await createPolicy({ name: 'Night window', targets: { tags_any: ['night'] }, windows: [{ schedule: '* * * * *', duration_minutes: 5, timezone: 'UTC' }] });
    await t.server.app.get(MaintenanceWindows).apply();
    const rows = await sql<{ id: number; maintenance_until: Date | null; maintenance_policy_id: number | null }>(
      t.db.url,
      `SELECT id, maintenance_until, maintenance_policy_id FROM agents WHERE id = ANY($1::int[]) ORDER BY id`,
      [[Number(m.id), Number(n.id)]],
    );
    expect(rows[0]).toMatchObject({ maintenance_policy_id: policy.id, maintenance_until: expect.any(Date) });
    expect(rows[0].maintenance_until!.getTime()).toBeGreaterThan(Date.now());
    expect(rows[1]).toMatchObject({ maintenance_policy_id: null, maintenance_until: null });

    await sql(t.db.url, `UPDATE policies SET maintenance_windows = '[]' WHERE id = $1`, [policy.id]);
    await t.server.app.get(MaintenanceWindows).apply();
    const [after] = await sql(t.db.url, `SELECT maintenance_until, maintenance_policy_id FROM agents WHERE id = $1`, [Number(m.id)]);
    expect(after).toEqual({ maintenance_until: null, maintenance_policy_id: null });
  });

  it('removes a deleted policy\'s checks from its agents and resolves their open alerts (policy removed), through the hook or the event alone', async () => {
    const failOn = async (agent: FakeAgent, agentId: string, name: string): Promise<number> => {
      const list = await syncWhere(agent, (l) => l.some((k) => k.name === name));
      const id = list.find((k) => k.name === name)!.id as number;
      agent.send({ type: 'check.result', checkId: id, status: 'failing', moreInfo: 'down' });
      await until(`an open alert of ${name}`, async () => ((await t.http.get(`/api/v3/alerts/?agent=${agentId}`).set(admin)).body as unknown[]).length === 1);
      return id;
    };
    const resolvedBy = async (agentId: string): Promise<unknown[]> =>
      ((await t.http.get(`/api/v3/alerts/?agent=${agentId}&resolved=true`).set(admin)).body as Array<{ resolved_by: string; check: number | null }>).map((a) => a.resolved_by);

    // The policies API's way: the hook in its transaction, then the delete.
    const g = await enroll('pe-gone-01', ['gone1']);
    const hooked = await createPolicy({ name: 'Gone with hook', targets: { tags_any: ['gone1'] }, checks: [{ check_type: 'winsvc', settings: { service_name: 'spooler' }, name: 'Spooler' }] });
    await failOn(g.agent, g.id, 'Spooler');
    const tx = t.server.app.get(TransactionHost);
    await tx.run(async () => {
      await engine().beforeItemsRemoved({ policyId: hooked.id });
      await tx.exec(`DELETE FROM policies WHERE id = $1`, [hooked.id]);
    });
    await syncWhere(g.agent, (l) => !l.some((k) => k.name === 'Spooler'));
    expect(await resolvedBy(g.id)).toEqual(['system: policy removed']);

    // Deleted around the API, announced by the event alone: the same outcome.
    const h = await enroll('pe-gone-02', ['gone2']);
    const bare = await createPolicy({ name: 'Gone bare', targets: { tags_any: ['gone2'] }, checks: [{ check_type: 'winsvc', settings: { service_name: 'w32time' }, name: 'Time' }] });
    await failOn(h.agent, h.id, 'Time');
    await sql(t.db.url, `DELETE FROM policies WHERE id = $1`, [bare.id]);
    events().emit('policies.changed', { policyId: bare.id });
    await syncWhere(h.agent, (l) => !l.some((k) => k.name === 'Time'));
    await until('the orphaned alert resolved', async () => (await resolvedBy(h.id)).length === 1);
    expect(await resolvedBy(h.id)).toEqual(['system: policy removed']);
  });

  it('gives a newly enrolled agent the items of the policies that match it (all agents)', async () => {
    await createPolicy({ name: 'Everyone cpu', checks: [{ check_type: 'cpuload', settings: { threshold_percent: 99 }, name: 'CPU everyone' }] });
    await engine().settled();
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'pe-new-01', plat: 'linux', version: '0.1.0' });
    const agent = await FakeAgent.connect(t.url, r.body.agent_id, r.body.agent_secret);
    open.push(agent);
    await syncWhere(agent, (l) => l.some((k) => k.name === 'CPU everyone'));
  });
});
