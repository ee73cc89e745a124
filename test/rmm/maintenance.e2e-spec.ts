import { AlertsService } from '../../apps/api/src/rmm/alerting/alerts/alerts.service';
import { FakeAgent } from '../utils/fake-agent';
import { Receiver, startReceiver } from '../utils/notify-receiver';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const ADMIN = 'maintenance-admin-key-0123456789abcdef';

/**
 * Maintenance on the agent side (issue #31, point 8): while an agent is in maintenance its checks run and record,
 * but no alert opens and no notification is sent; when it ends, the next failing result opens the alert; tasks that
 * skip maintenance are recorded skipped, nothing sent.
 */
describe('agents in maintenance', () => {
  let t: TestApp;
  let receiver: Receiver;
  let tenant: { clientId: number; siteId: number };
  const admin = { 'X-API-KEY': ADMIN };
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    t = await startTestApp(
      { RMM_ADMIN_API_KEY: ADMIN, RMM_NOTIFY_ALLOW_PRIVATE: 'true', RMM_NOTIFY_RETRY_BASE_SECONDS: '1', RMM_TASK_TICK_MS: '200', RMM_RATE_LIMIT_PER_MINUTE: '100000' },
      { overrides: { checkResultSpacing: false } },
    );
    tenant = await createTenant(t, 'Maintenance Co', 'HQ');
    receiver = await startReceiver();
    const channel = await t.http
      .post('/api/v3/notifications/')
      .set(admin)
      .send({ name: 'ops hook', type: 'webhook', url: `${receiver.url}/hook`, min_severity: 'info', events: ['alert.created', 'task.run', 'agent.overdue'] });
    expect(channel.status).toBe(201);
  });
  afterAll(async () => {
    for (const a of open.splice(0)) a.ws.terminate();
    await t?.close();
    await receiver?.close();
  });

  const connect = async (hostname: string): Promise<{ agentId: string; agent: FakeAgent }> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname, plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    const agent = await FakeAgent.connect(t.url, r.body.agent_id, r.body.agent_secret);
    open.push(agent);
    return { agentId: r.body.agent_id, agent };
  };
  const setMaintenance = async (agentId: string, on: boolean): Promise<Record<string, any>> => {
    const res = await t.http.patch(`/api/v3/agents/${agentId}/`).set(admin).send({ maintenance: on });
    expect(res.status).toBe(200);
    return res.body;
  };
  const failingCheck = async (agentId: string, agent: FakeAgent): Promise<number> => {
    const res = await t.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, check_type: 'memory', settings: { threshold_percent: 90 }, fails_b4_alert: 1, run_interval: 5 });
    expect(res.status).toBe(201);
    await agent.given(res.body.id);
    return res.body.id as number;
  };
  const check = async (id: number): Promise<Record<string, any>> => (await t.http.get(`/api/v3/checks/${id}/`).set(admin).expect(200)).body;
  const history = async (id: number): Promise<Array<Record<string, any>>> => (await t.http.get(`/api/v3/checks/${id}/history/`).set(admin).expect(200)).body;
  const alertsOf = async (agentId: string): Promise<Array<Record<string, any>>> => (await t.http.get(`/api/v3/alerts/?agent=${agentId}`).set(admin).expect(200)).body;
  const deliveriesOf = async (agentId: string): Promise<number> =>
    Number((await sql<{ n: string }>(t.db.url, `SELECT count(*) AS n FROM notification_deliveries WHERE payload->'agent'->>'id' = $1`, [agentId]))[0].n);
  const hooksOf = (agentId: string): Array<Record<string, any>> =>
    receiver.received.map((r) => JSON.parse(r.body) as Record<string, any>).filter((b) => b.agent?.id === agentId);

  it('a failing check in maintenance records its results but opens no alert and sends no webhook; after maintenance the next failing result opens it', async () => {
    const { agentId, agent } = await connect('maint-check-01');
    const on = await setMaintenance(agentId, true);
    expect(on).toMatchObject({ agent_id: agentId, maintenance: true, maintenance_until: null });
    const checkId = await failingCheck(agentId, agent);

    agent.send({ type: 'check.result', checkId, status: 'failing', moreInfo: 'memory at 97%' });
    agent.send({ type: 'check.result', checkId, status: 'failing', moreInfo: 'memory at 98%' });
    await until('two results recorded', async () => (await history(checkId)).length === 2);
    expect(await check(checkId)).toMatchObject({ status: 'failing', fail_count: 2 });
    expect(await alertsOf(agentId)).toEqual([]);
    // The outbox is written by the statement that opens an alert: none written means none will be sent.
    expect(await deliveriesOf(agentId)).toBe(0);
    expect(hooksOf(agentId)).toEqual([]);

    const off = await setMaintenance(agentId, false);
    expect(off).toMatchObject({ maintenance: false, maintenance_until: null });
    agent.send({ type: 'check.result', checkId, status: 'failing', moreInfo: 'memory at 99%' });
    const [alert] = await until('the alert once maintenance is over', async () => {
      const open = await alertsOf(agentId);
      return open.length > 0 ? open : undefined;
    });
    expect(alert).toMatchObject({ alert_type: 'check_failure', check: checkId, resolved: false, message: expect.stringContaining('failed 3 times in a row: memory at 99%') });
    expect(await check(checkId)).toMatchObject({ status: 'failing', fail_count: 3 });
    const [hook] = await until('the webhook of the alert', async () => {
      const got = hooksOf(agentId);
      return got.length > 0 ? got : undefined;
    });
    expect(hook).toMatchObject({ event: 'alert.created', alert: { id: alert.id, alert_type: 'check_failure' } });
  });

  it("a policy window's maintenance (maintenance_until ahead) shows on the agent and opens no alert either", async () => {
    const { agentId, agent } = await connect('maint-window-01');
    const until1h = new Date(Date.now() + 3_600_000);
    await sql(t.db.url, `UPDATE agents SET maintenance_until = $2 WHERE id = $1`, [agentId, until1h]);
    const detail = (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin).expect(200)).body;
    expect(detail).toMatchObject({ maintenance: true, maintenance_until: until1h.toISOString() });
    const listed = (await t.http.get(`/api/v3/agents/?hostname=maint-window-01`).set(admin).expect(200)).body;
    expect(listed[0]).toMatchObject({ maintenance: true, maintenance_until: until1h.toISOString() });

    const checkId = await failingCheck(agentId, agent);
    agent.send({ type: 'check.result', checkId, status: 'failing', moreInfo: 'memory at 97%' });
    await until('the result recorded', async () => (await history(checkId)).length === 1);
    expect(await alertsOf(agentId)).toEqual([]);
    expect(await deliveriesOf(agentId)).toBe(0);

    // A window that has ended is no maintenance (and reads as null)
    await sql(t.db.url, `UPDATE agents SET maintenance_until = now() - interval '1 minute' WHERE id = $1`, [agentId]);
    expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin).expect(200)).body).toMatchObject({ maintenance: false, maintenance_until: null });
  });

  it("a policy's maintenance window, through the API: its failing check opens no alert and sends no webhook; once the window is gone the next failing result opens the alert and the webhook arrives", async () => {
    const { agentId, agent } = await connect('maint-policy-01');
    expect((await t.http.post('/api/v3/agents/tags/').set(admin).send({ agents: [agentId], add: ['night-shift'] })).body).toEqual({ updated: 1 });
    // A window of every minute lasting a day: in force now, whatever the time.
    const created = await t.http
      .post('/api/v3/policies/')
      .set(admin)
      .send({
        name: 'Night shift',
        targets: { tags_any: ['night-shift'] },
        checks: [{ check_type: 'memory', name: 'Memory night', settings: { threshold_percent: 90 }, run_interval: 5, fails_b4_alert: 1 }],
        tasks: [],
        maintenance_windows: [{ schedule: '* * * * *', duration_minutes: 1440, timezone: 'Europe/Paris' }],
      });
    expect(created.status).toBe(201);
    const inWindow = await until('the agent in the window', async () => {
      const a = (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin).expect(200)).body;
      return a.maintenance === true && a.maintenance_until ? a : undefined;
    });
    expect(Date.parse(inWindow.maintenance_until)).toBeGreaterThan(Date.now());
    const effective = (await t.http.get(`/api/v3/agents/${agentId}/effective-policy/`).set(admin).expect(200)).body;
    expect(effective.maintenance).toEqual({ active: true, until: expect.any(String), source: { type: 'policy', policy: { id: created.body.id, name: 'Night shift' } } });
    const checkId = await until('the policy check on the agent', async () => (await t.http.get(`/api/v3/checks/?agent=${agentId}`).set(admin).expect(200)).body.find((c: { name: string }) => c.name === 'Memory night')?.id as number | undefined);
    await agent.given(checkId);

    agent.send({ type: 'check.result', checkId, status: 'failing', moreInfo: 'memory at 97%' });
    await until('the result recorded', async () => (await history(checkId)).length === 1);
    expect(await alertsOf(agentId)).toEqual([]);
    expect(await deliveriesOf(agentId)).toBe(0);
    expect(hooksOf(agentId)).toEqual([]);

    // The window goes (the policy keeps its check): out of maintenance; the next failing result opens the alert.
    expect((await t.http.patch(`/api/v3/policies/${created.body.id}/`).set(admin).send({ maintenance_windows: [] })).status).toBe(200);
    await until('out of the window', async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin).expect(200)).body.maintenance === false);
    agent.send({ type: 'check.result', checkId, status: 'failing', moreInfo: 'memory at 98%' });
    const [alert] = await until('the alert after the window', async () => {
      const open = await alertsOf(agentId);
      return open.length > 0 ? open : undefined;
    });
    expect(alert).toMatchObject({ alert_type: 'check_failure', check: checkId, resolved: false });
    await until('the webhook of the alert', async () => hooksOf(agentId).find((h) => h.event === 'alert.created'));
  });

  it('an overdue agent in maintenance opens no agent_overdue alert; out of it, it does', async () => {
    const { agentId, agent } = await connect('maint-overdue-01');
    agent.ws.terminate();
    await setMaintenance(agentId, true);
    await sql(t.db.url, `UPDATE agents SET status = 'overdue' WHERE id = $1`, [agentId]);
    const alerts = t.server.app.get(AlertsService);
    expect(await alerts.openOverdue('error', [Number(agentId)])).toEqual([]);
    expect(await alertsOf(agentId)).toEqual([]);
    await setMaintenance(agentId, false);
    const opened = await alerts.openOverdue('error', [Number(agentId)]);
    expect(opened.map((a) => a.alertType)).toEqual(['agent_overdue']);
  });

  it('a skip_in_maintenance task is recorded skipped (nothing sent to the agent); the other task still runs', async () => {
    const { agentId, agent } = await connect('maint-task-01');
    await setMaintenance(agentId, true);
    const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'maint-task-script', shell: 'bash', body: 'exit 3', default_timeout: 20 });
    expect(script.status).toBe(201);
    const create = await t.http
      .post('/api/v3/tasks/')
      .set(admin)
      .send({ name: 'skipped in maintenance', agent: agentId, script: script.body.id, schedule: '* * * * * *', skip_in_maintenance: true });
    expect(create.status).toBe(201);
    expect(create.body).toMatchObject({ skip_in_maintenance: true, queue_if_offline: false });
    const taskId = create.body.id as number;
    expect((await t.http.get(`/api/v3/tasks/${taskId}/`).set(admin).expect(200)).body.skip_in_maintenance).toBe(true);

    const [run] = await until('a skipped run', async () => {
      const runs = (await t.http.get(`/api/v3/tasks/${taskId}/runs/`).set(admin).expect(200)).body as Array<Record<string, any>>;
      return runs.length > 0 ? runs : undefined;
    });
    expect(run).toMatchObject({ status: 'skipped', retcode: null, error: 'skipped: the agent was in maintenance' });
    await t.http.patch(`/api/v3/tasks/${taskId}/`).set(admin).send({ enabled: false }).expect(200);
    expect(agent.messages.filter((m) => m.type === 'script.run')).toEqual([]);
    expect(await alertsOf(agentId)).toEqual([]);
    expect(await deliveriesOf(agentId)).toBe(0);

    // skip_in_maintenance false (the default): the run is sent; it fails, but in maintenance no alert and no webhook
    const plain = await t.http.post('/api/v3/tasks/').set(admin).send({ name: 'runs anyway', agent: agentId, script: script.body.id, schedule: '* * * * * *' });
    expect(plain.body.skip_in_maintenance).toBe(false);
    const sent = await agent.next('script.run', 15_000);
    await t.http.patch(`/api/v3/tasks/${plain.body.id}/`).set(admin).send({ enabled: false }).expect(200);
    agent.send({ type: 'result', id: sent.id, ok: true, result: { retcode: 3, stdout: '', stderr: 'boom', executionTime: 0.1, timedOut: false } });
    await until('the run ended', async () => {
      const runs = (await t.http.get(`/api/v3/tasks/${plain.body.id}/runs/`).set(admin).expect(200)).body as Array<Record<string, any>>;
      return runs.length > 0 && runs[0].status !== 'running' ? runs : undefined;
    });
    expect(await alertsOf(agentId)).toEqual([]);
    expect(await deliveriesOf(agentId)).toBe(0);
  });

  it('PATCH maintenance is audited with before and after', async () => {
    const { agentId } = await connect('maint-audit-01');
    await setMaintenance(agentId, true);
    const rows = (await t.http.get(`/api/v3/audit/?path=/api/v3/agents/${agentId}/`).set(admin).expect(200)).body as Array<Record<string, any>>;
    const change = rows.find((r) => r.status === null);
    expect(change!.changes).toEqual({ before: { maintenance: false }, after: { maintenance: true } });
  });
});
