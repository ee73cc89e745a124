import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { ROOT, run } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/** Checks on the reference agent (apps/agent/), a real process of dist/agent/rmm-agent.js, against the real server. */
const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');
const ADMIN = 'checks-agent-e2e-admin-key-0123456789';
const HOSTNAME = 'checks-agent-e2e-01';

interface AgentProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

describe('checks on the reference agent (real processes)', () => {
  let t: TestApp;
  let work: string;
  let prefix: string;
  let agentId: string;
  let agent: AgentProcess;
  const admin = { 'X-API-KEY': ADMIN };
  const spawned: AgentProcess[] = [];
  /** What the bus announced about checks and their alerts, in order. */
  const seen: string[] = [];
  const offs: Array<() => void> = [];
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, RMM_AGENT_HOSTNAME: HOSTNAME });

  const startAgent = (): AgentProcess => {
    const child = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', prefix], { env: env(), cwd: ROOT });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const p = { child, output: () => out, exited: new Promise<number | null>((r) => child.on('exit', (code) => r(code))) };
    spawned.push(p);
    return p;
  };
  const agentStatus = async (): Promise<string> => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status;
  const createCheck = async (body: Record<string, unknown>): Promise<Record<string, any>> => {
    const res = await t.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, ...body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const getCheck = async (id: number): Promise<Record<string, any>> => {
    const res = await t.http.get(`/api/v3/checks/${id}/`).set(admin);
    expect(res.status).toBe(200);
    return res.body;
  };
  const history = async (id: number): Promise<Array<Record<string, any>>> => {
    const res = await t.http.get(`/api/v3/checks/${id}/history/`).set(admin);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** Waits for the check's history to hold at least n results; returns the check. */
  const results = async (id: number, n: number, timeoutMs = 15_000): Promise<Record<string, any>> => {
    await until(`${n} result(s) of check ${id}\n${agent.output()}`, async () => (await history(id)).length >= n, timeoutMs);
    return getCheck(id);
  };
  const alertsOf = (checkId: number) => sql<Record<string, any>>(t.db.url, `SELECT id, severity, resolved, resolved_by FROM alerts WHERE check_id = $1 ORDER BY id`, [checkId]);

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' }); // the tests poll
    work = mkdtempSync(join(tmpdir(), 'rmm-checks-e2e-'));
    prefix = join(work, 'agent');
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    const reg = await run([AGENT_JS, 'register', '--server', t.url, '--token', d.body.uuid, '--prefix', prefix], env(), 20_000);
    expect(reg.code).toBe(0);
    agentId = reg.stdout.trim();
    const bus = t.server.app.get(RmmEvents);
    offs.push(
      bus.on('check.status', (e) => seen.push(`check.status ${e.checkId} ${e.previousStatus}->${e.status}`)),
      bus.on('alert.created', (e) => seen.push(`alert.created ${e.alert.check}`)),
      bus.on('alert.resolved', (e) => seen.push(`alert.resolved ${e.alert.check} by ${e.alert.resolved_by}`)),
    );
    agent = startAgent();
    await until('agent online', async () => (await agentStatus()) === 'online');
  });
  afterAll(async () => {
    offs.forEach((off) => off());
    for (const p of spawned) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await p.exited;
    }
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a diskspace check that cannot pass fails every run_interval, opens exactly one alert of its severity (check.status first), and resolves it by itself once changed to pass', async () => {
    const check = await createCheck({ check_type: 'diskspace', settings: { drive: '/', threshold_percent: 99 }, run_interval: 5, severity: 'error' });
    expect(check).toMatchObject({ status: 'pending', run_interval: 5, severity: 'error', fail_count: 0, last_run: null });

    const alert = await until(`the check_failure alert\n${agent.output()}`, async () => {
      const res = await t.http.get('/api/v3/alerts/').query({ agent: agentId, alert_type: 'check_failure' }).set(admin);
      return res.body.find((a: { check: number }) => a.check === check.id);
    });
    expect(alert).toMatchObject({ severity: 'error', resolved: false, agent: agentId, message: expect.stringContaining('threshold 99 %') });
    const firstFailing = seen.indexOf(`check.status ${check.id} pending->failing`);
    expect(firstFailing).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf(`alert.created ${check.id}`)).toBeGreaterThan(firstFailing);

    // it runs again (every 5 s ±10 %): still failing, still one alert
    const failing = await results(check.id, 2);
    expect(failing).toMatchObject({ status: 'failing', more_info: expect.stringMatching(/^\/: [\d.]+ GB free of [\d.]+ GB \([\d.]+ %\), threshold 99 %$/) });
    expect(failing.fail_count).toBeGreaterThanOrEqual(2);
    expect(Date.parse(failing.last_run)).toBeGreaterThan(Date.parse(alert.created_at) - 1_000);
    expect(await alertsOf(check.id)).toEqual([{ id: alert.id, severity: 'error', resolved: false, resolved_by: null }]);
    expect(seen.filter((s) => s === `alert.created ${check.id}`)).toHaveLength(1);
    const h = await history(check.id);
    expect(h[0]).toEqual({ id: expect.any(Number), status: 'failing', more_info: failing.more_info, created_at: expect.any(String) });
    expect(h.map((r) => r.id)).toEqual([...h.map((r) => r.id)].sort((a, b) => b - a)); // newest first

    // changed (with a long interval): the agent runs it at once, it passes, the alert resolves by 'system'
    const before = h.length;
    const patched = await t.http.patch(`/api/v3/checks/${check.id}/`).set(admin).send({ settings: { drive: '/', threshold_percent: 1 }, run_interval: 3600 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ run_interval: 3600, settings: { drive: '/', threshold_percent: 1 } });
    const passing = await until(`a passing result\n${agent.output()}`, async () => {
      const c = await getCheck(check.id);
      return c.status === 'passing' ? c : undefined;
    });
    expect(passing).toMatchObject({ fail_count: 0, more_info: expect.stringMatching(/threshold 1 %$/) });
    expect(await alertsOf(check.id)).toEqual([{ id: alert.id, severity: 'error', resolved: true, resolved_by: 'system' }]);
    expect((await t.http.get(`/api/v3/alerts/${alert.id}/`).set(admin)).body).toMatchObject({ resolved: true, resolved_by: 'system' });
    expect(seen).toContain(`alert.resolved ${check.id} by system`);
    expect((await history(check.id)).length).toBeGreaterThan(before);
    await t.http.delete(`/api/v3/checks/${check.id}/`).set(admin).expect(204);
  });

  it('waits for fails_b4_alert consecutive failures before it turns failing and opens an alert', async () => {
    const check = await createCheck({ check_type: 'diskspace', settings: { drive: '/', threshold_percent: 99 }, fails_b4_alert: 2, run_interval: 3600 });
    const once = await results(check.id, 1);
    expect(once).toMatchObject({ status: 'pending', fail_count: 1, more_info: expect.stringContaining('threshold 99 %') });
    expect(await alertsOf(check.id)).toEqual([]);
    // a changed check runs again at once: the second failure in a row
    await t.http.patch(`/api/v3/checks/${check.id}/`).set(admin).send({ name: 'root almost empty' }).expect(200);
    const twice = await results(check.id, 2);
    expect(twice).toMatchObject({ status: 'failing', fail_count: 2 });
    expect(await until('the alert', async () => (await alertsOf(check.id)).length === 1 && alertsOf(check.id))).toEqual([
      { id: expect.any(Number), severity: 'warning', resolved: false, resolved_by: null },
    ]);
    // deleted: its alert is resolved by 'system', and the agent stops running it
    await t.http.delete(`/api/v3/checks/${check.id}/`).set(admin).expect(204);
    expect(await alertsOf(check.id)).toEqual([]); // check_id is set null on delete: find it by message
    const [gone] = await sql<Record<string, any>>(t.db.url, `SELECT resolved, resolved_by FROM alerts WHERE check_id IS NULL AND message LIKE '%root almost empty%'`);
    expect(gone).toEqual({ resolved: true, resolved_by: 'system' });
    await until(`the agent to drop check ${check.id}\n${agent.output()}`, async () => agent.output().includes(`check ${check.id} removed`));
  });

  it('ping passes (ICMP or TCP, saying which), winsvc stays pending off Windows, a script check fails on its return code and follows its script', async () => {
    const ping = await createCheck({ check_type: 'ping', settings: { target: '127.0.0.1' }, run_interval: 3600 });
    const svc = await createCheck({ check_type: 'winsvc', settings: { service_name: 'Spooler' }, run_interval: 3600 });
    const scriptRes = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'checks-e2e-exit3', shell: 'bash', body: 'echo "queue is stuck"; exit 3' });
    expect(scriptRes.status).toBe(201);
    const scr = await createCheck({ check_type: 'script', settings: { script: scriptRes.body.id, timeout: 20 }, run_interval: 3600 });
    const mem = await createCheck({ check_type: 'memory', settings: { threshold_percent: 100 }, run_interval: 3600 });
    const cpu = await createCheck({ check_type: 'cpuload', settings: { threshold_percent: 100 }, run_interval: 3600 });

    expect(await results(ping.id, 1)).toMatchObject({ status: 'passing', more_info: expect.stringMatching(/^(ICMP: reply from 127\.0\.0\.1|TCP (443|80): )/) });
    expect(await results(svc.id, 1)).toMatchObject({ status: 'pending', more_info: 'not supported on this platform', fail_count: 0 });
    expect(await results(scr.id, 1)).toMatchObject({ status: 'failing', more_info: 'retcode 3: queue is stuck' });
    expect(await results(mem.id, 1)).toMatchObject({ status: 'passing', more_info: expect.stringMatching(/^memory used [\d.]+ %, threshold 100 % \(/) });
    expect(await results(cpu.id, 1)).toMatchObject({ status: 'passing', more_info: expect.stringMatching(/^CPU load [\d.]+ %, threshold 100 %$/) });
    expect(await alertsOf(svc.id)).toEqual([]);
    expect(await alertsOf(scr.id)).toHaveLength(1);

    // the script changes: the agent gets it again and the check passes
    await t.http.patch(`/api/v3/scripts/${scriptRes.body.id}/`).set(admin).send({ body: 'echo fine' }).expect(200);
    expect(
      await until(`the script check to pass\n${agent.output()}`, async () => {
        const c = await getCheck(scr.id);
        return c.status === 'passing' ? c : undefined;
      }),
    ).toMatchObject({ more_info: 'retcode 0: fine' });
    expect(await alertsOf(scr.id)).toEqual([{ id: expect.any(Number), severity: 'warning', resolved: true, resolved_by: 'system' }]);
    for (const c of [ping, svc, scr, mem, cpu]) await t.http.delete(`/api/v3/checks/${c.id}/`).set(admin).expect(204);
  });

  it('sends an agent its checks when it connects: one created while it was away runs once it is back', async () => {
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    await until('agent offline', async () => (await agentStatus()) === 'offline');
    const check = await createCheck({ check_type: 'diskspace', settings: { drive: '/', threshold_percent: 1 }, run_interval: 3600 });
    expect((await history(check.id)).length).toBe(0);
    agent = startAgent();
    expect(await results(check.id, 1)).toMatchObject({ status: 'passing', fail_count: 0 });
  });
});
