import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventMessage, Subscriber } from '../utils/events-subscriber';
import { AgentWireMessage, FakeAgent } from '../utils/fake-agent';
import { AGENT_JS, AgentProcess, cleanEnv, run } from '../utils/processes';
import { Answer, apiClient, enrollAgent, ServerProcess, startServerProcess } from '../utils/server-process';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { sleep, until } from '../utils/wait';

const ADMIN = 'run-queue-admin-key-0123456789abcdef';
const HOSTNAME = 'run-queue-01';
const DAY = 86_400;

type Run = {
  id: number;
  agent: string;
  script: number | null;
  status: string;
  retcode: number | null;
  stdout: string;
  output: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string | null;
  error: string | null;
};

const SERVER_ENV = {
  RMM_ADMIN_API_KEY: ADMIN,
  RMM_RATE_LIMIT_PER_MINUTE: '100000',
  RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
  RMM_TASK_TICK_MS: '200',
  // (a task run waits for its agent only this long after the server starts: tasks-restart.e2e-spec.ts)
  RMM_AGENT_HEARTBEAT_SECONDS: '2',
  RMM_AGENT_OFFLINE_AFTER_SECONDS: '6',
};

/**
 * The offline command queue (issue 23): runs asked for an agent that is not connected wait for it as rows, and
 * reach the real agent process when it connects, in the order queued, one at a time; they can be cancelled while
 * queued, expire unsent, survive a server restart, and are sent once even with two server instances.
 */
