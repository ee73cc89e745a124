import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventMessage, Subscriber } from '../utils/events-subscriber';
import { ROOT, run } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Issue 12 end to end, as an operator sees it: a real reference agent process, and a subscriber on the events
 * WebSocket /rmm/{agent_id}/ watching what the checks, their alerts and a task do, while REST shows the same.
 */
const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');
const ADMIN = 'monitoring-live-admin-key-0123456789';

describe('monitoring live: checks → alerts → events, tasks → runs → events (real agent, real WebSocket)', () => {
  let t: TestApp;
  let work: string;
  let agentId: string;
  let child: ChildProcess | undefined;
  let sub: Subscriber;
  const admin = { 'X-API-KEY': ADMIN };

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' }); // the test polls
    work = mkdtempSync(join(tmpdir(), 'rmm-monitoring-e2e-'));
    const prefix = join(work, 'agent');
    const env = { ...process.env, RMM_AGENT_HOSTNAME: 'monitoring-live-01' };
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    const reg = await run([AGENT_JS, 'register', '--server', t.url, '--token', d.body.uuid, '--prefix', prefix], env, 20_000);
    expect(reg.code).toBe(0);
    agentId = reg.stdout.trim();
    sub = await Subscriber.connect(`${t.url.replace(/^http/, 'ws')}/rmm/${agentId}/?api_key=${ADMIN}`);
    expect((await sub.next('hello')).data).toMatchObject({ agent_id: agentId, hostname: 'monitoring-live-01', alerts: [] });
    child = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', prefix], { env, cwd: ROOT, stdio: 'ignore' });
    await sub.next('agent.online');
  });
  afterAll(async () => {
    sub?.ws.terminate();
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));
    }
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** The subscriber's messages of these events for one subject, in the order they came (taken out of the list). */
  const take = (pred: (m: EventMessage) => boolean): EventMessage[] => {
    const picked = sub.messages.filter(pred);
    for (const m of picked) sub.messages.splice(sub.messages.indexOf(m), 1);
    return picked;
  };

  it('a diskspace check with an impossible threshold fails and opens one alert (check.status, then alert.created); a possible one passes and resolves it', async () => {
    const created = await t.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, check_type: 'diskspace', settings: { drive: '/', threshold_percent: 99 }, run_interval: 5, severity: 'error' });
    expect(created.status).toBe(201);
    const checkId: number = created.body.id;
    const mine = (m: EventMessage): boolean => (m.event === 'check.status' && m.data.check_id === checkId) || (m.event.startsWith('alert.') && m.data.check === checkId);

    // The agent runs a new check at once: check.status failing, then one alert.created, over the WebSocket;
    // the next result (run_interval 5 s) is failing again and opens no second alert.
    await until(
      'two results of the check and its alert',
      async () => sub.messages.filter((m) => m.event === 'check.status' && m.data.check_id === checkId).length >= 2 && sub.messages.some((m) => m.event === 'alert.created'),
      20_000,
    );
    const events = take(mine);
    expect(events.map((m) => `${m.event} ${m.data.status ?? ''}`.trim()).slice(0, 3)).toEqual(['check.status failing', 'alert.created', 'check.status failing']);
    expect(events[0]).toMatchObject({ agent_id: agentId, data: { check_id: checkId, status: 'failing', previous_status: 'pending' } });
    expect(events[0].data.more_info).toMatch(/free/);
    expect(events[1].data).toMatchObject({ alert_type: 'check_failure', check: checkId, severity: 'error', agent: agentId });
    expect(events.filter((m) => m.event === 'alert.created')).toHaveLength(1);
    const alertsOpen = await t.http.get(`/api/v3/alerts/?agent=${agentId}&alert_type=check_failure`).set(admin).expect(200);
    expect(alertsOpen.body).toHaveLength(1); // still one after the second failing result
    expect(alertsOpen.body[0]).toMatchObject({ check: checkId, severity: 'error', resolved: false });
    const check = (await t.http.get(`/api/v3/checks/${checkId}/`).set(admin).expect(200)).body;
    expect(check).toMatchObject({ status: 'failing', run_interval: 5, severity: 'error', last_run: expect.any(String) });
    const history = (await t.http.get(`/api/v3/checks/${checkId}/history/`).set(admin).expect(200)).body as Array<{ id: number; status: string }>;
    expect(history.length).toBeGreaterThanOrEqual(2);
    expect(history.map((h) => h.id)).toEqual([...history.map((h) => h.id)].sort((a, b) => b - a)); // newest first

    // A threshold that holds: the agent runs the changed check at once, it passes, the alert resolves by itself.
    await t.http.patch(`/api/v3/checks/${checkId}/`).set(admin).send({ settings: { drive: '/', threshold_percent: 1 } }).expect(200);
    const resolved = await sub.next('alert.resolved', 20_000);
    expect(resolved.data).toMatchObject({ id: alertsOpen.body[0].id, check: checkId, resolved: true, resolved_by: 'system' });
    const passing = take(mine).filter((m) => m.event === 'check.status' && m.data.status === 'passing');
    expect(passing[0]?.data).toMatchObject({ check_id: checkId, previous_status: 'failing' });
    expect((await t.http.get(`/api/v3/alerts/?agent=${agentId}&alert_type=check_failure`).set(admin).expect(200)).body).toEqual([]);
    await t.http.delete(`/api/v3/checks/${checkId}/`).set(admin).expect(204);
  });

  it('a task every 2 seconds (6-field cron) runs on the agent: task.run events, recorded runs with their output, the task kept true', async () => {
    const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'heartbeat-file', shell: 'bash', body: 'echo tick' }).expect(201);
    const task = await t.http.post('/api/v3/tasks/').set(admin).send({ name: 'every two seconds', agent: agentId, script: script.body.id, schedule: '*/2 * * * * *' });
    expect(task.status).toBe(201);
    const taskId: number = task.body.id;
    const done = await until(
      'two finished task runs',
      async () => {
        const finished = sub.messages.filter((m) => m.event === 'task.run' && m.data.task_id === taskId && m.data.status !== 'running');
        return finished.length >= 2 ? finished : undefined;
      },
      20_000,
    );
    await t.http.patch(`/api/v3/tasks/${taskId}/`).set(admin).send({ enabled: false }).expect(200);
    expect(done[0].data).toEqual({ task_id: taskId, run_id: expect.any(Number), status: 'succeeded', retcode: 0 });
    const runs = (await t.http.get(`/api/v3/tasks/${taskId}/runs/`).set(admin).expect(200)).body as Array<Record<string, any>>;
    const byId = new Map(runs.map((r) => [r.id, r]));
    for (const e of done) expect(byId.get(e.data.run_id)).toMatchObject({ status: 'succeeded', retcode: 0, stdout: 'tick\n' });
    const dueTimes = runs.map((r) => Date.parse(r.due_at));
    expect(new Set(dueTimes).size).toBe(dueTimes.length); // never two runs for one due time
    for (const due of dueTimes) expect(due % 2000).toBe(0); // on the schedule's 2-second grid
    const shown = (await t.http.get(`/api/v3/tasks/${taskId}/`).set(admin).expect(200)).body;
    expect(shown).toMatchObject({ last_retcode: 0, last_run_at: expect.any(String) });
    // The task's script ran as a script run too: its output streamed to the subscriber.
    expect(sub.messages.some((m) => m.event === 'script.output' && m.data.chunk === 'tick\n')).toBe(true);
  });
});
