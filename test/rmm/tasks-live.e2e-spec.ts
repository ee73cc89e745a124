import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedClock } from '../../apps/api/src/common/clock';
import { RmmEventMap, RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { TaskScheduler } from '../../apps/api/src/rmm/automation/tasks/task-scheduler';
import { ROOT, run } from '../utils/processes';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { until } from '../utils/wait';

/** The reference agent, bundled by the test global setup. */
const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');
const ADMIN = 'tasks-live-admin-key-0123456789abcdef';
const HOSTNAME = 'tasks-live-01';
const EVERY_2S = '*/2 * * * * *';

type TaskRun = {
  id: number;
  task: number;
  agent: string;
  due_at: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  retcode: number | null;
  stdout: string;
  stderr: string;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  script_run: number | null;
};

/**
 * Tasks that fire on their schedule: a real agent process, one and then two server instances on one database,
 * and a restart. Each due time has exactly one run; a failing run opens one task_failure alert, the next
 * successful one resolves it.
 */
describe('tasks that fire (a real agent, several instances on one database)', () => {
  let db: TestDatabase;
  let a: TestApp;
  let work: string;
  let agentProcess: ChildProcess | undefined;
  let agentOutput = '';
  let agentId: string;
  const instances: TestApp[] = [];
  const admin = { 'X-API-KEY': ADMIN };

  /**
   * One more instance of the whole app on the shared database. For 10 s after it starts (its offline threshold),
   * a run for an agent that is not connected waits for the agent (tasks-restart.e2e-spec.ts); then agent_offline.
   */
  async function startInstance(clock?: FixedClock): Promise<TestApp> {
    const app = await startTestApp(
      {
        LOG_LEVEL: 'warn',
        RMM_ADMIN_API_KEY: ADMIN,
        RMM_RATE_LIMIT_PER_MINUTE: '100000',
        RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
        RMM_TASK_TICK_MS: '200',
        RMM_AGENT_HEARTBEAT_SECONDS: '3',
        RMM_AGENT_OFFLINE_AFTER_SECONDS: '10',
      },
      { db, clock },
    );
    instances.push(app);
    return app;
  }

  const runsOf = async (t: TestApp, taskId: number): Promise<TaskRun[]> => {
    const res = await t.http.get(`/api/v3/tasks/${taskId}/runs/`).set(admin);
    expect(res.status).toBe(200);
    return res.body as TaskRun[];
  };
  const script = async (name: string, body: string): Promise<number> => {
    const res = await a.http.post('/api/v3/scripts/').set(admin).send({ name, shell: 'bash', body, default_timeout: 20 });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const createTask = async (t: TestApp, body: Record<string, unknown>): Promise<Record<string, any>> => {
    const res = await t.http.post('/api/v3/tasks/').set(admin).send({ schedule: EVERY_2S, ...body });
    expect(res.status).toBe(201);
    return res.body;
  };
  /** Disables the task and waits until none of its runs is still running. */
  const stop = async (t: TestApp, taskId: number): Promise<TaskRun[]> => {
    expect((await t.http.patch(`/api/v3/tasks/${taskId}/`).set(admin).send({ enabled: false })).status).toBe(200);
    return until('its runs to finish', async () => {
      const runs = await runsOf(t, taskId);
      return runs.every((r) => r.status !== 'running') ? runs : undefined;
    });
  };
  const onEvents = <K extends keyof RmmEventMap>(t: TestApp, name: K, seen: Array<RmmEventMap[K]>): (() => void) => t.server.app.get(RmmEvents).on(name, (e) => seen.push(e));
  const onGrid = (iso: string): boolean => new Date(iso).getUTCMilliseconds() === 0 && new Date(iso).getUTCSeconds() % 2 === 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    a = await startInstance();
    work = mkdtempSync(join(tmpdir(), 'rmm-tasks-live-'));
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = a.server.runtime;
    const d = await a.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    expect(d.status).toBe(201);
    const env = { ...process.env, RMM_AGENT_HOSTNAME: HOSTNAME };
    const prefix = join(work, 'agent');
    const reg = await run([AGENT_JS, 'register', '--server', a.url, '--token', d.body.uuid, '--prefix', prefix], env, 20_000);
    expect(reg).toMatchObject({ code: 0 });
    agentId = reg.stdout.trim();
    agentProcess = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', prefix], { env, cwd: ROOT });
    agentProcess.stdout!.on('data', (c) => (agentOutput += c));
    agentProcess.stderr!.on('data', (c) => (agentOutput += c));
    await until(`agent online\n${agentOutput}`, async () => (await a.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'online');
  });
  afterAll(async () => {
    if (agentProcess && agentProcess.exitCode === null && agentProcess.signalCode === null) {
      const exited = new Promise((r) => agentProcess!.once('exit', r));
      agentProcess.kill('SIGKILL');
      await exited;
    }
    for (const t of instances) await t.close();
    await db?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('runs a six-field task every 2 s on the agent: each run recorded with its output, and the task shows its last and next run', async () => {
    const hello = await script('tasks-live-hello', 'echo "hello from $(hostname)"; echo note >&2');
    const started: Array<RmmEventMap['task.run']> = [];
    const off = onEvents(a, 'task.run', started);
    const task = await createTask(a, { name: 'Every two seconds', agent: agentId, script: hello });
    let runs: TaskRun[];
    try {
      await until(`two succeeded runs\n${agentOutput}`, async () => (await runsOf(a, task.id)).filter((r) => r.status === 'succeeded').length >= 2, 20_000);
      runs = await stop(a, task.id);
    } finally {
      off();
    }
    expect(runs.length).toBeGreaterThanOrEqual(2);
    // newest first, one per due time, each on the two-second grid of the schedule
    expect(runs.map((r) => r.id)).toEqual([...runs.map((r) => r.id)].sort((x, y) => y - x));
    expect(new Set(runs.map((r) => r.due_at)).size).toBe(runs.length);
    expect(runs.every((r) => onGrid(r.due_at))).toBe(true);
    const newest = runs[0];
    expect(newest).toEqual({
      id: expect.any(Number),
      task: task.id,
      agent: agentId,
      due_at: expect.any(String),
      started_at: expect.any(String),
      finished_at: expect.any(String),
      status: 'succeeded',
      retcode: 0,
      stdout: `hello from ${hostname()}\n`,
      stderr: 'note\n',
      stdout_truncated: false,
      stderr_truncated: false,
      script_run: expect.any(Number),
      error: null,
    });
    expect(new Date(newest.started_at).getTime()).toBeGreaterThanOrEqual(new Date(newest.due_at).getTime());
    // the script run that carried it is in the agent's runs (and streamed like runscript's)
    const carried = await a.http.get(`/api/v3/agents/${agentId}/runs/${newest.script_run}/`).set(admin);
    expect(carried.body).toMatchObject({ script: hello, status: 'finished', retcode: 0, stdout: newest.stdout, output: 'wait', requested_by_key: null });
    expect((await a.http.get(`/api/v3/tasks/${task.id}/runs/${newest.id}/`).set(admin)).body).toEqual(newest);
    // paging like the other lists
    const page = await a.http.get(`/api/v3/tasks/${task.id}/runs/?limit=1&offset=1`).set(admin);
    expect(page.headers['x-total-count']).toBe(String(runs.length));
    expect(page.body).toEqual([runs[1]]);

    const after = (await a.http.get(`/api/v3/tasks/${task.id}/`).set(admin)).body;
    expect(after).toMatchObject({ enabled: false, next_run_at: null, last_run_at: newest.started_at, last_retcode: 0 });
    // task.run: each run announced when it starts and when it ends
    const mine = started.filter((e) => e.taskId === task.id);
    for (const r of runs) {
      expect(mine.filter((e) => e.runId === r.id).map((e) => [e.status, e.retcode])).toEqual([
        ['running', null],
        ['succeeded', 0],
      ]);
    }
  });

  it('keeps next_run_at on the schedule while enabled', async () => {
    const hello = await script('tasks-live-next', 'exit 0');
    const task = await createTask(a, { name: 'Next run', agent: agentId, script: hello });
    expect(onGrid(task.next_run_at)).toBe(true);
    await until('a finished run', async () => (await runsOf(a, task.id)).some((r) => r.status === 'succeeded'), 20_000);
    const now = (await a.http.get(`/api/v3/tasks/${task.id}/`).set(admin)).body;
    const runs = await runsOf(a, task.id);
    expect(onGrid(now.next_run_at)).toBe(true);
    expect(new Date(now.next_run_at).getTime()).toBeGreaterThan(new Date(runs[runs.length - 1].due_at).getTime());
    expect(new Date(now.last_run_at).getTime()).toBeGreaterThanOrEqual(new Date(runs[runs.length - 1].started_at).getTime());
    await stop(a, task.id);
  });

  it('a failing script opens one task_failure alert, however many runs fail; the next successful run resolves it', async () => {
    const failing = await script('tasks-live-fail', 'echo "disk full" >&2; exit 1');
    const passing = await script('tasks-live-pass', 'echo ok');
    const created: Array<RmmEventMap['alert.created']> = [];
    const resolved: Array<RmmEventMap['alert.resolved']> = [];
    const offs = [onEvents(a, 'alert.created', created), onEvents(a, 'alert.resolved', resolved)];
    try {
      const task = await createTask(a, { name: 'Nightly cleanup', agent: agentId, script: failing });
      await until('two failed runs', async () => (await runsOf(a, task.id)).filter((r) => r.status === 'failed').length >= 2, 20_000);
      const failed = (await runsOf(a, task.id)).find((r) => r.status === 'failed')!;
      expect(failed).toMatchObject({ retcode: 1, stderr: 'disk full\n', finished_at: expect.any(String) });
      expect((await a.http.get(`/api/v3/tasks/${task.id}/`).set(admin)).body.last_retcode).toBe(1);

      const open = (await a.http.get(`/api/v3/alerts/?alert_type=task_failure&agent=${agentId}`).set(admin)).body.filter((x: { task: number | null }) => x.task === task.id);
      expect(open).toEqual([
        expect.objectContaining({ alert_type: 'task_failure', agent: agentId, task: task.id, severity: 'warning', resolved: false, message: 'Task "Nightly cleanup" failed: it exited with 1' }),
      ]);
      expect(created.filter((e) => e.alert.task === task.id).map((e) => e.alert.id)).toEqual([open[0].id]);

      expect((await a.http.patch(`/api/v3/tasks/${task.id}/`).set(admin).send({ script: passing })).status).toBe(200);
      await until('a succeeded run', async () => (await runsOf(a, task.id)).some((r) => r.status === 'succeeded'), 20_000);
      // (the alert is resolved just after the run's end is written)
      const gone = await until('the task_failure alert resolved', async () => {
        const alert = (await a.http.get(`/api/v3/alerts/${open[0].id}/`).set(admin)).body;
        return alert.resolved ? alert : undefined;
      });
      expect(gone).toMatchObject({ id: open[0].id, resolved: true, resolved_by: 'system', resolved_at: expect.any(String) });
      expect(resolved.filter((e) => e.alert.id === open[0].id)).toHaveLength(1);
      expect((await a.http.get(`/api/v3/tasks/${task.id}/`).set(admin)).body.last_retcode).toBe(0);
      await stop(a, task.id);
    } finally {
      offs.forEach((off) => off());
    }
  });

  it('records agent_offline at once for an agent that is not connected (past the start window), and opens its alert', async () => {
    const tenant = await createTenant(a, 'Offline Ltd');
    const away = await insertAgent(a, { hostname: 'OFFLINE-WS-01', ...tenant, status: 'offline' });
    const task = await createTask(a, { name: 'Weekly report', agent: String(away), script: await script('tasks-live-away', 'echo never') });
    const runs = await until('an agent_offline run', async () => {
      const r = await runsOf(a, task.id);
      return r.length > 0 && r[r.length - 1].status !== 'running' ? r : undefined;
    }, 20_000); // (run alone, this test may start within the 10 s start window)
    expect(runs[runs.length - 1]).toMatchObject({ status: 'agent_offline', retcode: null, stdout: '', script_run: null, finished_at: expect.any(String) });
    // (the alert is opened right after the run is recorded)
    const alerts = await until('its task_failure alert', async () => {
      const body = (await a.http.get(`/api/v3/alerts/?alert_type=task_failure&agent=${away}`).set(admin)).body as Array<{ message: string }>;
      return body.length > 0 ? body : undefined;
    });
    expect(alerts).toHaveLength(1);
    expect(alerts[0].message).toMatch(/^Task "Weekly report" could not run: the agent was not connected at \d{4}-\d\d-\d\dT/);
    await stop(a, task.id);
  });

  it('with two instances on one database, each due time runs once: the instances share the due times between them', async () => {
    const b = await startInstance();
    const claims = new Map<TestApp, number[]>([
      [a, []],
      [b, []],
    ]);
    const offs = [a, b].map((t) => t.server.app.get(RmmEvents).on('task.run', (e) => e.status === 'running' && claims.get(t)!.push(e.runId)));
    let runs: TaskRun[];
    try {
      const task = await createTask(b, { name: 'Both instances', agent: agentId, script: await script('tasks-live-both', 'echo both') });
      // The agent is connected to instance a: the runs b claims find it not connected there (command routing
      // across instances is the Redis issue's), which tells the two apart. (b's first run waits for the agent
      // through b's 10 s start window.)
      await until('runs claimed by both instances', async () => {
        const r = await runsOf(b, task.id);
        return r.some((x) => x.status === 'succeeded') && r.some((x) => x.status === 'agent_offline') && r.length >= 4;
      }, 45_000);
      runs = await stop(b, task.id);
    } finally {
      offs.forEach((off) => off());
      await b.close(); // the tests after this one have the agent's instance to themselves
    }
    const dues = runs.map((r) => new Date(r.due_at).getTime()).sort((x, y) => x - y);
    expect(new Set(dues).size).toBe(dues.length);
    expect(runs.every((r) => onGrid(r.due_at))).toBe(true);
    for (let i = 1; i < dues.length; i++) expect((dues[i] - dues[i - 1]) % 2000).toBe(0);
    // every run claimed by exactly one instance
    const [byA, byB] = [claims.get(a)!, claims.get(b)!];
    expect(byA.filter((id) => byB.includes(id))).toEqual([]);
    expect([...byA, ...byB].sort((x, y) => x - y)).toEqual(runs.map((r) => r.id).sort((x, y) => x - y));
    expect(byA.length).toBeGreaterThan(0);
    expect(byB.length).toBeGreaterThan(0);
    const status = new Map(runs.map((r) => [r.id, r.status]));
    expect(byA.map((id) => status.get(id))).toEqual(byA.map(() => 'succeeded'));
    expect(byB.map((id) => status.get(id))).toEqual(byB.map(() => 'agent_offline'));
  });

  it('records a script killed at its time-out as timed_out, and alerts', async () => {
    const slow = await a.http.post('/api/v3/scripts/').set(admin).send({ name: 'tasks-live-slow', shell: 'bash', body: 'echo start; sleep 30', default_timeout: 1 });
    expect(slow.status).toBe(201);
    const task = await createTask(a, { name: 'Too slow', agent: agentId, script: slow.body.id });
    await until('a timed-out run', async () => (await runsOf(a, task.id)).some((r) => r.status === 'timed_out'), 20_000);
    const runs = await stop(a, task.id);
    expect(runs.find((r) => r.status === 'timed_out')).toMatchObject({ retcode: null, finished_at: expect.any(String), script_run: expect.any(Number) });
    const open = (await a.http.get(`/api/v3/alerts/?alert_type=task_failure&agent=${agentId}`).set(admin)).body.filter((x: { task: number | null }) => x.task === task.id);
    expect(open.map((x: { message: string }) => x.message)).toEqual(['Task "Too slow" failed: it timed out after 1 s']);
  });

  it('runs one run of a task at a time: a due time that comes while a run is still running waits for it', async () => {
    const slow = await script('tasks-live-slower', 'sleep 2.5; echo done'); // longer than the 2 s between due times
    const task = await createTask(a, { name: 'Slower than its schedule', agent: agentId, script: slow });
    await until('two finished runs', async () => (await runsOf(a, task.id)).filter((r) => r.status === 'succeeded').length >= 2, 20_000);
    const runs = [...(await stop(a, task.id))].reverse(); // oldest first
    for (let i = 1; i < runs.length; i++) {
      expect(new Date(runs[i].started_at).getTime()).toBeGreaterThanOrEqual(new Date(runs[i - 1].finished_at!).getTime());
      expect(new Date(runs[i].due_at).getTime()).toBeGreaterThan(new Date(runs[i - 1].due_at).getTime());
    }
  });

  it('records a run whose agent is killed mid-run as interrupted, and alerts', async () => {
    const pidFile = join(work, 'killed-script.pid');
    const sleeper = await a.http.post('/api/v3/scripts/').set(admin).send({ name: 'tasks-live-killed', shell: 'bash', body: `echo $$ > ${pidFile}; sleep 30`, default_timeout: 60 });
    expect(sleeper.status).toBe(201);
    const task = await createTask(a, { name: 'Killed mid-run', agent: agentId, script: sleeper.body.id });
    try {
      await until('the script to start', async () => {
        try {
          return readFileSync(pidFile, 'utf8').trim() !== '';
        } catch {
          return false;
        }
      }, 20_000);
      const exited = new Promise((r) => agentProcess!.once('exit', r));
      agentProcess!.kill('SIGKILL');
      await exited;
      const interrupted = await until('an interrupted run', async () => (await runsOf(a, task.id)).find((r) => r.status === 'interrupted'));
      expect(interrupted).toMatchObject({ retcode: null, finished_at: expect.any(String), script_run: expect.any(Number) });
      // (the alert is raised right after the run is recorded: wait for it rather than read once)
      const open = await until('its task_failure alert', async () => {
        const list = (await a.http.get(`/api/v3/alerts/?alert_type=task_failure&agent=${agentId}`).set(admin)).body.filter((x: { task: number | null }) => x.task === task.id);
        return list.length > 0 ? list : undefined;
      });
      expect(open.map((x: { message: string }) => x.message)).toEqual(['Task "Killed mid-run" failed: the agent went away mid-run']);
      await stop(a, task.id);
    } finally {
      try {
        process.kill(-Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL'); // the script the killed agent left behind
      } catch {
        /* gone already */
      }
    }
  });

  it('after a restart: one run for the missed due time (no burst), back on schedule, and runs left running by a dead server interrupted', async () => {
    const task = await createTask(a, { name: 'Across restarts', agent: agentId, script: await script('tasks-live-restart', 'echo up') });
    await until('a first run', async () => (await runsOf(a, task.id)).some((r) => r.status !== 'running'), 20_000);
    for (const t of [...instances]) await t.close();
    const before = await sql<{ id: number }>(db.url, `SELECT id FROM task_runs WHERE task_id = $1`, [task.id]);
    const [{ next_run_at: missed }] = await sql<{ next_run_at: Date }>(db.url, `SELECT next_run_at FROM tasks WHERE id = $1`, [task.id]);
    // a run some server died carrying, ten minutes ago
    const [{ id: orphan }] = await sql<{ id: number }>(
      db.url,
      `INSERT INTO task_runs (task_id, agent_id, due_at, started_at, status) VALUES ($1, $2, '2020-01-01T00:00:00Z', now() - interval '10 minutes', 'running') RETURNING id`,
      [task.id, Number(agentId)],
    );

    // The server comes back an hour later (a clock that stays there: nothing else falls due).
    const later = new FixedClock(new Date(Date.now() + 60 * 60 * 1000));
    const c = await startInstance(later);
    const scheduler = c.server.app.get(TaskScheduler);
    const isFresh = (r: TaskRun): boolean => !before.some((x) => x.id === r.id) && r.id !== orphan;
    // The orphan holds the task (one run at a time) until the start-up sweep closes it; then the missed due time runs.
    await until('the missed due time to run', async () => {
      await scheduler.tick();
      await scheduler.idle();
      return (await runsOf(c, task.id)).some(isFresh);
    });
    for (let i = 0; i < 5; i++) await scheduler.tick();
    await scheduler.idle();

    const runs = await runsOf(c, task.id);
    const fresh = runs.filter(isFresh);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ due_at: missed.toISOString(), started_at: later.now().toISOString(), status: 'agent_offline' }); // (the agent was killed above)
    expect(runs.find((r) => r.id === orphan)).toMatchObject({ status: 'interrupted', finished_at: expect.any(String) });
    const now = (await c.http.get(`/api/v3/tasks/${task.id}/`).set(admin)).body;
    const next = new Date(now.next_run_at).getTime();
    expect(next).toBeGreaterThan(later.now().getTime());
    expect(next).toBeLessThanOrEqual(later.now().getTime() + 2000);
    expect(onGrid(now.next_run_at)).toBe(true);
    // no row for any due time in between
    const [{ count }] = await sql<{ count: string }>(db.url, `SELECT count(*) FROM task_runs WHERE task_id = $1 AND due_at > $2`, [task.id, missed]);
    expect(count).toBe('0');
    const open = (await c.http.get(`/api/v3/alerts/?alert_type=task_failure&agent=${agentId}`).set(admin)).body.filter((x: { task: number | null }) => x.task === task.id);
    expect(open).toHaveLength(1);
  });
});