describe('the offline command queue (a real agent, the real server as a process)', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;
  let port: number;
  let work: string;
  let agentId: string;
  let agent: AgentProcess | undefined;
  let sub: Subscriber | undefined;
  let api: (method: string, path: string, body?: unknown) => Promise<Answer>;
  const scripts: Record<string, number> = {};

  const startServer = async (): Promise<void> => {
    server = await startServerProcess({ ...SERVER_ENV, DATABASE_URL: db.url }, { port });
    port = server.port;
    api = apiClient(server.url, ADMIN);
  };
  const stopServer = async (): Promise<void> => {
    sub?.ws.terminate();
    sub = undefined;
    await server?.stop();
    server = undefined;
  };
  const startAgent = (): void => {
    agent ??= new AgentProcess(join(work, 'agent'), { ...cleanEnv(), RMM_AGENT_HOSTNAME: HOSTNAME });
    agent.start();
  };
  const stopAgent = async (): Promise<void> => agent?.stop();
  const agentOutput = (): string => agent?.output ?? '';
  const status = async (): Promise<string> => (await api('GET', `/api/v3/agents/${agentId}/`)).body.status;
  const agentOffline = async (): Promise<void> => {
    await stopAgent();
    await until('the agent offline', async () => (await status()) === 'offline');
  };
  const agentOnline = async (): Promise<void> => {
    startAgent();
    await until(`the agent online\n${agentOutput()}`, async () => (await status()) === 'online', 20_000);
  };
  const subscribe = async (): Promise<Subscriber> => {
    sub?.ws.terminate();
    sub = await Subscriber.connect(`${server!.url.replace(/^http/, 'ws')}/rmm/${agentId}/?api_key=${ADMIN}`);
    await sub.next('hello');
    return sub;
  };
  const queue = async (script: number, extra: Record<string, unknown> = {}): Promise<number> => {
    const res = await api('POST', `/api/v3/agents/${agentId}/runscript/`, { script, queue: true, ...extra });
    expect([res.status, res.body]).toEqual([202, { id: expect.any(Number), status: 'queued' }]);
    return res.body.id as number;
  };
  const getRun = async (id: number): Promise<Run> => {
    const res = await api('GET', `/api/v3/agents/${agentId}/runs/${id}/`);
    expect(res.status).toBe(200);
    return res.body as Run;
  };
  const queued = async (): Promise<Run[]> => {
    const res = await api('GET', `/api/v3/agents/${agentId}/runs/?status=queued`);
    expect(res.status).toBe(200);
    return res.body as Run[];
  };
  const ended = (id: number, timeoutMs = 30_000): Promise<Run> =>
    until(`run ${id} to end\n${agentOutput().slice(-2000)}`, async () => {
      const r = await getRun(id);
      return r.status !== 'queued' && r.status !== 'running' ? r : undefined;
    }, timeoutMs);
  const eventsOf = (s: Subscriber, runId: number): string[] =>
    s.messages.filter((m: EventMessage) => m.event.startsWith('script.') && m.data?.run_id === runId).map((m) => m.event);

  beforeAll(async () => {
    db = await createTestDatabase();
    work = mkdtempSync(join(tmpdir(), 'rmm-run-queue-'));
    port = 0;
    server = await startServerProcess({ ...SERVER_ENV, DATABASE_URL: db.url });
    port = server.port;
    api = apiClient(server.url, ADMIN);
    const clients = (await api('GET', '/api/v3/clients/')).body as Array<{ id: number; sites: Array<{ id: number }> }>;
    const d = await api('POST', '/api/v3/agents/deployments/', { client: clients[0].id, site: clients[0].sites[0].id });
    expect(d.status).toBe(201);
    const reg = await run([AGENT_JS, 'register', '--server', server.url, '--token', d.body.uuid, '--prefix', join(work, 'agent')], { ...cleanEnv(), RMM_AGENT_HOSTNAME: HOSTNAME }, 20_000);
    expect(reg).toMatchObject({ code: 0 });
    agentId = reg.stdout.trim();
    for (const [name, body] of [
      // (the first takes a while: the second must not start before it has finished)
      ['first', 'echo "first $1"; sleep 1.5; echo "first done"'],
      ['second', 'echo "second as queued"'],
      ['plain', 'echo "plain $(date +%s%N)"'],
    ]) {
      const res = await api('POST', '/api/v3/scripts/', { name: `run-queue-${name}`, shell: 'bash', body, default_timeout: 20 });
      expect(res.status).toBe(201);
      scripts[name] = res.body.id;
    }
  });
  afterAll(async () => {
    await stopAgent();
    await stopServer();
    await db?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('refuses hostile or contradictory input with 400 (or 404 for ids that name nothing), never 500; 409 without queue', async () => {
    const post = (body: unknown): Promise<Answer> => api('POST', `/api/v3/agents/${agentId}/runscript/`, body);
    const fieldOf = (a: Answer): unknown => [a.status, a.body.detail, [...new Set(a.body.errors?.map((e: { field: string }) => e.field))]];
    const s = scripts.plain;
    expect(fieldOf(await post({ script: s, queue: 'yes' }))).toEqual([400, 'validation error', ['queue']]);
    expect(fieldOf(await post({ script: s, queue: 1 }))).toEqual([400, 'validation error', ['queue']]);
    expect(fieldOf(await post({ script: s, queue: null }))).toEqual([400, 'validation error', ['queue']]);
    for (const expires of [0, -5, 10_000_000, 604_801, 1.5, '60', 1e308]) {
      expect([expires, ...(fieldOf(await post({ script: s, queue: true, expires_in: expires })) as unknown[])]).toEqual([expires, 400, 'validation error', ['expires_in']]);
    }
    expect(fieldOf(await post({ script: s, expires_in: 60 }))).toEqual([400, 'validation error', ['expires_in']]);
    expect(fieldOf(await post({ script: s, queue: false, expires_in: 60 }))).toEqual([400, 'validation error', ['expires_in']]);
    expect(fieldOf(await post({ script: s, queue: true, output: 'wait' }))).toEqual([400, 'validation error', ['output']]);
    // Not queued: the agent is not connected, 409 as before.
    expect(await post({ script: s })).toEqual({ status: 409, body: { detail: 'agent is not connected' } });
    expect(await post({ script: s, queue: false, output: 'forget' })).toEqual({ status: 409, body: { detail: 'agent is not connected' } });
    // The status filter takes the run statuses only.
    for (const q of ['status=bogus', 'status=', 'status=QUEUED', 'status=queued&status=running']) {
      const res = await api('GET', `/api/v3/agents/${agentId}/runs/?${q}`);
      expect([q, res.status, res.body.detail]).toEqual([q, 400, 'validation error']);
    }
    // Cancelling what does not exist.
    for (const id of ['99999999', '9'.repeat(40), '-1', 'abc', '0x10', '1e3']) {
      const res = await api('DELETE', `/api/v3/agents/${agentId}/runs/${id}/`);
      expect([id, res.status, res.body]).toEqual([id, 404, { detail: 'Not found' }]);
    }
    expect((await api('DELETE', '/api/v3/agents/99999999/runs/1/')).status).toBe(404);
    expect((await api('GET', '/api/v3/agents/99999999/runs/?status=queued')).status).toBe(404);
    expect((await post({ script: 99_999, queue: true })).status).toBe(400);
    expect(await queued()).toEqual([]);
  });

  it('queues two runs while the agent is offline (202 queued, script.queued, listed); the agent, started, runs them in order, one at a time, with the usual events', async () => {
    const s = await subscribe();
    const before = Date.now();
    const first = await queue(scripts.first, { args: ['one'] });
    const second = await queue(scripts.second, { expires_in: 3_600 });
    const q1 = await s.next('script.queued');
    const q2 = await s.next('script.queued');
    expect(q1).toMatchObject({ agent_id: agentId, data: { run_id: first, script: scripts.first, expires_at: expect.any(String) } });
    expect(q2).toMatchObject({ agent_id: agentId, data: { run_id: second, script: scripts.second, expires_at: expect.any(String) } });
    expect(Object.keys(q1.data).sort()).toEqual(['expires_at', 'run_id', 'script']);
    const expiresFirst = new Date(q1.data.expires_at).getTime();
    expect(expiresFirst).toBeGreaterThanOrEqual(before + DAY * 1000 - 1000);
    expect(expiresFirst).toBeLessThanOrEqual(Date.now() + DAY * 1000 + 1000);
    expect(new Date(q2.data.expires_at).getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);

    const list = await queued();
    expect(list.map((r) => [r.id, r.status, r.started_at, r.output])).toEqual([
      [second, 'queued', null, 'forget'],
      [first, 'queued', null, 'forget'],
    ]);
    expect(list[1].expires_at).toBe(q1.data.expires_at);
    // What was asked is what runs: the script edited after queueing does not change the queued run.
    expect((await api('PATCH', `/api/v3/scripts/${scripts.second}/`, { body: 'echo "second as edited"' })).status).toBe(200);

    await agentOnline();
    const r1 = await ended(first);
    const r2 = await ended(second);
    expect(r1).toMatchObject({ status: 'finished', retcode: 0, stdout: 'first one\nfirst done\n', error: null });
    expect(r2).toMatchObject({ status: 'finished', retcode: 0, stdout: 'second as queued\n', error: null });
    // One at a time, in the order queued: the second was sent after the first had finished.
    expect(new Date(r2.started_at!).getTime()).toBeGreaterThanOrEqual(new Date(r1.finished_at!).getTime());
    expect(await queued()).toEqual([]);
    for (const id of [first, second]) {
      await until(`script.finished of run ${id}`, async () => eventsOf(s, id).includes('script.finished'));
      const events = eventsOf(s, id);
      // (script.queued was taken above)
      expect([id, events[0], events[events.length - 1]]).toEqual([id, 'script.started', 'script.finished']);
    }
  });

  it('the events of queued runs come in order: queued, then started, output and finished of the first before the second starts', async () => {
    await agentOffline();
    const s = await subscribe();
    const a = await queue(scripts.first, { args: ['a'] });
    const b = await queue(scripts.plain);
    await agentOnline();
    await ended(a);
    await ended(b);
    await until('script.finished of both', async () => s.messages.filter((m) => m.event === 'script.finished').length >= 2);
    const seen = s.messages.filter((m) => m.event.startsWith('script.') && [a, b].includes(m.data.run_id)).map((m) => `${m.event} ${m.data.run_id === a ? 'a' : 'b'}`);
    const firstOutput = seen.indexOf('script.output a');
    expect(firstOutput).toBeGreaterThan(0);
    expect(seen.filter((e) => e !== 'script.output a' && e !== 'script.output b')).toEqual([
      'script.queued a',
      'script.queued b',
      'script.started a',
      'script.finished a',
      'script.started b',
      'script.finished b',
    ]);
    expect(seen.lastIndexOf('script.output a')).toBeLessThan(seen.indexOf('script.finished a'));
    expect(seen.indexOf('script.output b')).toBeGreaterThan(seen.indexOf('script.started b'));
  });

  it('cancels a queued run (200, cancelled, never sent); 409 once a run has started or ended', async () => {
    await agentOffline();
    const s = await subscribe();
    const cancelled = await queue(scripts.plain);
    const kept = await queue(scripts.plain);
    // Cancelling needs scripts:run; a key limited to another client does not see the agent (404), nothing changes.
    const other = await api('POST', '/api/v3/clients/', { name: 'run-queue-other' });
    expect(other.status).toBe(201);
    const keyOf = async (scopes: string[], clients?: number[]): Promise<string> => {
      const res = await api('POST', '/api/v3/keys/', { name: `run-queue-${scopes.join('-')}-${clients ?? 'all'}`, scopes, ...(clients ? { clients } : {}) });
      expect(res.status).toBe(201);
      return res.body.key as string;
    };
    const reader = apiClient(server!.url, await keyOf(['agents:read']));
    const stranger = apiClient(server!.url, await keyOf(['agents:read', 'scripts:run'], [other.body.id]));
    expect(await reader('DELETE', `/api/v3/agents/${agentId}/runs/${cancelled}/`)).toEqual({ status: 403, body: { detail: 'permission denied' } });
    expect(await stranger('DELETE', `/api/v3/agents/${agentId}/runs/${cancelled}/`)).toEqual({ status: 404, body: { detail: 'Not found' } });
    expect(await stranger('POST', `/api/v3/agents/${agentId}/runscript/`, { script: scripts.plain, queue: true })).toEqual({ status: 404, body: { detail: 'Not found' } });
    expect((await reader('GET', `/api/v3/agents/${agentId}/runs/?status=queued`)).body.map((r: Run) => r.id)).toEqual([kept, cancelled]);
    const res = await api('DELETE', `/api/v3/agents/${agentId}/runs/${cancelled}/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: cancelled, status: 'cancelled', started_at: null, finished_at: expect.any(String), retcode: null, stdout: '' });
    expect(await getRun(cancelled)).toEqual(res.body);
    expect(await api('DELETE', `/api/v3/agents/${agentId}/runs/${cancelled}/`)).toEqual({ status: 409, body: { detail: `run ${cancelled} is cancelled: only a queued run can be cancelled` } });
    expect((await queued()).map((r) => r.id)).toEqual([kept]);

    await agentOnline();
    expect(await ended(kept)).toMatchObject({ status: 'finished', retcode: 0 });
    expect(await api('DELETE', `/api/v3/agents/${agentId}/runs/${kept}/`)).toEqual({ status: 409, body: { detail: `run ${kept} is finished: only a queued run can be cancelled` } });
    // A run that is running cannot be cancelled either.
    const running = await api('POST', `/api/v3/agents/${agentId}/runscript/`, { script: scripts.first, queue: true, args: ['running'] });
    expect([running.status, running.body.status]).toEqual([202, 'running']); // connected: sent at once, as forget
    expect(await api('DELETE', `/api/v3/agents/${agentId}/runs/${running.body.id}/`)).toEqual({
      status: 409,
      body: { detail: `run ${running.body.id} is running: only a queued run can be cancelled` },
    });
    expect(await ended(running.body.id)).toMatchObject({ status: 'finished', stdout: 'first running\nfirst done\n', expires_at: null });
    // The cancelled run was never sent.
    expect(await getRun(cancelled)).toMatchObject({ status: 'cancelled', started_at: null });
    expect(eventsOf(s, cancelled)).toEqual(['script.queued']);
  });

  it('a queued run past its expires_in becomes expired and is never sent, even when its agent connects later', async () => {
    await agentOffline();
    const s = await subscribe();
    const expiring = await queue(scripts.plain, { expires_in: 1 });
    const expired = await until('the run to expire (the sweep, every few seconds)', async () => {
      const r = await getRun(expiring);
      return r.status === 'expired' ? r : undefined;
    }, 20_000);
    expect(expired).toMatchObject({ status: 'expired', started_at: null, retcode: null, error: 'the agent did not connect before the run expired' });
    expect(new Date(expired.finished_at!).getTime()).toBeGreaterThanOrEqual(new Date(expired.expires_at!).getTime());
    expect(await api('DELETE', `/api/v3/agents/${agentId}/runs/${expiring}/`)).toEqual({ status: 409, body: { detail: `run ${expiring} is expired: only a queued run can be cancelled` } });
    // The agent comes back and a later run reaches it: the expired one was not sent before it, nor after.
    const later = await queue(scripts.plain);
    await agentOnline();
    expect(await ended(later)).toMatchObject({ status: 'finished' });
    expect(await getRun(expiring)).toMatchObject({ status: 'expired', started_at: null });
    expect(eventsOf(s, expiring)).toEqual(['script.queued']);
  });

  it('queued runs survive a server restart: the restarted server sends them when the agent reconnects', async () => {
    await agentOffline();
    const waiting = await queue(scripts.first, { args: ['restart'] });
    await stopServer();
    await startServer();
    expect((await queued()).map((r) => r.id)).toEqual([waiting]);
    await agentOnline();
    expect(await ended(waiting)).toMatchObject({ status: 'finished', retcode: 0, stdout: 'first restart\nfirst done\n' });
    expect(server!.exitCode()).toBeNull();
  });

  it('a task with queue_if_offline whose agent is offline at its due time queues one run, and the task run ends with its outcome', async () => {
    await agentOffline();
    const s = await subscribe();
    const created = await api('POST', '/api/v3/tasks/', { name: 'Queued inventory', agent: agentId, script: scripts.plain, schedule: '*/2 * * * * *', queue_if_offline: true });
    expect([created.status, created.body.queue_if_offline]).toEqual([201, true]);
    const taskId = created.body.id as number;
    expect((await api('GET', `/api/v3/tasks/${taskId}/`)).body.queue_if_offline).toBe(true);
    expect(fieldsOf(await api('PATCH', `/api/v3/tasks/${taskId}/`, { queue_if_offline: 'yes' }))).toEqual([400, ['queue_if_offline']]);
    const taskRuns = async (): Promise<Array<{ id: number; status: string; script_run: number | null; retcode: number | null; stdout: string }>> =>
      (await api('GET', `/api/v3/tasks/${taskId}/runs/`)).body;
    const waiting = await until('a task run queued', async () => (await taskRuns()).find((r) => r.status === 'queued'), 20_000);
    expect(waiting.script_run).toEqual(expect.any(Number));
    // Later due times pass while it waits: still one run of the task queued, no agent_offline run.
    await sleep(4_500);
    expect((await taskRuns()).map((r) => r.status)).toEqual(['queued']);
    expect((await queued()).map((r) => r.id)).toEqual([waiting.script_run]);
    expect((await s.next('script.queued')).data.run_id).toBe(waiting.script_run);
    expect((await s.next('task.run')).data).toMatchObject({ run_id: waiting.id, status: 'running' });
    expect((await s.next('task.run')).data).toMatchObject({ run_id: waiting.id, status: 'queued' });

    await agentOnline();
    const done = await until('the queued task run to end', async () => (await taskRuns()).find((r) => r.id === waiting.id && r.status !== 'queued'), 30_000);
    expect(done).toMatchObject({ status: 'succeeded', retcode: 0, stdout: expect.stringMatching(/^plain \d+\n$/), script_run: waiting.script_run });
    expect(await getRun(waiting.script_run!)).toMatchObject({ status: 'finished', stdout: done.stdout });
    expect((await api('PATCH', `/api/v3/tasks/${taskId}/`, { enabled: false, queue_if_offline: false })).body).toMatchObject({ enabled: false, queue_if_offline: false });
  });
});

const fieldsOf = (a: Answer): unknown => [a.status, a.body.errors?.map((e: { field: string }) => e.field)];

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  describe('the offline command queue on two instances', () => {
    console.log('skipped: the two-instance run queue test needs REDIS_URL (e.g. redis://127.0.0.1:6379)');
    it.skip('never sends one queued run twice (needs REDIS_URL)', () => undefined);
  });
} else {
  describe('the offline command queue on two instances (two server processes, one database, one Redis)', () => {
    const PREFIX = `test-run-queue-${process.pid}-${Date.now()}:`;
    let db: TestDatabase;
    let a: ServerProcess;
    let b: ServerProcess;
    const agents: FakeAgent[] = [];

    const start = (): Promise<ServerProcess> => startServerProcess({ ...SERVER_ENV, DATABASE_URL: db.url, REDIS_URL: redisUrl, REDIS_PREFIX: PREFIX });

    beforeAll(async () => {
      db = await createTestDatabase();
      a = await start();
      b = await start();
    });
    afterAll(async () => {
      for (const x of agents) x.ws.terminate();
      for (const s of [a, b]) if (s) await s.stop();
      await db?.drop();
    });

    it('sends each queued run once, in order, while the agent moves between the instances mid-queue', async () => {
      const apiA = apiClient(a.url, ADMIN);
      const apiB = apiClient(b.url, ADMIN);
      const { agentId, secret } = await enrollAgent(a.url, apiA, 'run-queue-two-01');
      const script = await apiA('POST', '/api/v3/scripts/', { name: 'run-queue-two', shell: 'bash', body: 'echo two', default_timeout: 20 });
      expect(script.status).toBe(201);
      const ids: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await (i % 2 === 0 ? apiA : apiB)('POST', `/api/v3/agents/${agentId}/runscript/`, { script: script.body.id, queue: true });
        expect([res.status, res.body.status]).toEqual([202, 'queued']);
        ids.push(res.body.id);
      }
      /** Every script.run the agent got, on any of its connections, in the order it got them. */
      const received: number[] = [];
      const answer = (agent: FakeAgent, m: AgentWireMessage): void => {
        received.push(m.runId as number);
        agent.send({ type: 'result', id: m.id, ok: true, result: { retcode: 0, stdout: `run ${m.runId}\n`, stderr: '', executionTime: 0.01, timedOut: false } });
      };
      const connect = async (s: ServerProcess): Promise<FakeAgent> => {
        const agent = await FakeAgent.connect(s.url, agentId, secret);
        agents.push(agent);
        await agent.next('hello');
        return agent;
      };
      // On A: it answers three runs and is sent the fourth, then moves to B before answering it (A's connection is
      // replaced): the fourth ends interrupted and is not sent again; B sends the rest, once the fourth has ended.
      const onA = await connect(a);
      for (let i = 0; i < 3; i++) answer(onA, await onA.next('script.run', 15_000));
      const fourth = await onA.next('script.run', 15_000);
      received.push(fourth.runId as number);
      const onB = await connect(b);
      expect((await onA.whenClosed()).code).toBe(4000);
      for (let i = 4; i < 8; i++) answer(onB, await onB.next('script.run', 15_000));
      const runs = await until('every run ended', async () => {
        const res = await apiB('GET', `/api/v3/agents/${agentId}/runs/`);
        return (res.body as Run[]).every((r) => r.status !== 'queued' && r.status !== 'running') ? (res.body as Run[]) : undefined;
      }, 20_000);
      // Several sweeps of both instances later, nothing more was sent.
      await sleep(7_000);
      expect(onB.messages.filter((m) => m.type === 'script.run')).toEqual([]);
      expect(received).toEqual(ids);
      expect(runs.map((r) => [r.id, r.status, r.stdout]).reverse()).toEqual(ids.map((id, i) => [id, i === 3 ? 'interrupted' : 'finished', i === 3 ? '' : `run ${id}\n`]));
      // one at a time: each run was sent after the one before it had ended
      const byId = new Map(runs.map((r) => [r.id, r]));
      for (let i = 1; i < ids.length; i++) {
        expect(new Date(byId.get(ids[i])!.started_at!).getTime()).toBeGreaterThanOrEqual(new Date(byId.get(ids[i - 1])!.finished_at!).getTime());
      }
      expect(a.exitCode()).toBeNull();
      expect(b.exitCode()).toBeNull();
    });
  });
}
