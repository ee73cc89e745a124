import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '../../apps/api/src/common/clock';
import { AGENT_JS, AgentProcess, run } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { sleep, until } from '../utils/wait';

const ADMIN = 'tasks-restart-admin-key-0123456789abcdef';
const HOUR = 60 * 60 * 1000;

type TaskRun = { id: number; due_at: string; started_at: string; status: string; retcode: number | null; stdout: string; script_run: number | null };

/**
 * A task that fell due while the server was down runs when the server is back, before its agent has
 * reconnected: the run waits for the agent (up to RMM_AGENT_OFFLINE_AFTER_SECONDS after the start) rather than
 * being recorded agent_offline, with a task_failure alert, on every restart. Each instance runs on a clock that
 * stays where it is put, an hour after the previous one: the task is due once when each starts, and only then.
 */
describe('a task due while the server was down', () => {
  let db: TestDatabase;
  let work: string;
  let port: number;
  let agentId: string;
  let agent: AgentProcess | undefined;
  let taskId: number;
  let live: TestApp | undefined;
  const t0 = Date.now();
  const admin = { 'X-API-KEY': ADMIN };

  /** The server (again) on the same address, its clock `hours` after t0, with this offline threshold. */
  const startServer = async (hours: number, heartbeatSeconds: number, offlineAfterSeconds: number): Promise<TestApp> => {
    live = await startTestApp(
      {
        LOG_LEVEL: 'warn',
        RMM_ADMIN_API_KEY: ADMIN,
        RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
        RMM_TASK_TICK_MS: '200',
        RMM_AGENT_HEARTBEAT_SECONDS: String(heartbeatSeconds),
        RMM_AGENT_OFFLINE_AFTER_SECONDS: String(offlineAfterSeconds),
      },
      { db, clock: new FixedClock(new Date(t0 + hours * HOUR)), port },
    );
    return live;
  };
  const stopServer = async (): Promise<void> => {
    await live?.close();
    live = undefined;
  };
  const startAgent = (): void => {
    agent ??= new AgentProcess(join(work, 'agent'), { ...process.env, RMM_AGENT_HOSTNAME: 'tasks-restart-01' });
    agent.start();
  };
  const stopAgent = async (): Promise<void> => agent?.stop();
  const agentOutput = (): string => agent?.output ?? '';
  const status = async (t: TestApp): Promise<string> => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status;
  const runsOf = async (t: TestApp): Promise<TaskRun[]> => {
    const res = await t.http.get(`/api/v3/tasks/${taskId}/runs/`).set(admin);
    expect(res.status).toBe(200);
    return res.body as TaskRun[];
  };
  const alertsOf = async (t: TestApp): Promise<Array<{ message: string; resolved: boolean }>> =>
    (await t.http.get(`/api/v3/alerts/?alert_type=task_failure&agent=${agentId}`).set(admin)).body.filter((a: { task: number | null }) => a.task === taskId);

  beforeAll(async () => {
    db = await createTestDatabase();
    work = mkdtempSync(join(tmpdir(), 'rmm-tasks-restart-'));
    // The first run of the server: its clock stays at t0, so the task created below does not fall due while it runs.
    const first = await startTestApp({ LOG_LEVEL: 'warn', RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' }, { db, clock: new FixedClock(new Date(t0)) });
    live = first;
    port = Number(new URL(first.url).port);
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = first.server.runtime;
    const d = await first.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    expect(d.status).toBe(201);
    const reg = await run([AGENT_JS, 'register', '--server', first.url, '--token', d.body.uuid, '--prefix', join(work, 'agent')], { ...process.env, RMM_AGENT_HOSTNAME: 'tasks-restart-01' }, 20_000);
    expect(reg).toMatchObject({ code: 0 });
    agentId = reg.stdout.trim();
    startAgent();
    await until(`agent online\n${agentOutput()}`, async () => (await status(first)) === 'online');
    const script = await first.http.post('/api/v3/scripts/').set(admin).send({ name: 'tasks-restart-hello', shell: 'bash', body: 'echo "back on $(hostname)"', default_timeout: 20 });
    expect(script.status).toBe(201);
    const task = await first.http.post('/api/v3/tasks/').set(admin).send({ name: 'Hourly inventory', agent: agentId, script: script.body.id, schedule: '*/2 * * * * *' });
    expect(task.status).toBe(201);
    taskId = task.body.id;
    // The server and its agent stop (the agent comes back on its own time, below).
    await stopAgent();
    await stopServer();
  });
  afterEach(async () => {
    await stopAgent();
    await stopServer();
  });
  afterAll(async () => {
    await stopAgent();
    await stopServer();
    await db?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('waits for its agent, which reconnects seconds after the start, then runs on it: succeeded, no agent_offline run, no task_failure alert', async () => {
    const t = await startServer(1, 10, 30);
    // The task is due at once (it fell due in the hour the server was away); its agent is not back yet.
    const waiting = await until('the missed due time to be claimed', async () => (await runsOf(t)).find((r) => new Date(r.started_at).getTime() === t0 + HOUR));
    await sleep(2_000);
    // Still waiting for the agent: not recorded agent_offline, nothing sent yet.
    expect((await runsOf(t)).find((r) => r.id === waiting.id)).toMatchObject({ status: 'running', script_run: null });
    expect(new Date(waiting.due_at).getTime()).toBeLessThan(t0 + HOUR);

    startAgent(); // the agent reconnects, a few seconds after the start
    const done = await until(`the run to finish\n${agentOutput()}`, async () => (await runsOf(t)).find((r) => r.id === waiting.id && r.status !== 'running'), 30_000);
    expect(done).toMatchObject({ status: 'succeeded', retcode: 0, stdout: expect.stringMatching(/^back on /), script_run: expect.any(Number) });
    expect((await runsOf(t)).map((r) => r.status)).toEqual(['succeeded']); // the only run: the task was due once
    expect(await alertsOf(t)).toEqual([]);
  });

  it('an agent that does not come back within RMM_AGENT_OFFLINE_AFTER_SECONDS of the start: agent_offline, with its alert, as before', async () => {
    const t = await startServer(2, 1, 3);
    const run = await until('the run to be recorded', async () => (await runsOf(t)).find((r) => new Date(r.started_at).getTime() === t0 + 2 * HOUR && r.status !== 'running'), 20_000);
    expect(run).toMatchObject({ status: 'agent_offline', retcode: null, script_run: null });
    expect(new Date(run.due_at).getTime()).toBeLessThan(t0 + 2 * HOUR);
    // (the task_failure alert is raised just after the run's end is written)
    const alerts = await until('the task_failure alert', async () => {
      const all = await alertsOf(t);
      return all.length > 0 ? all : undefined;
    });
    expect(alerts.map((a) => [a.message, a.resolved])).toEqual([[expect.stringMatching(/^Task "Hourly inventory" could not run: the agent was not connected at /), false]]);
  });

  it('a server stopped while a run waits for its agent records the run interrupted, and stops', async () => {
    const t = await startServer(3, 20, 90);
    const waiting = await until('the missed due time to be claimed', async () => (await runsOf(t)).find((r) => new Date(r.started_at).getTime() === t0 + 3 * HOUR));
    await sleep(1_000);
    expect((await runsOf(t)).find((r) => r.id === waiting.id)).toMatchObject({ status: 'running', script_run: null });
    await stopServer();

    const check = await startTestApp({ LOG_LEVEL: 'warn', RMM_ADMIN_API_KEY: ADMIN }, { db, clock: new FixedClock(new Date(t0 + 3 * HOUR)) });
    try {
      expect((await runsOf(check)).find((r) => r.id === waiting.id)).toMatchObject({ status: 'interrupted', script_run: null });
    } finally {
      await check.close();
    }
  });
});
