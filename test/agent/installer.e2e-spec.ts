import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { installCommands } from '../../apps/console/src/pages/install-commands';
import { FixedClock } from '../../apps/api/src/common/clock';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { AGENT_UPDATE_PUBLIC_KEY } from '../../apps/api/src/rmm/fleet/agent-binaries/agent-update-key';
import { fakeUname, linuxAmd64BinDir, manifestEntry, pathWithoutNode } from '../utils/agent-binaries';
import { exec as execIn, Finished } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * The download URL's installers as a device runs them: `sh installer.sh` (real processes, real curl/wget). On
 * this linux x86_64 machine the installer takes the agent's binary (linux-amd64) and needs no Node.js; a `uname`
 * reporting another CPU (riscv64: no binary) makes it take the Node.js agent, with this Node.
 */
const ADMIN = 'installer-e2e-admin-key-0123456789abcdef';
const HOSTNAME = 'installer-e2e-01';
const DAY_MS = 86_400_000;

const built = linuxAmd64BinDir();

describe('installers (real processes)', () => {
  let t: TestApp;
  let work: string;
  /** This file's RMM_AGENT_BIN_DIR: links to the built binary and its .gz, and its own manifest.json (a test may change it). */
  let bins: string;
  let riscv: string;
  const clock = new FixedClock();
  const admin = { 'X-API-KEY': ADMIN };
  const children: ChildProcess[] = [];
  /** Prefixes where an agent may run in the background (agent.pid, run.pid): killed after each test. */
  const backgrounds: string[] = [];
  // The Node.js agent's path: `uname` says riscv64 (no binary), `node` on the PATH is this Node (20+), as that path requires
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, PATH: `${riscv}${delimiter}${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, RMM_AGENT_HOSTNAME: HOSTNAME });

  /** Runs a command to its end, bounded: killed (and the test failed) after timeoutMs. */
  const exec = (cmd: string, args: string[], timeoutMs = 30_000, childEnv = env()): Promise<Finished> =>
    execIn(cmd, args, { env: childEnv, cwd: work, timeoutMs, onSpawn: (child) => children.push(child) });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rmm-installer-e2e-'));
    riscv = fakeUname(work, 'Linux', 'riscv64');
    bins = mkdtempSync(join(work, 'bins-'));
    for (const name of readdirSync(built)) {
      if (name === 'manifest.json') copyFileSync(join(built, name), join(bins, name));
      else linkSync(join(built, name), join(bins, name));
    }
    t = await startTestApp(
      { RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_AGENT_HEARTBEAT_SECONDS: '1', RMM_AGENT_BIN_DIR: bins },
      { clock },
    );
  });
  afterEach(async () => {
    for (const prefix of backgrounds.splice(0)) {
      for (const file of ['agent.pid', 'run.pid']) {
        const pid = Number(existsSync(join(prefix, file)) ? readFileSync(join(prefix, file), 'utf8').trim() : NaN);
        if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
      }
    }
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
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  /** What the server's bus says of one agent's presence from now on (agent.online, agent.offline), in order. */
  const presenceEvents = (agentId: string): { seen: string[]; off: () => void } => {
    const bus = t.server.app.get(RmmEvents);
    const seen: string[] = [];
    const offs = (['agent.online', 'agent.offline'] as const).map((name) => bus.on(name, (e) => void (String(e.agentId) === agentId && seen.push(name))));
    return { seen, off: () => offs.forEach((off) => off()) };
  };
  const agentRow = async (): Promise<Record<string, any> | undefined> => {
    const res = await t.http.get('/api/v3/agents/').query({ hostname: HOSTNAME }).set(admin);
    expect(res.status).toBe(200);
    return res.body[0];
  };

  it('without a binary for the machine: installs the Node.js agent, registers (0600 state), and bin/rmm-agent runs it online', async () => {
    const d = await deployment();
    // the download URL is under PUBLIC_URL, which is this test server
    const dl = await download(`${d.download_url}?platform=linux`, 'installer.sh');
    expect(dl.status).toBe(200);
    expect(dl.body).toContain(`RMM_SERVER='${t.url}'`);
    const prefix = join(work, 'prefix');
    const inst = await exec('sh', [dl.file, '--prefix', prefix, '--no-service'], 60_000);
    expect(inst).toMatchObject({ code: 0 });
    expect(inst.stderr).toContain('downloading the agent from');
    expect(inst.stderr).toContain('/agent/v1/rmm-agent.js');
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
    expect(status.stdout).toContain('channel: server reachable, credentials accepted');
    expect(status.stdout).toContain(`agent_id: ${row!.agent_id}`);
    // Issue #29 point 9: no command is wrong usage (64, the usage on stderr), also through the wrapper (which adds --prefix)
    const bare = await exec(wrapper, [], 15_000);
    expect(bare.code).toBe(64);
    expect(bare.stderr).toContain('no command given');
    expect(bare.stderr).toContain('rmm-agent start [--prefix DIR]');
    expect(bare.stderr).not.toContain('unknown command');
  }, 90_000);

  // Only where no service can be installed (no systemd running, or not root): never installs a unit on the test machine.
  const noServicePossible = process.platform === 'linux' && (!existsSync('/run/systemd/system') || process.getuid?.() !== 0);
  (noServicePossible ? it : it.skip)(
    '--no-start: registered, not started, "never connected" in the API; start runs it in the background, status and stop; a status of the stopped agent changes nothing',
    async () => {
      const d = await deployment();
      const dl = await download(`${d.download_url}?platform=linux`, 'installer-service.sh');
      const prefix = join(work, 'service');
      backgrounds.push(prefix);
      // a hostname of its own: one that has connected before (re-enrolled) would not be "never connected"
      const childEnv = { ...env(), RMM_AGENT_HOSTNAME: 'installer-e2e-nostart' };
      const ownRow = async (): Promise<Record<string, any> | undefined> => (await t.http.get('/api/v3/agents/').query({ hostname: 'installer-e2e-nostart' }).set(admin)).body[0];
      const res = await exec('sh', [dl.file, '--prefix', prefix, '--no-start'], 60_000, childEnv);
      expect(res.code).toBe(0);
      const wrapper = join(prefix, 'bin', 'rmm-agent');
      expect(res.stderr).toMatch(/not installing a service: (systemd is not running here|run as root)/);
      expect(res.stderr).toContain(`installed, not started (--no-start); start the agent with: ${wrapper} start`);
      // Issue #29 point 12: registered, never connected (the console shows it so), not "offline · never" alone
      const registered = (await ownRow())!;
      expect(registered).toMatchObject({ status: 'offline', last_seen: null, never_connected: true });
      const agentId = String(registered.agent_id);
      expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body).toMatchObject({ never_connected: true });
      const notYet = await exec(wrapper, ['status'], 15_000, childEnv);
      expect(notYet.code).toBe(3);
      expect(notYet.stdout).toContain('run process: none (not running)');
      expect(notYet.stderr).toContain(`start it with ${wrapper} start`);

      const started = await exec(wrapper, ['start'], 30_000, childEnv);
      expect(started.code).toBe(0);
      const pid = Number(readFileSync(join(prefix, 'agent.pid'), 'utf8').trim());
      expect(started.stderr).toContain(`started in the background: pid ${pid}, log ${join(prefix, 'agent.log')}`);
      expect(alive(pid)).toBe(true);
      await until('agent online', async () => (await ownRow())?.status === 'online');
      expect(await ownRow()).toMatchObject({ never_connected: false });
      const again = await exec(wrapper, ['start'], 30_000, childEnv);
      expect(again).toMatchObject({ code: 0, stderr: expect.stringContaining(`already running (pid ${pid})`) });
      const running = await exec(wrapper, ['status'], 15_000, childEnv);
      expect(running.code).toBe(0);
      expect(running.stdout).toContain(`run process: ${pid}\n`);
      expect(running.stdout).toContain('channel: server reachable, credentials accepted');

      const stopped = await exec(wrapper, ['stop'], 30_000, childEnv);
      expect(stopped).toMatchObject({ code: 0, stderr: expect.stringContaining(`stopped (pid ${pid})`) });
      expect(alive(pid)).toBe(false);
      expect(existsSync(join(prefix, 'agent.pid'))).toBe(false);
      expect(readFileSync(join(prefix, 'agent.log'), 'utf8')).toContain('connected to');
      await until('agent offline', async () => (await ownRow())?.status === 'offline');
      expect(await exec(wrapper, ['stop'], 30_000, childEnv)).toMatchObject({ code: 0, stderr: expect.stringContaining('not running') });

      // Issue #29 point 11: status of the stopped agent says so (exit 3) and changes nothing the console sees
      const before = await ownRow();
      const events = presenceEvents(agentId);
      try {
        const status = await exec(wrapper, ['status'], 15_000, childEnv);
        expect(status.code).toBe(3);
        expect(status.stdout).toContain('run process: none (not running)');
        expect(status.stdout).toContain('channel: server reachable, credentials accepted');
        expect(status.stdout).not.toContain('channel: connected');
        expect(await ownRow()).toEqual(before);
        // Started again: its agent.online is the first presence event since the status (a probe's online and offline would come first)
        expect((await exec(wrapper, ['start'], 30_000, childEnv)).code).toBe(0);
        await until('agent.online', async () => events.seen.length > 0);
        expect(events.seen).toEqual(['agent.online']);
      } finally {
        events.off();
      }
      expect((await exec(wrapper, ['stop'], 30_000, childEnv)).code).toBe(0);
    },
    90_000,
  );

  it('an installer with bad options says so (64)', async () => {
    const d = await deployment();
    const dl = await download(`${d.download_url}?platform=linux`, 'installer-usage.sh');
    const res = await exec('sh', [dl.file, '--bogus']);
    expect(res.code).toBe(64);
    expect(res.stderr).toContain('unknown option: --bogus');
  });

  it('a device with neither a binary target nor Node.js: exit 4 with a clear message, nothing installed', async () => {
    const d = await deployment();
    const dl = await download(`${d.download_url}?platform=linux`, 'installer-nonode.sh');
    // nothing on the PATH but the riscv64 uname
    const res = await exec('/bin/sh', [dl.file, '--prefix', join(work, 'nonode'), '--no-service'], 30_000, { ...env(), PATH: riscv });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain("no agent binary for this machine (Linux riscv64): Node.js 20 or later is required as 'node'");
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

  describe('the agent binary (no Node.js)', () => {
    /** A PATH with no node (checked), and with `drop` left out too. */
    const noNodeEnv = (hostname: string, drop: string[] = []): NodeJS.ProcessEnv => {
      const path = pathWithoutNode(work, drop);
      const probe = spawnSync('/bin/sh', ['-c', 'command -v node'], { env: { PATH: path }, encoding: 'utf8' });
      expect(probe.status).not.toBe(0);
      for (const tool of drop) expect(spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { env: { PATH: path } }).status).not.toBe(0);
      return { ...process.env, PATH: path, RMM_AGENT_HOSTNAME: hostname };
    };
    const rowOf = async (hostname: string): Promise<Record<string, any> | undefined> => (await t.http.get('/api/v3/agents/').query({ hostname }).set(admin)).body[0];
    const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
    /** What the installer leaves in bin/: only rmm-agent (no download or header file left behind). */
    const binFiles = (prefix: string): string[] => (existsSync(join(prefix, 'bin')) ? readdirSync(join(prefix, 'bin')).sort() : []);

    it('installs the linux-amd64 binary, checked, with no Node.js anywhere; it registers with the update key, runs online and runs a script', async () => {
      const hostname = 'installer-e2e-bin';
      const d = await deployment();
      const dl = await download(`${d.download_url}?platform=linux`, 'installer-bin.sh');
      const key = t.server.app.get<string>(AGENT_UPDATE_PUBLIC_KEY);
      expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(dl.body).toContain(`\nRMM_UPDATE_KEY='${key}'\n`);
      const prefix = join(work, 'bin-prefix');
      const childEnv = noNodeEnv(hostname);
      const inst = await exec('sh', [dl.file, '--prefix', prefix, '--no-service'], 120_000, childEnv);
      expect(inst.stderr).toContain(`downloading the agent for linux-amd64 from ${t.url}/agent/v1/download/linux-amd64`);
      expect(inst).toMatchObject({ code: 0 });
      const agentBin = join(prefix, 'bin', 'rmm-agent');
      expect(inst.stderr).toContain(`installed; start the agent with: ${agentBin} start (in the background), or ${agentBin} run (in the foreground)`);
      expect(sha256(agentBin)).toBe(manifestEntry(bins, 'linux-amd64').sha256);
      expect(statSync(agentBin).mode & 0o777).toBe(0o755);
      expect(binFiles(prefix)).toEqual(['rmm-agent']);
      expect(existsSync(join(prefix, 'lib'))).toBe(false);
      expect(statSync(join(prefix, 'state.json')).mode & 0o777).toBe(0o600);
      const state = JSON.parse(readFileSync(join(prefix, 'state.json'), 'utf8')) as Record<string, unknown>;
      // The agent of issue 22 keeps the key (`register --update-key`); the agent before it ignores the option.
      expect(state.update_key).toBe(key);
      const row = await rowOf(hostname);
      expect(row).toMatchObject({ hostname, plat: 'linux' });
      expect(inst.stderr).toContain(`registered as agent ${row!.agent_id}`);

      // Issue #29 point 10: the binary takes its prefix from where it is (<prefix>/bin/rmm-agent), not /opt/rmm-agent
      const agent = spawn(agentBin, ['run'], { env: childEnv, cwd: work });
      children.push(agent);
      let out = '';
      agent.stderr!.on('data', (c) => (out += c));
      await until(`agent online\n${out}`, async () => (await rowOf(hostname))?.status === 'online');
      const status = await exec(agentBin, ['status'], 15_000, childEnv);
      expect(status.stderr).toBe('');
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(`agent_id: ${row!.agent_id}\nserver: ${t.url}\nprefix: ${prefix}\nrun process: ${agent.pid}\n`);
      // Issue #29 point 9: the binary with no command: the usage, 64
      const bare = await exec(agentBin, [], 15_000, childEnv);
      expect(bare).toMatchObject({ code: 64, stdout: '', stderr: expect.stringContaining('no command given') });
      const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'installer-e2e-echo', shell: 'bash', body: 'echo "hello $1"' });
      expect(script.status).toBe(201);
      const run = await t.http.post(`/api/v3/agents/${row!.agent_id}/runscript/`).set(admin).send({ script: script.body.id, args: ['binary'], timeout: 20 });
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ stdout: 'hello binary\n', retcode: 0, timed_out: false });
    }, 180_000);

    // Issue #29 point 12, the quick start without systemd: the console's command, as copied, run as root where there is no sudo
    (process.getuid?.() === 0 && noServicePossible ? it : it.skip)(
      "the console's Linux one-liner as root, without systemd or sudo: installs, starts the agent in the background, online; bin/rmm-agent status, stop and uninstall need no --prefix",
      async () => {
        const hostname = 'installer-e2e-oneliner';
        const d = await deployment();
        const command = installCommands(d.download_url).find((c) => c.platform === 'linux')!.command;
        expect(command).toBe(
          `curl -fsSL '${d.download_url}?platform=linux' -o rmm-agent-install.sh && if [ "$(id -u)" = 0 ]; then sh rmm-agent-install.sh; else sudo sh rmm-agent-install.sh; fi`,
        );
        const prefix = join(work, 'oneliner');
        backgrounds.push(prefix);
        const cwd = mkdtempSync(join(work, 'oneliner-cwd-'));
        // The test's one change to it: a prefix of its own (the command installs into /opt/rmm-agent)
        const withPrefix = command.replaceAll('sh rmm-agent-install.sh', `sh rmm-agent-install.sh --prefix '${prefix}'`);
        const childEnv = noNodeEnv(hostname, ['sudo']);
        const r = await execIn('sh', ['-c', withPrefix], { env: childEnv, cwd, timeoutMs: 120_000, onSpawn: (child) => children.push(child) });
        expect(r.stderr).toContain('not installing a service: systemd is not running here');
        expect(r.code).toBe(0);
        const agentBin = join(prefix, 'bin', 'rmm-agent');
        expect(r.stderr).toContain(`installed and started in the background (log ${prefix}/agent.log); it does not start again at boot: ${agentBin} status, ${agentBin} stop`);
        const pid = Number(readFileSync(join(prefix, 'agent.pid'), 'utf8').trim());
        await until('agent online', async () => (await rowOf(hostname))?.status === 'online');
        const row = (await rowOf(hostname))!;
        expect(row).toMatchObject({ never_connected: false });

        const status = await exec(agentBin, ['status'], 15_000, childEnv);
        expect(status.code).toBe(0);
        expect(status.stdout).toContain(`agent_id: ${row.agent_id}\nserver: ${t.url}\nprefix: ${prefix}\nrun process: ${pid}\n`);
        const stopped = await exec(agentBin, ['stop'], 30_000, childEnv);
        expect(stopped).toMatchObject({ code: 0, stderr: expect.stringContaining(`stopped (pid ${pid})`) });
        await until('agent offline', async () => (await rowOf(hostname))?.status === 'offline');
        expect((await exec(agentBin, ['status'], 15_000, childEnv)).code).toBe(3);
        const removed = await exec(agentBin, ['uninstall'], 30_000, childEnv);
        expect(removed.code).toBe(0);
        expect(existsSync(join(prefix, 'state.json'))).toBe(false);
        expect(binFiles(prefix)).toEqual([]);
      },
      180_000,
    );

    it('with wget and openssl only (no curl, sha256sum or shasum): the same binary, checked', async () => {
      const hostname = 'installer-e2e-wget';
      const d = await deployment();
      const dl = await download(`${d.download_url}?platform=linux`, 'installer-wget.sh');
      const prefix = join(work, 'wget-prefix');
      const inst = await exec('sh', [dl.file, '--prefix', prefix, '--no-service'], 120_000, noNodeEnv(hostname, ['curl', 'sha256sum', 'shasum']));
      expect(inst).toMatchObject({ code: 0 });
      expect(sha256(join(prefix, 'bin', 'rmm-agent'))).toBe(manifestEntry(bins, 'linux-amd64').sha256);
      expect(binFiles(prefix)).toEqual(['rmm-agent']);
      expect(await rowOf(hostname)).toMatchObject({ hostname });
    }, 180_000);

    it('a binary that does not match its checksum is refused: exit 1, nothing installed, nothing registered', async () => {
      const hostname = 'installer-e2e-damaged';
      const file = join(bins, 'rmm-agent-linux-amd64');
      const manifest = readFileSync(join(bins, 'manifest.json'), 'utf8');
      const good = readFileSync(file);
      try {
        // the file on disk damaged (same size), its gzip dropped from the manifest: the server still says the good checksum
        const bad = Buffer.from(good);
        bad[bad.length >> 1] ^= 0xff;
        unlinkSync(file);
        writeFileSync(file, bad);
        const m = JSON.parse(manifest) as { targets: Record<string, { gzip?: unknown }> };
        delete m.targets['linux-amd64'].gzip;
        writeFileSync(join(bins, 'manifest.json'), JSON.stringify(m));
        const d = await deployment();
        const dl = await download(`${d.download_url}?platform=linux`, 'installer-damaged.sh');
        const prefix = join(work, 'damaged-prefix');
        const inst = await exec('sh', [dl.file, '--prefix', prefix, '--no-service'], 120_000, noNodeEnv(hostname));
        expect(inst.code).toBe(1);
        expect(inst.stderr).toContain('the downloaded agent is damaged');
        expect(inst.stderr).toContain(`the server says ${manifestEntry(bins, 'linux-amd64').sha256}`);
        expect(binFiles(prefix)).toEqual([]);
        expect(existsSync(join(prefix, 'state.json'))).toBe(false);
        expect(await rowOf(hostname)).toBeUndefined();
      } finally {
        unlinkSync(file);
        linkSync(join(built, 'rmm-agent-linux-amd64'), file);
        writeFileSync(join(bins, 'manifest.json'), manifest);
      }
    }, 180_000);

    it("a revoked deployment's installer exits 3 and leaves no binary behind", async () => {
      const d = await deployment();
      const dl = await download(`${d.download_url}?platform=linux`, 'installer-bin-revoked.sh');
      expect((await t.http.delete(`/api/v3/agents/deployments/${d.id}/`).set(admin)).status).toBe(204);
      const prefix = join(work, 'bin-revoked');
      const res = await exec('sh', [dl.file, '--prefix', prefix, '--no-service'], 120_000, noNodeEnv('installer-e2e-bin-revoked'));
      expect(res.code).toBe(3);
      expect(res.stderr).toMatch(/revoked/);
      expect(binFiles(prefix)).toEqual([]);
    }, 180_000);
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
