import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname as osHostname, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { createClient, SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { ClientsService } from '../../apps/api/src/rmm/tenancy/clients/clients.service';
import { linuxAmd64BinDir } from '../utils/agent-binaries';
import { cleanEnv, exec as execIn, Finished } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Issue 20, point 1: the spec's caller asks the function for a named device (`ACME-WS-01`) and then polls the
 * agent list by that name (step 4). The device is registered under the requested name, whatever the machine
 * calls itself; the machine's name is kept as os_hostname. A user signs in with the real supabase-js client and
 * calls the function through it; the real installer and the real agent run as processes on this machine (whose
 * name is not ACME-WS-01); a second device is the registration HTTP call an agent makes.
 */
const ADMIN = 'enroll-hostname-admin-key-0123456789abcdef';
const REQUESTED = 'ACME-WS-01';
const MACHINE = osHostname();
const OTHER_HARDWARE = 'b2'.repeat(32);
const CONFLICT = { detail: 'hostname already enrolled by another device' };

describe('a device enrolled through the function is found by the hostname asked for', () => {
  let t: TestApp;
  let supabase: SupabaseClient;
  let work: string;
  let agentId: string;
  let runner: ChildProcess | undefined;
  let runnerLog = '';
  const admin = { 'X-API-KEY': ADMIN };
  const children: ChildProcess[] = [];
  // A machine as the installer finds it: this Node as `node` on the PATH, no RMM_* variables (no RMM_AGENT_HOSTNAME).
  const env = (): NodeJS.ProcessEnv => cleanEnv({ PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` });

  beforeAll(async () => {
    expect(MACHINE).not.toBe(REQUESTED);
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_AGENT_HEARTBEAT_SECONDS: '1', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_AGENT_BIN_DIR: linuxAmd64BinDir() });
    const acme = await t.server.app.get(ClientsService).ensureClientAndSite('Acme', 'HQ');
    await t.server.app.get(UsersService).create({ email: 'it@acme.test', password: 'acme-password', clientId: acme.client.id, siteId: acme.site.id });
    supabase = createClient(t.url, t.server.runtime.dataAnonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const { error } = await supabase.auth.signInWithPassword({ email: 'it@acme.test', password: 'acme-password' });
    expect(error).toBeNull();
    work = mkdtempSync(join(tmpdir(), 'rmm-enroll-hostname-'));
  });
  afterAll(async () => {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await new Promise((r) => c.once('close', r));
      }
    }
    await supabase?.auth.signOut().catch(() => undefined);
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Step 1, as a user makes it: the function through supabase-js. */
  const enroll = async (hostname: string): Promise<{ download_url: string; deployment_uuid: string }> => {
    const { data, error } = await supabase.functions.invoke('enroll-rmm', { body: { hostname, platform: 'linux' } });
    expect(error).toBeNull();
    return data;
  };
  /** Runs a command to its end, bounded. */
  const exec = (cmd: string, args: string[], timeoutMs = 60_000): Promise<Finished> =>
    execIn(cmd, args, { env: env(), cwd: work, timeoutMs, onSpawn: (child) => children.push(child) });
  /** Steps 2 and 3: the installer downloaded from the deployment, run on this machine. */
  const install = async (downloadUrl: string, prefix: string): Promise<Finished & { script: string }> => {
    const res = await fetch(`${downloadUrl}?platform=linux`);
    expect(res.status).toBe(200);
    const script = await res.text();
    const file = join(work, `installer-${Math.random().toString(36).slice(2, 8)}.sh`);
    writeFileSync(file, script);
    return { ...(await exec('sh', [file, '--prefix', prefix, '--no-service'])), script };
  };
  /** Step 4, the spec's poll: the agent list filtered by hostname. */
  const byHostname = async (hostname: string): Promise<Array<Record<string, any>>> => {
    const res = await t.http.get('/api/v3/agents/').query({ hostname }).set(admin);
    expect(res.status).toBe(200);
    return res.body;
  };
  const detail = async (id: string): Promise<Record<string, any>> => {
    const res = await t.http.get(`/api/v3/agents/${id}/`).set(admin);
    expect(res.status).toBe(200);
    return res.body;
  };
  const register = (token: string, body: Record<string, unknown>) =>
    t.http.post('/agent/v1/register').set('Authorization', `Bearer ${token}`).send({ plat: 'linux', version: '0.1.0', ...body });
  const enrollmentStatus = async (uuid: string) => {
    const token = (await supabase.auth.getSession()).data.session!.access_token;
    const res = await t.http.get(`/functions/v1/enroll-rmm/status?deployment_uuid=${uuid}`).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  it(`the real installer on a machine named otherwise registers ${REQUESTED}: the spec's poll finds it, the detail shows the machine's name as os_hostname`, async () => {
    const enrollment = await enroll(REQUESTED);
    const prefix = join(work, 'device-a');
    const inst = await install(enrollment.download_url, prefix);
    expect(inst.script).toContain(`\nRMM_HOSTNAME='${REQUESTED}'\n`);
    expect(inst).toMatchObject({ code: 0 });
    expect(inst.stderr).toContain(`registering as ${REQUESTED} (this machine: ${MACHINE})`);
    expect(inst.stderr).toContain(`registered as ${REQUESTED} (this machine: ${MACHINE}): agent `);
    expect(inst.stdout + inst.stderr).not.toContain('agt_');
    // (the installer says the agent id on stderr; stdout stays empty)
    agentId = /registered as agent (\d+) \(ACME-WS-01\)/.exec(inst.stderr)?.[1] ?? '';
    expect(agentId).toMatch(/^\d+$/);

    // The spec's step 4: every 5 s (here faster) for at most 2 minutes, until an agent appears.
    const found = await until('the agent listed under the requested hostname', async () => {
      const list = await byHostname(REQUESTED);
      return list.length > 0 ? list : undefined;
    }, 120_000);
    expect(found).toEqual([expect.objectContaining({ agent_id: agentId, hostname: REQUESTED, client: expect.objectContaining({ name: 'Acme' }) })]);
    expect(await byHostname(MACHINE)).toEqual([]);
    expect(await detail(agentId)).toMatchObject({ agent_id: agentId, hostname: REQUESTED, os_hostname: MACHINE });
    expect(await enrollmentStatus(enrollment.deployment_uuid)).toMatchObject({ status: 'completed', agent_id: Number(agentId), hostname: REQUESTED });

    // The agent runs; its heartbeats carry the machine's name, which stays a fact: the agent keeps its name.
    runner = spawn(join(prefix, 'bin', 'rmm-agent'), ['run', '--prefix', prefix], { env: env(), cwd: work });
    children.push(runner);
    runner.stderr!.on('data', (c) => (runnerLog += c));
    await until(`agent online\n${runnerLog}`, async () => (await detail(agentId)).status === 'online', 30_000);
    await new Promise((r) => setTimeout(r, 1_500)); // a heartbeat flush with the facts
    expect(await detail(agentId)).toMatchObject({ hostname: REQUESTED, os_hostname: MACHINE, status: 'online' });
  }, 180_000);

  it(`a second device registering through another function deployment for ${REQUESTED} without proof: 409, an enrollment_conflict alert, and the first agent keeps running`, async () => {
    expect(runner?.exitCode).toBeNull();
    const second = await enroll(REQUESTED);
    const res = await register(second.deployment_uuid, { hostname: 'laptop-of-someone-else', hardware_id: OTHER_HARDWARE });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(CONFLICT);

    const alerts = await t.http.get('/api/v3/alerts/').query({ agent: agentId, alert_type: 'enrollment_conflict' }).set(admin);
    expect(alerts.body).toEqual([expect.objectContaining({ agent: agentId, alert_type: 'enrollment_conflict', severity: 'warning', resolved: false })]);
    expect(await byHostname(REQUESTED)).toEqual([expect.objectContaining({ agent_id: agentId })]);
    expect(await detail(agentId)).toMatchObject({ os_hostname: MACHINE, status: 'online' });
    expect(await enrollmentStatus(second.deployment_uuid)).toMatchObject({ status: 'pending', agent_id: null });

    // Its channel is not closed: the running agent still runs what the operator sends it.
    const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'still-there', shell: 'bash', body: 'echo "still here: $1"' });
    expect(script.status).toBe(201);
    const run = await t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: script.body.id, args: ['yes'], timeout: 20 });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ retcode: 0, stdout: 'still here: yes\n' });
    expect(runner?.exitCode).toBeNull();
    expect(runnerLog).not.toMatch(/4001|re-enrolled/);
  }, 60_000);

  it('the same device re-installed through a new function deployment, with its proof, keeps its agent id', async () => {
    const again = await enroll(REQUESTED);
    const closed = new Promise<number | null>((r) => runner!.once('exit', (code) => r(code)));
    // the same machine (same hardware id) and the same prefix (its state file's secret)
    const inst = await install(again.download_url, join(work, 'device-a'));
    expect(inst).toMatchObject({ code: 0 });
    expect(inst.stderr).toContain(`registered as agent ${agentId} (${REQUESTED})`);
    expect(inst.stderr).toContain('re-enrolled: same agent id, new secret');
    expect(await byHostname(REQUESTED)).toEqual([expect.objectContaining({ agent_id: agentId })]);
    expect(await detail(agentId)).toMatchObject({ hostname: REQUESTED, os_hostname: MACHINE });
    expect(await enrollmentStatus(again.deployment_uuid)).toMatchObject({ status: 'completed', agent_id: Number(agentId) });
    // the old installation's secret stops working: its run process is told so (4001) and exits 4
    expect(await closed).toBe(4);
  }, 90_000);

  it("a plain deployment (no requested hostname) registers the machine's name, and os_hostname equals it; heartbeats keep os_hostname current, never the agent's name", async () => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: t.server.runtime.rmmDefaultClientId, site: t.server.runtime.rmmDefaultSiteId });
    expect(d.status).toBe(201);
    const script = await (await fetch(`${d.body.download_url}?platform=linux`)).text();
    expect(script).toContain('\nRMM_HOSTNAME=$THIS_MACHINE\n');
    expect(script).not.toContain('(this machine:');

    const res = await register(d.body.uuid, { hostname: 'plain-ws-01' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hostname: 'plain-ws-01', reenrolled: false });
    const id = res.body.agent_id as string;
    expect(await detail(id)).toMatchObject({ hostname: 'plain-ws-01', os_hostname: 'plain-ws-01' });

    // The machine is renamed: its heartbeat says so; the agent keeps the name it is listed under.
    const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/agent/v1/ws`, { headers: { 'X-Agent-Id': id, Authorization: `Bearer ${res.body.agent_secret}` } });
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('message', () => resolve()); // hello
        ws.once('error', reject);
      });
      ws.send(JSON.stringify({ type: 'heartbeat', facts: { hostname: 'plain-ws-01-renamed' } }));
      await until('os_hostname updated', async () => (await detail(id)).os_hostname === 'plain-ws-01-renamed');
      expect(await detail(id)).toMatchObject({ hostname: 'plain-ws-01', os_hostname: 'plain-ws-01-renamed' });
      expect(await byHostname('plain-ws-01')).toEqual([expect.objectContaining({ agent_id: id })]);
      // a hostname fact that breaks the registration's rule is ignored, like any invalid fact
      ws.send(JSON.stringify({ type: 'heartbeat', facts: { hostname: ' leading-space', logged_in_username: 'carol' } }));
      await until('the valid fact written', async () => (await detail(id)).logged_in_username === 'carol');
      expect((await detail(id)).os_hostname).toBe('plain-ws-01-renamed');
    } finally {
      ws.terminate();
    }
  }, 60_000);

  it('the function refuses a hostname no agent can have (leading white space): 400 {error}, no deployment', async () => {
    const token = (await supabase.auth.getSession()).data.session!.access_token;
    const before = await sql<{ n: number }>(t.db.url, 'SELECT count(*)::int AS n FROM deployments');
    const res = await fetch(`${t.url}/functions/v1/enroll-rmm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ hostname: ` ${REQUESTED}`, platform: 'linux' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'hostname must not start with white space' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await sql(t.db.url, 'SELECT count(*)::int AS n FROM deployments')).toEqual(before);
  });
});
