import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { hostname as osHostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentPresenceService } from '../../apps/api/src/rmm/fleet/presence/agent-presence.service';
import { RmmEvents, RmmEventMap } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { sql } from '../utils/sql';
import { ROOT, run } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';
import WebSocket, { WebSocketServer } from 'ws';
import { until } from '../utils/wait';

/** The reference agent (apps/agent/) as a device runs it: real processes of dist/agent/rmm-agent.js (test/global-setup.js builds it). */
const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');
const ADMIN = 'agent-e2e-admin-key-0123456789abcdef';
const HOSTNAME = 'agent-e2e-01';

interface AgentProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}


/** The promise's value, or `fallback` after ms (the timer is cleared either way: no handle left open). */
async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<F>((r) => (timer = setTimeout(() => r(fallback), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}


describe('reference agent (real processes)', () => {
  let t: TestApp;
  let work: string;
  const admin = { 'X-API-KEY': ADMIN };
  const spawned: AgentProcess[] = [];
  /** Process groups of scripts an agent started and could not kill (it was SIGKILLed): killed in afterEach. */
  const orphanPidFiles: string[] = [];
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, RMM_AGENT_HOSTNAME: HOSTNAME, ...extra });

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_AGENT_HEARTBEAT_SECONDS: '1' });
    work = mkdtempSync(join(tmpdir(), 'rmm-agent-e2e-'));
  });
  afterEach(async () => {
    for (const p of spawned.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await p.exited;
    }
    for (const file of orphanPidFiles.splice(0)) {
      try {
        process.kill(-Number(readFileSync(file, 'utf8').trim()), 'SIGKILL');
      } catch {
        /* gone already, or never started */
      }
    }
  });
  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const deployment = async (): Promise<{ id: number; uuid: string }> => {
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const res = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    expect(res.status).toBe(201);
    return res.body;
  };
  /**
   * Registers HOSTNAME in a fresh prefix. Every test registers the same hostname, and since issue 30 (N1) only the
   * agent's secret or an operator's allowance lets a hostname register again: the operator allows it first.
   */
  const register = async (token: string, prefix: string) => {
    const res = await t.http.get('/api/v3/agents/').query({ hostname: HOSTNAME }).set(admin);
    if (res.body[0]) expect((await t.http.post(`/api/v3/agents/${res.body[0].agent_id}/reenroll/`).set(admin)).status).toBe(200);
    return run([AGENT_JS, 'register', '--server', t.url, '--token', token, '--prefix', prefix], env(), 20_000);
  };
  const startAgent = (prefix: string): AgentProcess => {
    const child = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', prefix], { env: env(), cwd: ROOT });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const p = { child, output: () => out, exited: new Promise<number | null>((r) => child.on('exit', (code) => r(code))) };
    spawned.push(p);
    return p;
  };
  const agentRow = async (): Promise<Record<string, any> | undefined> => {
    const res = await t.http.get('/api/v3/agents/').query({ hostname: HOSTNAME }).set(admin);
    expect(res.status).toBe(200);
    return res.body[0];
  };
  const waitOnline = (agent: AgentProcess) =>
    until(`agent online\n${agent.output()}`, async () => {
      const row = await agentRow();
      return row?.status === 'online' ? row : undefined;
    });
  const script = async (name: string, body: string): Promise<number> => {
    const res = await t.http.post('/api/v3/scripts/').set(admin).send({ name, shell: 'bash', body });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const runscript = (agentId: string, body: Record<string, unknown>) => t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send(body);

  it('registers with its real facts into a 0600 state file, comes online, heartbeats and runs scripts (args, exit code, time-out, forget)', async () => {
    const prefix = join(work, 'main');
    const d = await deployment();
    const reg = await register(d.uuid, prefix);
    expect(reg).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\n$/) });
    const agentId = reg.stdout.trim();
    const stateFile = join(prefix, 'state.json');
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toEqual({ server: t.url, agent_id: agentId, agent_secret: expect.stringMatching(/^agt_/) });

    const before = await run([AGENT_JS, 'status', '--prefix', prefix], env(), 15_000);
    // not running yet (exit 3), the credentials checked without connecting (issue #29 point 11)
    expect(before).toMatchObject({ code: 3, stdout: `agent_id: ${agentId}\nserver: ${t.url}\nprefix: ${prefix}\nrun process: none (not running)\nchannel: server reachable, credentials accepted\n` });

    // GET /agent/v1/ping, what status asks: the agent's credentials or a 401 in {detail}, and no presence either way
    const secret = JSON.parse(readFileSync(stateFile, 'utf8')).agent_secret as string;
    const ping = (headers: Record<string, string>) => t.http.get('/agent/v1/ping').set(headers);
    expect((await ping({ 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` })).body).toEqual({ agent_id: agentId, server_time: expect.any(String) });
    const bads: Array<Record<string, string>> = [{}, { 'X-Agent-Id': agentId }, { 'X-Agent-Id': agentId, Authorization: 'Bearer agt_wrong' }, { 'X-Agent-Id': 'abc', Authorization: `Bearer ${secret}` }];
    for (const bad of bads) {
      const res = await ping(bad);
      expect([res.status, res.body]).toEqual([401, { detail: 'Invalid token' }]);
    }
    expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body).toMatchObject({ status: 'offline', last_seen: null, never_connected: true });

    const agent = startAgent(prefix);
    const row = await waitOnline(agent);
    expect(row).toMatchObject({ agent_id: agentId, hostname: HOSTNAME, plat: 'linux', version: '0.1.0', monitoring_type: 'workstation', cpu_model: expect.stringMatching(/\S/) });
    expect(row.total_ram).toBeGreaterThan(0);
    expect(row.operating_system).toMatch(/^Linux /);

    // heartbeat_seconds is 1 on this server: heartbeats arrive and are written as last_seen
    // (flushed here as they come: on a busy machine the first may come later than a second)
    const presence = t.server.app.get(AgentPresenceService);
    await until('a heartbeat to write', async () => (await presence.flush()) >= 1);

    // status while `run` holds the connection: it must not take it over (that would close the running one, 4000)
    const during = await run([AGENT_JS, 'status', '--prefix', prefix], env(), 15_000);
    expect(during.code).toBe(0);
    expect(during.stdout).toContain(`run process: ${agent.child.pid}\nchannel: server reachable, credentials accepted\n`);
    expect(agent.child.exitCode).toBeNull();

    const echo = await script('agent-e2e-echo', 'echo "out $1"; echo "err $2" >&2; exit 3');
    const res = await runscript(agentId, { script: echo, args: ['a', 'b'], timeout: 20 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stdout: 'out a\n', stderr: 'err b\n', retcode: 3, timed_out: false });

    const sleeper = await script('agent-e2e-sleep', 'sleep 30');
    const started = Date.now();
    const slow = await runscript(agentId, { script: sleeper, timeout: 2 });
    expect(Date.now() - started).toBeLessThan(7_000);
    expect(slow.status).toBe(200);
    expect(slow.body).toMatchObject({ retcode: null, timed_out: true });

    const forgot = await runscript(agentId, { script: echo, args: ['x', 'y'], output: 'forget' });
    expect(forgot.status).toBe(202);
    const stored = await until('the forgotten run to finish', async () => {
      const r = await t.http.get(`/api/v3/agents/${agentId}/runs/${forgot.body.id}/`).set(admin);
      return r.body.status === 'finished' ? r.body : undefined;
    });
    expect(stored).toMatchObject({ retcode: 3, stdout: 'out x\n', stderr: 'err y\n', output: 'forget', timed_out: false });

    // a graceful stop: SIGTERM, exit 0, the agent goes offline
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    await until('agent offline', async () => (await agentRow())?.status === 'offline');
  });

  it('streams a script\'s output as it comes (the first chunk before runscript returns), and sends its facts in heartbeats', async () => {
    const prefix = join(work, 'stream');
    const reg = await register((await deployment()).uuid, prefix);
    expect(reg).toMatchObject({ code: 0 });
    const agentId = reg.stdout.trim();
    // facts forgotten since registration: the first heartbeat after connecting sends them all again
    await sql(t.db.url, `UPDATE agents SET logged_in_username = NULL, disks = NULL, total_ram = NULL WHERE id = $1`, [Number(agentId)]);
    const agent = startAgent(prefix);
    await waitOnline(agent);
    const detail = await until(`facts from a heartbeat\n${agent.output()}`, async () => {
      await t.server.app.get(AgentPresenceService).flush();
      const body = (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body;
      return body.total_ram !== null ? body : undefined;
    });
    expect(detail.total_ram).toBeGreaterThan(0);
    expect(Array.isArray(detail.disks)).toBe(true);
    expect(detail.hostname).toBe(HOSTNAME);

    const chunks: Array<RmmEventMap['script.output'] & { returned: boolean }> = [];
    let returned = false;
    const off = t.server.app.get(RmmEvents).on('script.output', (e) => e.agentId === Number(agentId) && chunks.push({ ...e, returned }));
    try {
      const slow = await script('agent-e2e-stream', 'echo first; echo oops >&2; sleep 3; echo second');
      const res = await runscript(agentId, { script: slow, timeout: 20 }).then((r) => ((returned = true), r));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ stdout: 'first\nsecond\n', stderr: 'oops\n', retcode: 0 });
      expect(chunks.length).toBeGreaterThanOrEqual(2);
      // (stdout and stderr are two pipes: which of `first` and `oops` the agent reads first is not fixed)
      expect(chunks.find((c) => c.stream === 'stdout')).toMatchObject({ runId: res.body.id, chunk: 'first\n', returned: false });
      expect(chunks.every((c) => !c.returned)).toBe(true); // every chunk before the result
      expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
      expect(chunks.filter((c) => c.stream === 'stdout').map((c) => c.chunk).join('')).toBe('first\nsecond\n');
      expect(chunks.filter((c) => c.stream === 'stderr').map((c) => c.chunk).join('')).toBe('oops\n');
    } finally {
      off();
    }
  });

  it('answers 502 agent disconnected and marks the run interrupted when the agent process is killed mid-run', async () => {
    const prefix = join(work, 'killed');
    const reg = await register((await deployment()).uuid, prefix);
    expect(reg.code).toBe(0);
    const agentId = reg.stdout.trim();
    const agent = startAgent(prefix);
    await waitOnline(agent);
    const pidFile = join(work, 'killed-script.pid');
    orphanPidFiles.push(pidFile);
    const sleeper = await script('agent-e2e-sleep-kill', 'echo $$ > "$1"; sleep 30');
    const call = runscript(agentId, { script: sleeper, args: [pidFile], timeout: 60 }).then((r) => r);
    await until('the script to start', async () => {
      try {
        return readFileSync(pidFile, 'utf8').trim() !== '';
      } catch {
        return false;
      }
    });
    agent.child.kill('SIGKILL');
    const res = await call;
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ detail: 'agent disconnected' });
    const runs = await t.http.get(`/api/v3/agents/${agentId}/runs/`).set(admin);
    expect(runs.body[0]).toMatchObject({ script: sleeper, status: 'interrupted' });
  });

  it('keeps the agent id when the hostname registers again with the operator\'s allowance, and the old run process stops on 4001', async () => {
    const oldPrefix = join(work, 'old');
    const first = await register((await deployment()).uuid, oldPrefix);
    expect(first.code).toBe(0);
    const old = startAgent(oldPrefix);
    await waitOnline(old);

    const again = await register((await deployment()).uuid, join(work, 'new'));
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toContain('re-enrolled');

    const code = await within(old.exited, 10_000, 'still running');
    expect(code).toBe(4);
    expect(old.output()).toContain('4001');
  });

  it('exits non-zero with the server\'s reason for a revoked or unknown deployment, and 1 when the server cannot be reached', async () => {
    const d = await deployment();
    expect((await t.http.delete(`/api/v3/agents/deployments/${d.id}/`).set(admin)).status).toBe(204);
    const revoked = await register(d.uuid, join(work, 'revoked'));
    expect(revoked.code).toBe(3);
    expect(revoked.stderr).toContain('deployment revoked');
    expect(() => statSync(join(work, 'revoked', 'state.json'))).toThrow();

    const unknown = await register('00000000-0000-4000-8000-000000000000', join(work, 'unknown'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown deployment');

    const down = await run([AGENT_JS, 'register', '--server', 'http://127.0.0.1:9', '--token', d.uuid, '--prefix', join(work, 'down')], env(), 20_000);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach');
  });

  it('a script the agent cannot run is a refusal (422, run failed, agent online), and output with NUL is stored, not refused (issue 18)', async () => {
    const prefix = join(work, 'answers');
    const reg = await register((await deployment()).uuid, prefix);
    expect(reg.code).toBe(0);
    const agentId = reg.stdout.trim();
    const agent = startAgent(prefix);
    await waitOnline(agent);
    // `cmd` on Linux: the agent answers ok:false "interpreter not found: cmd" — it refused, it did not go away
    const cmd = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'agent-e2e-cmd', shell: 'cmd', body: 'echo hi' });
    const refused = await runscript(agentId, { script: cmd.body.id, timeout: 20 });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ detail: expect.stringMatching(/^agent refused: /) });
    const [run] = (await t.http.get(`/api/v3/agents/${agentId}/runs/?limit=1`).set(admin)).body;
    expect(run).toMatchObject({ status: 'failed', error: refused.body.detail });
    expect((await agentRow())?.status).toBe('online');
    expect(agent.child.exitCode).toBeNull();
    // a NUL in the output (PostgreSQL's text cannot hold it): stored and answered as U+FFFD, never a 400 or 500
    const nul = await runscript(agentId, { script: await script('agent-e2e-nul', "printf 'a\\0b'"), timeout: 20 });
    expect(nul.status).toBe(200);
    expect(nul.body).toMatchObject({ stdout: 'a\ufffdb', retcode: 0 });
    expect((await t.http.get(`/api/v3/agents/${agentId}/runs/${nul.body.id}/`).set(admin)).body).toMatchObject({ status: 'finished', stdout: 'a\ufffdb', error: null });
  });
});

/** What the real server cannot be made to do on demand: say 1001 (shutting down), then 4000 (replaced). */
describe('reference agent against a scripted channel', () => {
  let wss: WebSocketServer;
  let dir: string;
  let agent: ChildProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rmm-agent-fake-'));
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/agent/v1/ws' });
    await new Promise((r) => wss.once('listening', r));
  });
  afterAll(async () => {
    if (agent && agent.exitCode === null) agent.kill('SIGKILL');
    await new Promise((r) => wss.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('heartbeats, says when an interpreter is missing, reconnects after 1001 within the back-off and exits 0 on 4000', async () => {
    const { port } = wss.address() as { port: number };
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ server: `http://127.0.0.1:${port}`, agent_id: '7', agent_secret: 'agt_test' }));
    // a PATH with bash and nothing else: python3 is missing
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync('/bin/bash', join(bin, 'bash'));

    const connections: Array<{ ws: WebSocket; req: IncomingMessage; at: number; messages: any[] }> = [];
    wss.on('connection', (ws, req) => {
      const c = { ws, req, at: Date.now(), messages: [] as any[] };
      ws.on('message', (d) => c.messages.push(JSON.parse(d.toString())));
      connections.push(c);
      ws.send(JSON.stringify({ type: 'hello', agent_id: '7', heartbeat_seconds: 1, server_time: new Date().toISOString() }));
    });
    agent = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', dir], { env: { ...process.env, PATH: bin }, cwd: ROOT });
    let out = '';
    agent.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => agent!.on('exit', (code) => r(code)));

    const first = await until('a connection', async () => connections[0]);
    expect(first.req.headers).toMatchObject({ 'x-agent-id': '7', authorization: 'Bearer agt_test' });
    first.ws.send(JSON.stringify({ type: 'script.run', id: 'r1', runId: 1, shell: 'python', body: 'print(1)', args: [], timeoutSeconds: 5 }));
    first.ws.send(JSON.stringify({ type: 'script.run', id: 'r2', runId: 2, shell: 'bash', body: 'echo "$#:$1"', args: ['two words'], timeoutSeconds: 5 }));
    const results = await until('both results', async () => {
      const r = first.messages.filter((m) => m.type === 'result');
      return r.length === 2 ? r : undefined;
    });
    expect(results).toEqual(
      expect.arrayContaining([
        { type: 'result', id: 'r1', ok: false, error: 'interpreter not found: python3' },
        { type: 'result', id: 'r2', ok: true, result: { retcode: 0, stdout: '1:two words\n', stderr: '', executionTime: expect.any(Number), timedOut: false } },
      ]),
    );
    await until('two heartbeats', async () => first.messages.filter((m) => m.type === 'heartbeat').length >= 2, 3_000);
    const beats = first.messages.filter((m) => m.type === 'heartbeat');
    expect(beats[0].facts).toMatchObject({ plat: 'linux', version: '0.1.0', total_ram: expect.any(Number) }); // all facts at once
    // the machine's own name goes with the facts (the server keeps it as os_hostname; it never renames the agent)
    expect(beats[0].facts).toMatchObject({ hostname: process.env.RMM_AGENT_HOSTNAME || osHostname() });
    expect(beats[0].facts).not.toHaveProperty('monitoring_type');
    expect(first.messages.filter((m) => m.type === 'script.output' && m.runId === 2)).toEqual([{ type: 'script.output', runId: 2, stream: 'stdout', chunk: '1:two words\n', seq: 0 }]);

    const closedAt = Date.now();
    first.ws.close(1001, 'server shutting down');
    const second = await until('a reconnection', async () => connections[1], 8_000);
    // after a 1001: a random 1–5 s (docs/agent-protocol.md), less timer slack / plus a loaded machine's
    expect(second.at - closedAt).toBeGreaterThanOrEqual(900);
    expect(second.at - closedAt).toBeLessThan(6_500);

    second.ws.close(4000, 'replaced by a newer connection of this agent');
    expect(await within(exited, 5_000, 'still running')).toBe(0);
    expect(out).toContain('another process of this agent took over');
  });
});
