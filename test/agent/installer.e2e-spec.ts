import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { FixedClock } from '../../apps/api/src/common/clock';
import { exec as execIn, Finished } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/** The download URL's installers as a device runs them: `sh installer.sh` (real processes, real curl/wget and node). */
const ADMIN = 'installer-e2e-admin-key-0123456789abcdef';
const HOSTNAME = 'installer-e2e-01';
const DAY_MS = 86_400_000;

describe('installers (real processes)', () => {
  let t: TestApp;
  let work: string;
  const clock = new FixedClock();
  const admin = { 'X-API-KEY': ADMIN };
  const children: ChildProcess[] = [];
  // `node` on the PATH is this Node (20+), as the installer requires
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, RMM_AGENT_HOSTNAME: HOSTNAME });

  /** Runs a command to its end, bounded: killed (and the test failed) after timeoutMs. */
  const exec = (cmd: string, args: string[], timeoutMs = 30_000, childEnv = env()): Promise<Finished> =>
    execIn(cmd, args, { env: childEnv, cwd: work, timeoutMs, onSpawn: (child) => children.push(child) });

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_AGENT_HEARTBEAT_SECONDS: '1' }, { clock });
    work = mkdtempSync(join(tmpdir(), 'rmm-installer-e2e-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await new Promise((r) => c.once('close', r));
      }
    }
  });
  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const deployment = async (): Promise<{ id: number; uuid: string; download_url: string }> => {
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const res = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site, expires: new Date(clock.now().getTime() + DAY_MS).toISOString() });
    expect(res.status).toBe(201);
    return res.body;
  };
  /** Downloads the installer over HTTP as a device would, into <work>/<name>. */
  const download = async (url: string, name: string, headers: Record<string, string> = {}): Promise<{ status: number; file: string; body: string; type: string }> => {
    const res = await fetch(url, { headers });
    const body = await res.text();
    const file = join(work, name);
    writeFileSync(file, body);
    return { status: res.status, file, body, type: res.headers.get('content-type') ?? '' };
  };
  const agentRow = async (): Promise<Record<string, any> | undefined> => {
    const res = await t.http.get('/api/v3/agents/').query({ hostname: HOSTNAME }).set(admin);
    expect(res.status).toBe(200);
    return res.body[0];
  };

  it('installs, registers (0600 state), and bin/rmm-agent runs the agent online and reports its status', async () => {
    const d = await deployment();
    // the download URL is under PUBLIC_URL, which is this test server
    const dl = await download(`${d.download_url}?platform=linux`, 'installer.sh');
    expect(dl.status).toBe(200);
    expect(dl.body).toContain(`RMM_SERVER='${t.url}'`);
    const prefix = join(work, 'prefix');
    const inst = await exec('sh', [dl.file, '--prefix', prefix, '--no-service'], 60_000);
    expect(inst).toMatchObject({ code: 0 });
    expect(inst.stderr).toContain('registered as agent');
    expect(inst.stdout + inst.stderr).not.toContain('agt_');
    const wrapper = join(prefix, 'bin', 'rmm-agent');
    expect(existsSync(wrapper)).toBe(true);
    expect(statSync(join(prefix, 'state.json')).mode & 0o777).toBe(0o600);
    const row = await agentRow();
    expect(row).toMatchObject({ hostname: HOSTNAME, plat: 'linux' });

    const agent = spawn(wrapper, ['run'], { env: env(), cwd: work });
    children.push(agent);
    let out = '';
    agent.stderr!.on('data', (c) => (out += c));
    await until(`agent online\n${out}`, async () => (await agentRow())?.status === 'online');
    const status = await exec(wrapper, ['status'], 15_000);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/channel: (connected|server reachable)/);
    expect(status.stdout).toContain(`agent_id: ${row!.agent_id}`);
  }, 90_000);

  // Only where no service can be installed (no systemd running, or not root): never installs a unit on the test machine.
  const noServicePossible = process.platform === 'linux' && (!existsSync('/run/systemd/system') || process.getuid?.() !== 0);
  (noServicePossible ? it : it.skip)('without --no-service where no service can be installed: exit 0, saying why and how to start the agent', async () => {
    const d = await deployment();
    const dl = await download(`${d.download_url}?platform=linux`, 'installer-service.sh');
    const prefix = join(work, 'service');
    const res = await exec('sh', [dl.file, '--prefix', prefix], 60_000);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/not installing a service: (systemd is not running here|run as root)/);
    expect(res.stderr).toContain(`start the agent with: ${prefix}/bin/rmm-agent run`);
  }, 90_000);

  it('an installer with bad options says so (64)', async () => {
    const d = await deployment();
    const dl = await download(`${d.download_url}?platform=linux`, 'installer-usage.sh');
    const res = await exec('sh', [dl.file, '--bogus']);
    expect(res.code).toBe(64);
    expect(res.stderr).toContain('unknown option: --bogus');
  });

  it('a device without Node.js: exit 4 with a clear message, nothing installed', async () => {
    const d = await deployment();
    const dl = await download(`${d.download_url}?platform=linux`, 'installer-nonode.sh');
    const empty = mkdtempSync(join(work, 'empty-path-'));
    const res = await exec('/bin/sh', [dl.file, '--prefix', join(work, 'nonode'), '--no-service'], 30_000, { ...env(), PATH: empty });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain("Node.js 20 or later is required as 'node'");
    expect(existsSync(join(work, 'nonode'))).toBe(false);
  });

  it("a revoked deployment's installer exits 3 saying revoked", async () => {
    const d = await deployment();
    const dl = await download(`${d.download_url}?platform=linux`, 'installer-revoked.sh');
    expect((await t.http.delete(`/api/v3/agents/deployments/${d.id}/`).set(admin)).status).toBe(204);
    const res = await exec('sh', [dl.file, '--prefix', join(work, 'revoked'), '--no-service'], 60_000);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/revoked/);
    expect(existsSync(join(work, 'revoked', 'bin', 'rmm-agent'))).toBe(false);
  }, 90_000);

  it('an unknown uuid: the download itself is 404', async () => {
    const res = await fetch(`${t.url}/deploy/00000000-0000-4000-8000-000000000000?platform=linux`);
    expect(res.status).toBe(404);
  });

  it('windows: ?platform=windows and a PowerShell User-Agent get the PowerShell script', async () => {
    const d = await deployment();
    const ps = await download(`${d.download_url}?platform=windows`, 'installer.ps1');
    expect(ps.status).toBe(200);
    expect(ps.body).toContain(`$RmmServer = '${t.url}'`);
    expect(ps.body).toContain('Invoke-WebRequest');
    const byAgent = await download(d.download_url, 'installer-ua.ps1', { 'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.19045; en-US) WindowsPowerShell/5.1.19041.4648' });
    expect(byAgent.body).toBe(ps.body);
    const byCurl = await download(d.download_url, 'installer-curl.sh', { 'User-Agent': 'curl/8.5.0' });
    expect(byCurl.body.startsWith('#!/bin/sh\n')).toBe(true);
  });

  it('serves the agent bundle without a key', async () => {
    const res = await fetch(`${t.url}/agent/v1/rmm-agent.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('rmm-agent');
  });

  // last: it moves the clock past every deployment's expiry
  it("an expired deployment's installer exits 3 saying expired", async () => {
    const d = await deployment();
    const dl = await download(`${d.download_url}?platform=linux`, 'installer-expired.sh');
    clock.advance(2 * DAY_MS);
    const res = await exec('sh', [dl.file, '--prefix', join(work, 'expired'), '--no-service'], 60_000);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/expired/);
  }, 90_000);
});
