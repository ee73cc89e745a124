import { AgentPresenceService } from '../../apps/api/src/rmm/fleet/presence/agent-presence.service';
import { FakeAgent } from '../utils/fake-agent';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { sleep, until } from '../utils/wait';

const ADMIN = 'agent-trust-admin-key-0123456789abcdef';

/**
 * Issue "Trust the live core", the agent channel's findings, each as an enrolled agent would try it: one hostile
 * message, bad answers, floods, another tenant's check ids, a heartbeat PostgreSQL cannot store. What the server
 * must do: answer, close that one connection, or ignore, and lose nothing of anyone else's.
 */
describe('trust the agent channel (issue 18)', () => {
  let t: TestApp;
  const admin = { 'X-API-KEY': ADMIN };
  let tenantA: { clientId: number; siteId: number };
  let tenantB: { clientId: number; siteId: number };
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    // Finding 5 sends 150 results of one check in a few seconds, each of which must count: not spaced as a check's
    // own results are (max(run_interval / 2, 5 s): test/hardening/agent-floods.e2e-spec.ts holds that).
    t = await startTestApp(
      { RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' },
      { overrides: { checkResultSpacing: false } },
    );
    tenantA = await createTenant(t, 'Trust A Ltd', 'HQ');
    tenantB = await createTenant(t, 'Trust B Ltd', 'HQ');
  });
  afterEach(() => {
    for (const a of open.splice(0)) a.ws.terminate();
  });
  afterAll(async () => {
    await t?.close();
  });

  let hosts = 0;
  const connect = async (tenant = tenantA): Promise<{ agentId: string; agent: FakeAgent }> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: `trust-${++hosts}`, plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    const agent = await FakeAgent.connect(t.url, r.body.agent_id, r.body.agent_secret);
    open.push(agent);
    await agent.next('hello');
    return { agentId: r.body.agent_id, agent };
  };
  const script = async (name: string, shell = 'bash'): Promise<number> => (await t.http.post('/api/v3/scripts/').set(admin).send({ name, shell, body: 'echo hi' })).body.id;
  const run = async (agentId: string, runId: number): Promise<Record<string, any>> => (await t.http.get(`/api/v3/agents/${agentId}/runs/${runId}/`).set(admin)).body;
  const healthy = async (): Promise<void> => expect((await t.http.get('/healthz')).status).toBe(200);

  describe('finding 1: one message must not end the server', () => {
    it('answers the message that crashed it with an error, keeps the connection, and changes nothing', async () => {
      const { agentId, agent } = await connect();
      agent.sendRaw('{"type":"result","id":"anything","ok":false,"error":{"toString":1}}');
      agent.sendRaw('{"type":"result","id":{"toString":1},"ok":false,"error":{"toString":1}}');
      agent.sendRaw('{"type":{"toString":1}}');
      agent.sendRaw(Buffer.from([1, 2, 3]));
      agent.sendRaw('not json');
      // the first is a well-formed answer to no request of this agent: ignored; the others are not messages of the protocol
      const errors = await until('four errors', async () => {
        const e = agent.messages.filter((m) => m.type === 'error');
        return e.length >= 4 ? e : undefined;
      });
      await sleep(100);
      expect(agent.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([
        'invalid result: /id must be string',
        'unknown message type: send one of heartbeat, script.output, result, check.result, update.failed, session.opened, session.ack, session.close (docs/agent-protocol.md)',
        'binary frame too short: a session frame is a 21-byte header and 1–32768 bytes',
        'not JSON: every message is one JSON object',
      ]);
      expect(errors).toHaveLength(4);
      expect(agent.closed).toBeUndefined();
      await healthy();
      expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status).toBe('online');
    });

    it('closes one connection with 1011 when handling its message fails (a bug), logs it, and serves everyone else', async () => {
      const { agent: victim } = await connect();
      const { agentId: otherId, agent: other } = await connect();
      const presence = t.server.app.get(AgentPresenceService);
      const heartbeat = presence.heartbeat.bind(presence);
      // a bug in a handler, injected: the heartbeat of this one agent throws
      const bug = jest.spyOn(presence, 'heartbeat').mockImplementation((id, at, facts) => {
        if (id !== Number(otherId)) throw new TypeError('injected handler bug');
        heartbeat(id, at, facts);
      });
      try {
        victim.send({ type: 'heartbeat' });
        expect(await victim.whenClosed()).toEqual({ code: 1011, reason: 'server error' });
        other.send({ type: 'heartbeat' });
        await sleep(100);
        expect(other.closed).toBeUndefined();
        await healthy();
        expect(t.logs.some((l) => l.includes('could not be handled (connection closed 1011)') && l.includes('injected handler bug'))).toBe(true);
      } finally {
        bug.mockRestore();
      }
    });

    it(`closes with 1008 an agent that sends more than 20 invalid messages in a minute (each answered until then)`, async () => {
      const { agent } = await connect();
      for (let i = 0; i < 21; i++) agent.send({ type: 'x' });
      expect(await agent.whenClosed()).toEqual({ code: 1008, reason: 'too many invalid messages: more than 20 in a minute' });
      expect(agent.messages.filter((m) => m.type === 'error')).toHaveLength(20);
      await healthy();
    });
  });

  describe('findings 7 and 9: answers to script.run', () => {
    const ask = async (agentId: string, agent: FakeAgent, answer: (id: string) => unknown): Promise<{ status: number; body: any; runId: number }> => {
      const call = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: await script(`answer-${Math.random()}`), timeout: 30 }).then((r) => r);
      const command = await agent.next('script.run');
      agent.sendRaw(JSON.stringify(answer(command.id!)));
      const res = await call;
      return { status: res.status, body: res.body, runId: command.runId };
    };
    const ok = { retcode: 0, stdout: 'hi\n', stderr: '', executionTime: 0.1, timedOut: false };

    it('answers 502 "agent sent an invalid answer" to a malformed result, closing the run as failed with why; never 500 or 400', async () => {
      const { agentId, agent } = await connect();
      const cases: Array<[(id: string) => unknown, string]> = [
        [(id) => ({ type: 'result', id, ok: true }), '/result is required'],
        [(id) => ({ type: 'result', id, ok: true, result: { ...ok, stdout: { toString: 1 } } }), '/result/stdout must be string'],
        [(id) => ({ type: 'result', id, ok: true, result: { ...ok, retcode: 2 ** 40 } }), '/result/retcode must be <= 4294967295'],
        [(id) => ({ type: 'result', id, ok: false, error: { toString: 1 } }), '/error must be string'],
        [(id) => ({ type: 'result', id, ok: 1 }), '/ok must be true or false'],
      ];
      for (const [answer, why] of cases) {
        const res = await ask(agentId, agent, answer);
        expect({ why, status: res.status, body: res.body }).toEqual({ why, status: 502, body: { detail: 'agent sent an invalid answer' } });
        expect(await run(agentId, res.runId)).toMatchObject({ status: 'failed', error: `agent sent an invalid answer: ${why}`, stdout: '', retcode: null });
        expect(await agent.next('error')).toEqual({ type: 'error', message: expect.stringContaining(why) });
      }
      expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status).toBe('online');
    });

    it('stores and answers what a valid result carries: NUL and lone surrogates as U+FFFD, a Windows exit code as its signed value', async () => {
      const { agentId, agent } = await connect();
      const nul = await ask(agentId, agent, (id) => ({ type: 'result', id, ok: true, result: { ...ok, stdout: 'a\u0000b', stderr: 'x\ud800' } }));
      expect(nul).toMatchObject({ status: 200, body: { stdout: 'a\ufffdb', stderr: 'x\ufffd', retcode: 0 } });
      expect(await run(agentId, nul.runId)).toMatchObject({ status: 'finished', stdout: 'a\ufffdb', stderr: 'x\ufffd', error: null });
      const ntstatus = await ask(agentId, agent, (id) => ({ type: 'result', id, ok: true, result: { ...ok, retcode: 0xc0000005 } }));
      expect(ntstatus).toMatchObject({ status: 200, body: { retcode: -1073741819 } });
      expect(await run(agentId, ntstatus.runId)).toMatchObject({ status: 'finished', retcode: -1073741819 });
    });

    it('answers a refusal 422 "agent refused: <reason>", the run failed with that reason, and the agent stays online', async () => {
      const { agentId, agent } = await connect();
      const res = await ask(agentId, agent, (id) => ({ type: 'result', id, ok: false, error: 'interpreter not found: cmd' }));
      expect(res).toMatchObject({ status: 422, body: { detail: 'agent refused: interpreter not found: cmd' } });
      expect(await run(agentId, res.runId)).toMatchObject({ status: 'failed', error: 'agent refused: interpreter not found: cmd' });
      expect(agent.closed).toBeUndefined();
      expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status).toBe('online');
      expect(agent.messages.filter((m) => m.type === 'error')).toEqual([]);
    });

    it('records a refused task run as failed with the reason, in the run and its task_failure alert (not "agent went away")', async () => {
      const { agentId, agent } = await connect();
      const task = await t.http
        .post('/api/v3/tasks/')
        .set(admin)
        .send({ name: 'refused task', agent: agentId, script: await script('refused-task', 'cmd'), schedule: '* * * * * *' });
      expect(task.status).toBe(201);
      const command = await agent.next('script.run', 15_000);
      agent.send({ type: 'result', id: command.id, ok: false, error: 'interpreter not found: cmd' });
      await t.http.patch(`/api/v3/tasks/${task.body.id}/`).set(admin).send({ enabled: false }); // one run is enough
      const taskRun = await until('the task run', async () => {
        const rows = await sql<{ status: string; error: string | null }>(t.db.url, `SELECT status, error FROM task_runs WHERE script_run_id = $1`, [command.runId]);
        return rows[0]?.status !== 'running' ? rows[0] : undefined;
      });
      expect(taskRun).toEqual({ status: 'failed', error: 'agent refused: interpreter not found: cmd' });
      // (the task_failure alert is raised just after the run's end is written)
      const alert = await until('the task_failure alert', async () => (await t.http.get('/api/v3/alerts/').query({ agent: agentId }).set(admin)).body[0]);
      expect(alert).toMatchObject({ alert_type: 'task_failure', message: 'Task "refused task" failed: agent refused: interpreter not found: cmd' });
    });
  });

  describe('finding 4: bounded memory per connection', () => {
    it('drops (1008) an agent that does not read once more than 1 MiB waits for it, freeing it at once; waiting runs end 502', async () => {
      const { agentId, agent } = await connect();
      agent.stopReading();
      const big = (await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'big-body', shell: 'bash', body: `# ${'x'.repeat(200_000)}` })).body.id;
      const calls = Array.from({ length: 40 }, () => t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: big, timeout: 30 }).then((r) => r.status));
      const statuses = await Promise.all(calls);
      // the first few were queued (under 1 MiB), then the connection went: every wait ended 502 or 409 (gone), none hung
      expect(statuses.every((s) => s === 502 || s === 409)).toBe(true);
      expect(statuses.filter((s) => s === 502).length).toBeGreaterThan(0);
      await until('offline', async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'offline');
      expect(t.logs.some((l) => l.includes(`agent ${agentId}: connection dropped, not reading`))).toBe(true);
    });

    it('closes (1008) an agent over RMM_AGENT_MAX_MESSAGES_PER_SECOND (burst five times that)', async () => {
      const slow = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_AGENT_MAX_MESSAGES_PER_SECOND: '10' }, { db: t.db });
      try {
        const d = await slow.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenantA.clientId, site: tenantA.siteId });
        const r = await slow.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'trust-rate', plat: 'linux', version: '0.1.0' });
        const agent = await FakeAgent.connect(slow.url, r.body.agent_id, r.body.agent_secret);
        open.push(agent);
        await agent.next('hello');
        for (let i = 0; i < 50; i++) agent.send({ type: 'heartbeat' }); // the burst: fine
        await sleep(300);
        expect(agent.closed).toBeUndefined();
        for (let i = 0; i < 20; i++) agent.send({ type: 'heartbeat' });
        expect(await agent.whenClosed()).toEqual({ code: 1008, reason: 'too many messages: over RMM_AGENT_MAX_MESSAGES_PER_SECOND' });
      } finally {
        await slow.close();
      }
    });
  });

  describe('finding 5: ownership before capacity', () => {
    it("an agent of client B flooding client A's check ids neither stores anything nor costs A's agent a single result", async () => {
      const a = await connect(tenantA);
      const b = await connect(tenantB);
      const check = await t.http.post('/api/v3/checks/').set(admin).send({ agent: a.agentId, check_type: 'memory', settings: { threshold_percent: 90 } });
      expect(check.status).toBe(201);
      await a.agent.given(check.body.id);
      const n = 150;
      const count = async (): Promise<number> => (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int n FROM check_results WHERE check_id = $1`, [check.body.id]))[0].n;
      for (let i = 0; i < n; i++) {
        // B's flood, interleaved: 5 forged results (A's check) before each of A's own (750 in all: within B's burst,
        // so B stays connected and every one of them reaches the server)
        for (let k = 0; k < 5; k++) b.agent.send({ type: 'check.result', checkId: check.body.id, status: 'failing', moreInfo: `forged ${i}.${k}` });
        a.agent.send({ type: 'check.result', checkId: check.body.id, status: i % 2 ? 'failing' : 'passing', moreInfo: `real ${i}` });
        // A at an agent's pace: a few results, then on when they are stored (B's flood does not wait)
        if (i % 25 === 24) await until(`A's results up to ${i}`, async () => (await count()) >= i + 1, 30_000);
      }
      const stored = await sql<{ more_info: string }>(t.db.url, `SELECT more_info FROM check_results WHERE check_id = $1 ORDER BY id`, [check.body.id]);
      expect(stored.map((r) => r.more_info)).toEqual(Array.from({ length: n }, (_, i) => `real ${i}`));
      expect(b.agent.closed).toBeUndefined(); // valid messages: ignored, not punished (the rate limit bounds them)
      // another key's reads are answered meanwhile
      const viewer = await createKey(t, ['clients:read']);
      expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', viewer)).status).toBe(200);
    });
  });

  describe('finding 6: one heartbeat must not freeze every agent’s facts', () => {
    it('takes a lone surrogate at registration too (stored as U+FFFD, not refused by jsonb)', async () => {
      const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenantA.clientId, site: tenantA.siteId });
      const disks = [{ device: '/mnt/\ud800', free: '1 GB', total: '2 GB', percent: 50 }];
      const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'trust-surrogate', plat: 'linux', version: '0.1.0', disks });
      expect(r.status).toBe(200);
      expect((await t.http.get(`/api/v3/agents/${r.body.agent_id}/`).set(admin)).body.disks).toEqual([{ ...disks[0], device: '/mnt/\ufffd' }]);
    });

    it('stores a lone surrogate as U+FFFD, and a fact PostgreSQL refuses costs only its own row', async () => {
      const presence = t.server.app.get(AgentPresenceService);
      const one = await connect();
      const two = await connect(tenantB);
      await presence.flush();
      one.agent.send({ type: 'heartbeat', facts: { version: '1.0\ud800', logged_in_username: 'mallory' } });
      two.agent.send({ type: 'heartbeat', facts: { logged_in_username: 'bob', operating_system: 'Linux 6.1' } });
      await sleep(200);
      await presence.flush();
      const detail = async (id: string) => (await t.http.get(`/api/v3/agents/${id}/`).set(admin)).body;
      expect(await detail(one.agentId)).toMatchObject({ version: '1.0\ufffd', logged_in_username: 'mallory' });
      expect(await detail(two.agentId)).toMatchObject({ logged_in_username: 'bob', operating_system: 'Linux 6.1' });

      // whatever validation misses: a value PostgreSQL refuses (here a row that breaks a CHECK constraint) fails
      // that row only; the other agents' facts of the same flush are written
      await sql(t.db.url, `ALTER TABLE agents ADD CONSTRAINT trust_test_no_eve CHECK (logged_in_username IS DISTINCT FROM 'eve')`);
      try {
        one.agent.send({ type: 'heartbeat', facts: { logged_in_username: 'eve' } });
        two.agent.send({ type: 'heartbeat', facts: { logged_in_username: 'carol' } });
        await sleep(200);
        await presence.flush();
        expect(await detail(two.agentId)).toMatchObject({ logged_in_username: 'carol' });
        expect(await detail(one.agentId)).toMatchObject({ logged_in_username: 'mallory' });
      } finally {
        await sql(t.db.url, `ALTER TABLE agents DROP CONSTRAINT trust_test_no_eve`);
      }
    });
  });
});
