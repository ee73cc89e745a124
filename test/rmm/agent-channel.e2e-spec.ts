import WebSocket from 'ws';
import { FakeAgent } from '../utils/fake-agent';
import { FixedClock } from '../../apps/api/src/common/clock';
import { AgentGateway } from '../../apps/api/src/rmm/fleet/agent-channel/agent-gateway';
import { AgentPresenceService } from '../../apps/api/src/rmm/fleet/presence/agent-presence.service';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { ScriptRunsService } from '../../apps/api/src/rmm/automation/script-runs/script-runs.service';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

const ADMIN = 'agent-channel-admin-key-0123456789';
type Message = { type: string; id?: string } & Record<string, unknown>;

/** The agent channel, /agent/v1/ws, over real WebSockets. */
describe('agent channel', () => {
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  const admin = { 'X-API-KEY': ADMIN };
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' });
    tenant = await createTenant(t, 'Channel Ltd', 'HQ');
  });
  afterEach(() => {
    for (const a of open.splice(0)) a.ws.terminate();
  });
  afterAll(async () => {
    await t?.close();
  });

  const enroll = async (hostname: string, proof: Record<string, string> = {}): Promise<{ agentId: string; secret: string }> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname, plat: 'linux', version: '0.1.0', ...proof });
    expect(r.status).toBe(200);
    return { agentId: r.body.agent_id, secret: r.body.agent_secret };
  };
  const connect = async (agentId: string, secret: string): Promise<FakeAgent> => {
    const a = await FakeAgent.connectWith(t.url, { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` });
    open.push(a);
    return a;
  };
  const status = async (agentId: string): Promise<string> => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status;

  it('greets an authenticated agent with hello, shows it online, and offline once it goes, announcing both', async () => {
    const { agentId, secret } = await enroll('chan-ws-01');
    const seen: string[] = [];
    const bus = t.server.app.get(RmmEvents);
    const offs = [bus.on('agent.online', (e) => seen.push(`online ${e.agentId}`)), bus.on('agent.offline', (e) => seen.push(`offline ${e.agentId}`))];
    try {
      const agent = await connect(agentId, secret);
      expect(await agent.next('hello')).toEqual({ type: 'hello', agent_id: agentId, heartbeat_seconds: 30, server_time: expect.any(String) });
      expect(await status(agentId)).toBe('online');
      agent.ws.close();
      await agent.whenClosed();
      for (let i = 0; i < 50 && (await status(agentId)) !== 'offline'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await status(agentId)).toBe('offline');
      expect(seen).toEqual([`online ${agentId}`, `offline ${agentId}`]);
    } finally {
      offs.forEach((off) => off());
    }
  });

  it('refuses the upgrade with 401 for a wrong secret, an unknown agent or no credentials, before any WebSocket exists', async () => {
    const { agentId } = await enroll('chan-ws-02');
    for (const headers of <Array<Record<string, string>>>[
      { 'X-Agent-Id': agentId, Authorization: 'Bearer agt_wrong' },
      { 'X-Agent-Id': '999999', Authorization: 'Bearer agt_wrong' },
      {},
      { 'X-Agent-Id': 'abc', Authorization: 'Bearer x' },
    ]) {
      await expect(FakeAgent.connectWith(t.url, headers)).rejects.toMatchObject({ status: 401, body: '{"detail":"Invalid agent credentials"}' });
    }
  });

  it('carries runscript to the agent and its answer back to the REST caller', async () => {
    const { agentId, secret } = await enroll('chan-ws-03');
    const agent = await connect(agentId, secret);
    await agent.next('hello');
    const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'chan-hello', shell: 'bash', body: 'echo "hi $1"', args: ['you'] });
    const call = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: script.body.id, args: ['there'], timeout: 20 }).then((r) => r);
    const command = await agent.next('script.run');
    expect(command).toEqual({ type: 'script.run', id: expect.any(String), runId: expect.any(Number), shell: 'bash', body: 'echo "hi $1"', args: ['there'], timeoutSeconds: 20 });
    agent.send({ type: 'result', id: command.id, ok: true, result: { retcode: 0, stdout: 'hi there\n', stderr: '', executionTime: 0.042, timedOut: false } });
    const res = await call;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: command.runId, execution_time: '0.042', retcode: 0, stdout: 'hi there\n', stderr: '', timed_out: false });
  });

  it('ends a waiting runscript with 502 {detail: agent disconnected} when the agent goes mid-run', async () => {
    const { agentId, secret } = await enroll('chan-ws-04');
    const agent = await connect(agentId, secret);
    await agent.next('hello');
    const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'chan-sleep', shell: 'bash', body: 'sleep 60' });
    const call = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: script.body.id }).then((r) => r);
    await agent.next('script.run');
    agent.ws.terminate();
    const res = await call;
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ detail: 'agent disconnected' });
  });

  it('writes heartbeats behind, in one batch, as last_seen', async () => {
    const { agentId, secret } = await enroll('chan-ws-05');
    const agent = await connect(agentId, secret);
    await agent.next('hello');
    const [before] = await sql<{ last_seen: Date }>(t.db.url, `SELECT last_seen FROM agents WHERE id = $1`, [Number(agentId)]);
    await new Promise((r) => setTimeout(r, 20));
    agent.send({ type: 'heartbeat' });
    agent.send({ type: 'heartbeat' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await t.server.app.get(AgentPresenceService).flush()).toBeGreaterThanOrEqual(1); // both heartbeats: one row
    const [after] = await sql<{ last_seen: Date }>(t.db.url, `SELECT last_seen FROM agents WHERE id = $1`, [Number(agentId)]);
    expect(after.last_seen.getTime()).toBeGreaterThan(before.last_seen.getTime());
    agent.send({ type: 'nonsense' });
    expect(await agent.next('error')).toMatchObject({ message: expect.stringContaining('unknown message') });
  });

  it('disconnects an old agent process when its hostname re-enrolls, and refuses its old secret from then on', async () => {
    const first = await enroll('chan-ws-06');
    const old = await connect(first.agentId, first.secret);
    await old.next('hello');
    const again = await enroll('chan-ws-06', { agent_id: first.agentId, agent_secret: first.secret });
    expect(again.agentId).toBe(first.agentId);
    expect(await old.whenClosed()).toEqual({ code: 4001, reason: 'agent re-enrolled: this secret no longer works' });
    await expect(FakeAgent.connectWith(t.url, { 'X-Agent-Id': first.agentId, Authorization: `Bearer ${first.secret}` })).rejects.toMatchObject({ status: 401 });
    const fresh = await connect(again.agentId, again.secret);
    expect(await fresh.next('hello')).toMatchObject({ agent_id: first.agentId });
  });

  it('keeps one connection per agent: a newer one replaces the older (4000)', async () => {
    const { agentId, secret } = await enroll('chan-ws-07');
    const older = await connect(agentId, secret);
    await older.next('hello');
    const newer = await connect(agentId, secret);
    await newer.next('hello');
    expect(await older.whenClosed()).toEqual({ code: 4000, reason: 'replaced by a newer connection of this agent' });
    expect(await status(agentId)).toBe('online');
  });

  it('publishes script.output chunks as events before the REST call returns, only for runs of the sending agent, and script.started/finished', async () => {
    const mine = await enroll('chan-out-01');
    const other = await enroll('chan-out-02');
    const agent = await connect(mine.agentId, mine.secret);
    const intruder = await connect(other.agentId, other.secret);
    await agent.next('hello');
    await intruder.next('hello');
    const bus = t.server.app.get(RmmEvents);
    const seen: Array<Record<string, unknown>> = [];
    const offs = [
      bus.on('script.output', (e) => seen.push({ event: 'output', ...e })),
      bus.on('script.started', (e) => seen.push({ event: 'started', ...e })),
      bus.on('script.finished', (e) => seen.push({ event: 'finished', ...e })),
    ];
    try {
      const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'chan-stream', shell: 'bash', body: 'echo a; sleep 1; echo b' });
      let returned = false;
      const call = t.http
        .post(`/api/v3/agents/${mine.agentId}/runscript/`)
        .set(admin)
        .send({ script: script.body.id, timeout: 20 })
        .then((r) => ((returned = true), r));
      const command = await agent.next('script.run');
      const runId = command.runId as number;
      const id = Number(mine.agentId);
      intruder.send({ type: 'script.output', runId, stream: 'stdout', chunk: 'forged\n', seq: 0 }); // not its run
      agent.send({ type: 'script.output', runId: runId + 100000, stream: 'stdout', chunk: 'no such run\n', seq: 0 });
      agent.send({ type: 'script.output', runId, stream: 'stdout', chunk: 'a\n', seq: 0 });
      agent.send({ type: 'script.output', runId, stream: 'bogus', chunk: 'bad stream\n', seq: 1 });
      agent.send({ type: 'script.output', runId, stream: 'stderr', chunk: 'b\n', seq: 1 });
      for (let i = 0; i < 100 && seen.filter((e) => e.event === 'output').length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(returned).toBe(false);
      expect(seen).toEqual([
        { event: 'started', agentId: id, runId, script: script.body.id },
        { event: 'output', agentId: id, runId, stream: 'stdout', chunk: 'a\n', seq: 0 },
        { event: 'output', agentId: id, runId, stream: 'stderr', chunk: 'b\n', seq: 1 },
      ]);
      expect(intruder.messages.filter((m) => m.type === 'error')).toEqual([]);
      agent.send({ type: 'result', id: command.id, ok: true, result: { retcode: 3, stdout: 'a\n', stderr: 'b\n', executionTime: 1.5, timedOut: false } });
      const res = await call;
      expect(res.body).toMatchObject({ id: runId, retcode: 3, stdout: 'a\n', stderr: 'b\n' });
      expect(seen[3]).toEqual({ event: 'finished', agentId: id, runId, retcode: 3, executionTime: 1.5, timedOut: false });
      agent.send({ type: 'script.output', runId, stream: 'stdout', chunk: 'late\n', seq: 2 }); // answered: no longer in flight
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).toHaveLength(4);
      const [row] = await sql<{ stdout: string }>(t.db.url, `SELECT stdout FROM script_runs WHERE id = $1`, [runId]);
      expect(row.stdout).toBe('a\n'); // the result's output, never the chunks
    } finally {
      offs.forEach((off) => off());
    }
  });

  it('writes facts from heartbeats behind with the flush, announcing agent.updated once per flush, and ignores bad ones', async () => {
    const { agentId, secret } = await enroll('chan-facts-01');
    const agent = await connect(agentId, secret);
    await agent.next('hello');
    const presence = t.server.app.get(AgentPresenceService);
    await presence.flush();
    const bus = t.server.app.get(RmmEvents);
    const updated: number[] = [];
    const off = bus.on('agent.updated', (e) => e.agentId === Number(agentId) && updated.push(e.agentId));
    const detail = async (): Promise<Record<string, unknown>> => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body;
    const settle = () => new Promise((r) => setTimeout(r, 100));
    const before = (await detail()).updated_at as string;
    try {
      const disks = [{ device: '/', free: '10.0 GB', total: '20.0 GB', percent: 50 }];
      agent.send({ type: 'heartbeat', facts: { logged_in_username: 'alice', total_ram: 7.5, disks, local_ip: '10.0.0.9', operating_system: 'Linux 6.1', version: '0.2.0' } });
      agent.send({ type: 'heartbeat', facts: { logged_in_username: 'bob', arch: 'x64', hostname: 'renamed', monitoring_type: 'server', wmi_detail: { x: 1 }, secret_hash: 'x' } });
      await settle();
      await presence.flush();
      expect(await detail()).toMatchObject({ hostname: 'chan-facts-01', monitoring_type: 'workstation', logged_in_username: 'bob', total_ram: 7.5, disks, local_ip: '10.0.0.9', operating_system: 'Linux 6.1', version: '0.2.0' });
      expect(updated).toEqual([Number(agentId)]);
      // updated_at says when the agent's record last changed: facts count, heartbeats alone do not
      const changedAt = (await detail()).updated_at as string;
      expect(new Date(changedAt).getTime()).toBeGreaterThan(new Date(before).getTime());

      // the same facts again: nothing changed, no event
      agent.send({ type: 'heartbeat', facts: { logged_in_username: 'bob', total_ram: 7.5 } });
      await settle();
      await presence.flush();
      expect(updated).toHaveLength(1);
      expect((await detail()).updated_at).toBe(changedAt);

      // bad facts: dropped field by field, never an error, the connection stays; `facts` that is not an object
      // makes the heartbeat invalid (answered with an error, nothing written)
      for (const facts of <unknown[]>[
        'nonsense',
        [1, 2],
        null,
        { logged_in_username: 'x'.repeat(256), total_ram: -1, disks: [{ device: '/', free: 'a', total: 'b', percent: 101 }], plat: 'beos', local_ip: 'a\u0000b', version: '' },
        { total_ram: 'lots', disks: 'many', operating_system: 42 },
      ]) {
        agent.send({ type: 'heartbeat', facts } as Message);
      }
      await settle();
      await presence.flush();
      expect(updated).toHaveLength(1);
      expect(await detail()).toMatchObject({ logged_in_username: 'bob', total_ram: 7.5, disks, plat: 'linux', local_ip: '10.0.0.9', version: '0.2.0', status: 'online' });
      expect(agent.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual(Array(3).fill('invalid heartbeat: /facts must be object'));
      expect(agent.closed).toBeUndefined();
    } finally {
      off();
    }
  });

  describe('stored runs', () => {
    const answerNext = async (agent: FakeAgent, result: Record<string, unknown>): Promise<Message> => {
      const command = await agent.next('script.run');
      agent.send({ type: 'result', id: command.id, ok: true, result });
      return command;
    };
    const makeScript = async (name: string): Promise<number> =>
      (await t.http.post('/api/v3/scripts/').set(admin).send({ name, shell: 'bash', body: 'echo "$@"', args: ['default'] })).body.id;

    it('stores every run and reads them back newest first, paged, with who asked and what the agent said', async () => {
      const { agentId, secret } = await enroll('chan-runs-01');
      const agent = await connect(agentId, secret);
      await agent.next('hello');
      const scriptId = await makeScript('runs-echo');
      const first = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: scriptId }).then((r) => r);
      await answerNext(agent, { retcode: 0, stdout: 'default\n', stderr: '', executionTime: 0.01, timedOut: false });
      const firstRes = await first;
      const second = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: scriptId, args: ['x', 'y'], timeout: 30 }).then((r) => r);
      await answerNext(agent, { retcode: 2, stdout: 'x y\n', stderr: 'oops\n', executionTime: 0.5, timedOut: false });
      const secondRes = await second;
      expect(secondRes.body).toEqual({ id: expect.any(Number), execution_time: '0.500', retcode: 2, stdout: 'x y\n', stderr: 'oops\n', timed_out: false });

      const list = await t.http.get(`/api/v3/agents/${agentId}/runs/?limit=1`).set(admin);
      expect(list.status).toBe(200);
      expect(list.headers['x-total-count']).toBe('2');
      const keyId = (await sql<{ id: number }>(t.db.url, `SELECT id FROM api_keys WHERE name = 'admin (RMM_ADMIN_API_KEY)'`))[0].id;
      expect(list.body).toEqual([
        expect.objectContaining({
          id: secondRes.body.id,
          agent: agentId,
          script: scriptId,
          script_name: 'runs-echo',
          shell: 'bash',
          args: ['x', 'y'],
          output: 'wait',
          timeout: 30,
          requested_by_key: keyId,
          status: 'finished',
          retcode: 2,
          stdout: 'x y\n',
          stderr: 'oops\n',
          timed_out: false,
          execution_time: '0.500',
          started_at: expect.any(String),
          finished_at: expect.any(String),
        }),
      ]);
      const one = await t.http.get(`/api/v3/agents/${agentId}/runs/${firstRes.body.id}/`).set(admin);
      expect(one.body).toMatchObject({ id: firstRes.body.id, args: ['default'], timeout: 90, stdout: 'default\n', status: 'finished' });
      expect((await t.http.get(`/api/v3/agents/${agentId}/runs/999999/`).set(admin)).status).toBe(404);
      expect((await t.http.get('/api/v3/agents/999999/runs/').set(admin)).status).toBe(404);
    });

    it('answers forget with 202 {id, status} at once, and records the result when it comes', async () => {
      const { agentId, secret } = await enroll('chan-runs-02');
      const agent = await connect(agentId, secret);
      await agent.next('hello');
      const res = await t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: await makeScript('runs-forget'), output: 'forget' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ id: expect.any(Number), status: 'running' });
      expect((await t.http.get(`/api/v3/agents/${agentId}/runs/${res.body.id}/`).set(admin)).body.status).toBe('running');
      await answerNext(agent, { retcode: 0, stdout: 'done\n', stderr: '', executionTime: 1.25, timedOut: false });
      let run: { status: string; stdout: string } = { status: 'running', stdout: '' };
      for (let i = 0; i < 50 && run.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        run = (await t.http.get(`/api/v3/agents/${agentId}/runs/${res.body.id}/`).set(admin)).body;
      }
      expect(run).toMatchObject({ status: 'finished', stdout: 'done\n', output: 'forget' });
    });

    it('keeps a collector run as the agent\'s latest value for its script, and caps stored output at 64 KiB', async () => {
      const { agentId, secret } = await enroll('chan-runs-03');
      const agent = await connect(agentId, secret);
      await agent.next('hello');
      const scriptId = await makeScript('runs-collector');
      const call = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: scriptId, output: 'collector' }).then((r) => r);
      await answerNext(agent, { retcode: 0, stdout: 'v'.repeat(70_000), stderr: '', executionTime: 0.1, timedOut: false });
      expect((await call).status).toBe(200);
      const latest = await t.http.get(`/api/v3/agents/${agentId}/runs/?output=collector&script=${scriptId}&limit=1`).set(admin);
      expect(latest.body).toHaveLength(1);
      expect(latest.body[0]).toMatchObject({ output: 'collector', stdout_truncated: true });
      expect(latest.body[0].stdout).toHaveLength(64 * 1024);
    });

    it('records the agent\'s time-out, and marks a run interrupted when the agent goes mid-run', async () => {
      const { agentId, secret } = await enroll('chan-runs-04');
      const agent = await connect(agentId, secret);
      await agent.next('hello');
      const scriptId = await makeScript('runs-timeout');
      const call = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: scriptId, timeout: 1 }).then((r) => r);
      await answerNext(agent, { retcode: null, stdout: 'partial\n', stderr: '', executionTime: 1.0, timedOut: true });
      const timedOut = await call;
      expect(timedOut.body).toMatchObject({ retcode: null, timed_out: true, stdout: 'partial\n' });
      expect((await t.http.get(`/api/v3/agents/${agentId}/runs/${timedOut.body.id}/`).set(admin)).body.status).toBe('timed_out');

      const gone = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: scriptId }).then((r) => r);
      const command = await agent.next('script.run');
      agent.ws.terminate();
      expect((await gone).status).toBe(502);
      const [row] = await sql<{ status: string }>(t.db.url, `SELECT status FROM script_runs WHERE id = $1`, [command.runId]);
      expect(row.status).toBe('interrupted');
    });
  });

  it('marks runs left open by a server that died interrupted at the next start (once past their time-out)', async () => {
    const { agentId } = await enroll('chan-runs-05');
    const [stale] = await sql<{ id: number }>(
      t.db.url,
      `INSERT INTO script_runs (agent_id, script_name, shell, output, timeout_seconds, status, started_at) VALUES ($1, 'x', 'bash', 'wait', 10, 'running', now() - interval '10 minutes') RETURNING id`,
      [Number(agentId)],
    );
    const [young] = await sql<{ id: number }>(
      t.db.url,
      `INSERT INTO script_runs (agent_id, script_name, shell, output, timeout_seconds, status, started_at) VALUES ($1, 'x', 'bash', 'wait', 300, 'running', now()) RETURNING id`,
      [Number(agentId)],
    );
    void t.server.app.get(ScriptRunsService).sweepStale(); // what a start does (the job script-runs.stale, at start)
    let rows: Array<{ id: number; status: string }> = [];
    for (let i = 0; i < 50; i++) {
      rows = await sql(t.db.url, `SELECT id, status FROM script_runs WHERE id IN ($1, $2) ORDER BY id`, [stale.id, young.id]);
      if (rows[0].status !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(rows).toEqual([
      { id: stale.id, status: 'interrupted' },
      { id: young.id, status: 'running' }, // another instance may still be waiting for it
    ]);
  });

  it('answers an upgrade on any other path 404 rather than leaving it hanging', async () => {
    await expect(
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/nowhere`);
        ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error('refused'), { status: res.statusCode })));
        ws.once('open', resolve);
        ws.once('error', reject);
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('closes agent channels cleanly when the server stops (1001), having stopped accepting first: a retry is refused, not answered 503', async () => {
    const { agentId, secret } = await enroll('chan-ws-08');
    const agent = await connect(agentId, secret);
    await agent.next('hello');
    // The agent retries the moment it hears 1001: the listening socket is already closed, so the retry fails at
    // the TCP level (behind nginx: the next replica takes it), never a 503 from the server on its way out.
    const retried = new Promise<string>((resolve) =>
      agent.ws.once('close', () => {
        FakeAgent.connectWith(t.url, { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` }).then(
          () => resolve('accepted'),
          (err: { code?: string; status?: number }) => resolve(err.code ?? `HTTP ${err.status}`),
        );
      }),
    );
    await t.server.close();
    expect(await agent.whenClosed()).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await retried).toBe('ECONNREFUSED');
  });
});

/** The status rules: online while the channel is up; silence makes an agent offline, then overdue. */
describe('agent status by silence', () => {
  const clock = new FixedClock(new Date('2026-11-23T12:00:00Z'));
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(
      { RMM_ADMIN_API_KEY: ADMIN, RMM_AGENT_HEARTBEAT_SECONDS: '10', RMM_AGENT_OFFLINE_AFTER_SECONDS: '60', RMM_AGENT_OVERDUE_AFTER_SECONDS: '600' },
      { clock },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tells the agent its heartbeat, drops a silent one as offline, then marks it overdue, announcing each once', async () => {
    const admin = { 'X-API-KEY': ADMIN };
    const tenant = await createTenant(t, 'Silence Ltd', 'HQ');
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'quiet-ws-01', plat: 'linux', version: '0.1.0' });
    const agent = await FakeAgent.connectWith(t.url, { 'X-Agent-Id': r.body.agent_id, Authorization: `Bearer ${r.body.agent_secret}` });
    expect(await agent.next('hello')).toMatchObject({ heartbeat_seconds: 10 });
    const seen: string[] = [];
    const bus = t.server.app.get(RmmEvents);
    const offs = [bus.on('agent.offline', (e) => seen.push(`offline ${e.agentId}`)), bus.on('agent.overdue', (e) => seen.push(`overdue ${e.agentId}`))];
    const gateway = t.server.app.get(AgentGateway);
    const status = async (): Promise<string> => (await t.http.get(`/api/v3/agents/${r.body.agent_id}/`).set(admin)).body.status;
    try {
      clock.advance(59_000);
      expect(await gateway.sweepSilent()).toEqual({ offline: [], overdue: [] });
      expect(await status()).toBe('online');
      clock.advance(2_000);
      expect((await gateway.sweepSilent()).offline).toEqual([Number(r.body.agent_id)]);
      expect((await agent.whenClosed()).code).toBe(1006); // terminated: the connection was dead
      expect(await status()).toBe('offline');
      clock.advance(600_000);
      expect((await gateway.sweepSilent()).overdue).toEqual([Number(r.body.agent_id)]);
      expect(await gateway.sweepSilent()).toEqual({ offline: [], overdue: [] }); // each change once
      expect(await status()).toBe('overdue');
      for (let i = 0; i < 50 && seen.length < 2; i++) await new Promise((res) => setTimeout(res, 20));
      expect(seen).toEqual([`offline ${r.body.agent_id}`, `overdue ${r.body.agent_id}`]);
      const back = await FakeAgent.connectWith(t.url, { 'X-Agent-Id': r.body.agent_id, Authorization: `Bearer ${r.body.agent_secret}` });
      await back.next('hello');
      expect(await status()).toBe('online');
      back.ws.terminate();
    } finally {
      offs.forEach((off) => off());
    }
  });
});
