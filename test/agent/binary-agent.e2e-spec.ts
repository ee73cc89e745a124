import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linuxAmd64BinDir, pathWithoutNode, VERSION } from '../utils/agent-binaries';
import { Subscriber } from '../utils/events-subscriber';
import { exec, ROOT } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { until } from '../utils/wait';

/**
 * Issue 22, end to end with real processes against the real server: the linux-amd64 binary installed by the real
 * installer with no Node.js on the device, registering, connecting, running a script and a check; then, as the
 * server is restarted with newer agent versions (RMM_AGENT_VERSION; the binaries built by the server on first use
 * or by the build script), the running binary updates itself (agent.updated with the new version), refuses a
 * tampered binary (agent.update_failed), and rolls back a version that cannot connect.
 * The server is reached through a small proxy on 127.0.0.1 (the agent's server URL), which can refuse the
 * WebSocket upgrades of one agent version: "a new version that cannot connect".
 */
const ADMIN = 'binary-agent-e2e-admin-key-0123456789';
const HOSTNAME = 'binary-agent-e2e-01';
const [MAJOR, MINOR, PATCH] = VERSION.split('.').map(Number);
const next = (n: number): string => `${MAJOR}.${MINOR}.${PATCH + n}`;

describe('the single-file agent, installed, updated and rolled back (real processes, real server)', () => {
  let db: TestDatabase;
  let t: TestApp | undefined;
  let work: string;
  let proxy: Server;
  let proxyUrl: string;
  let serverPort = 0;
  /** Upgrades whose User-Agent names this agent version are refused (503). */
  let refuseVersion: string | null = null;
  const sockets = new Set<Socket>();
  const children: ChildProcess[] = [];
  let prefix: string;
  let agentId: string;
  let agentLog = '';
  const admin = { 'X-API-KEY': ADMIN };

  /** (Re)starts the server on the same port and database, offering agent `version` from `binDir`. */
  const serve = async (version: string, binDir: string): Promise<TestApp> => {
    await t?.close();
    t = await startTestApp(
      {
        RMM_ADMIN_API_KEY: ADMIN,
        PUBLIC_URL: proxyUrl,
        RMM_AGENT_VERSION: version,
        RMM_AGENT_BIN_DIR: binDir,
        RMM_AGENT_HEARTBEAT_SECONDS: '1',
        RMM_RATE_LIMIT_PER_MINUTE: '100000',
        RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
      },
      { db, port: serverPort, overrides: { agentBuild: true } },
    );
    serverPort = Number(new URL(t.url).port);
    return t;
  };
  const agentRow = async (): Promise<Record<string, any>> => (await t!.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body;
  const buildInto = async (version: string): Promise<string> => {
    const dir = mkdtempSync(join(work, `bin-${version}-`));
    const r = await exec(process.execPath, [join(ROOT, 'scripts/build-agent.js'), '--binaries', '--target', 'linux-amd64', '--version', version, '--out', dir], {
      env: process.env,
      cwd: ROOT,
      timeoutMs: 180_000,
    });
    expect(r).toMatchObject({ code: 0 });
    return dir;
  };
  const agentPids = (): number[] => {
    const pids: number[] = [];
    try {
      pids.push(Number(readFileSync(join(prefix, 'run.pid'), 'utf8').trim()));
    } catch {
      /* none written */
    }
    for (const c of children) if (c.pid && c.exitCode === null && c.signalCode === null) pids.push(c.pid);
    return pids.filter((p) => Number.isInteger(p) && p > 0);
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rmm-binary-agent-e2e-'));
    db = await createTestDatabase();
    proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
      const up = request({ host: '127.0.0.1', port: serverPort, method: req.method, path: req.url, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.writeHead(502).end());
      req.pipe(up);
    });
    proxy.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => undefined);
      if (refuseVersion && String(req.headers['user-agent'] ?? '').includes(`rmm-agent/${refuseVersion}`)) {
        client.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      const upstream = connect(serverPort, '127.0.0.1', () => {
        const lines = [`${req.method} ${req.url} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    for (const pid of agentPids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await t?.close();
    for (const s of sockets) s.destroy();
    await new Promise((r) => proxy?.close(r));
    await db?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('installs with the real installer and no Node.js, registers, connects, runs a script and a check', async () => {
    await serve(VERSION, linuxAmd64BinDir());
    const d = await t!.http.post('/api/v3/agents/deployments/').set(admin).send({ client: t!.server.runtime.rmmDefaultClientId, site: t!.server.runtime.rmmDefaultSiteId });
    expect(d.status).toBe(201);
    const installer = await fetch(`${d.body.download_url}?platform=linux`);
    expect(installer.status).toBe(200);
    writeFileSync(join(work, 'install.sh'), await installer.text());
    const path = pathWithoutNode(work);
    expect(spawnSync('/bin/sh', ['-c', 'command -v node'], { env: { PATH: path } }).status).not.toBe(0);
    const env = { PATH: path, HOME: work, RMM_AGENT_HOSTNAME: HOSTNAME, RMM_AGENT_UPDATE_DEADLINE_SECONDS: '15' };
    prefix = join(work, 'opt-rmm-agent');
    const inst = await exec('sh', [join(work, 'install.sh'), '--prefix', prefix, '--no-service'], { env, cwd: work, timeoutMs: 120_000 });
    expect(inst).toMatchObject({ code: 0 });
    const bin = join(prefix, 'bin', 'rmm-agent');
    expect(readFileSync(bin).subarray(0, 4).toString('latin1')).toBe('\x7fELF'); // an executable, not a script
    expect(spawnSync(bin, ['--version'], { env, encoding: 'utf8' }).stdout.trim()).toBe(VERSION);

    const agent = spawn(bin, ['run', '--prefix', prefix], { env, cwd: work, detached: true });
    children.push(agent);
    agent.stderr!.on('data', (c: Buffer) => (agentLog += c.toString()));
    agentId = (await t!.http.get('/api/v3/agents/').query({ hostname: HOSTNAME }).set(admin)).body[0].agent_id;
    await until(`agent online\n${agentLog}`, async () => (await agentRow()).status === 'online', 30_000);
    expect(await agentRow()).toMatchObject({ version: VERSION, plat: 'linux' });

    const script = await t!.http.post('/api/v3/scripts/').set(admin).send({ name: 'binary-agent-echo', shell: 'bash', body: 'echo "from the binary $1"; command -v node || echo no-node' });
    const run = await t!.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: script.body.id, args: ['agent'], timeout: 20 });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ stdout: 'from the binary agent\nno-node\n', retcode: 0 });
    const check = await t!.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, check_type: 'diskspace', settings: { drive: '/', threshold_percent: 1 }, run_interval: 3600 });
    expect(check.status).toBe(201);
    await until('the check ran on the binary agent', async () => {
      const c = (await t!.http.get(`/api/v3/checks/${check.body.id}/`).set(admin)).body;
      return c.status === 'passing' && c.last_run !== null;
    }, 30_000);
  }, 240_000);

  it('a newer server version (built by the server on first use): the running binary updates itself and comes back on it', async () => {
    const v1 = next(1);
    await serve(v1, mkdtempSync(join(work, 'lazy-bins-'))); // empty: the server builds the binary of v1 when it offers it
    const events = await Subscriber.connect(`${t!.url.replace(/^http/, 'ws')}/rmm/${agentId}/`, { headers: admin });
    try {
      expect(await events.next('agent.updating', 180_000)).toMatchObject({ data: { from_version: VERSION, to_version: v1 } });
      await until(`agent.updated with version ${v1}\n${agentLog}`, async () => events.messages.some((m) => m.event === 'agent.updated' && m.data.version === v1), 90_000);
    } finally {
      events.ws.terminate();
    }
    // agent.updated comes from the new version on trial; the installed one (after the swap and a restart) connects again
    const installed = (): string => (agentLog.includes(`${v1} connected on trial and is installed`) ? agentLog.slice(agentLog.indexOf(`${v1} connected on trial and is installed`)) : '');
    await until(`the new version installed and online\n${agentLog}`, async () => /\d+ online; heartbeat/.test(installed()) && (await agentRow()).status === 'online', 60_000);
    expect(await agentRow()).toMatchObject({ version: v1, status: 'online' });
    expect(spawnSync(join(prefix, 'bin', 'rmm-agent'), ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(v1);
    expect(spawnSync(join(prefix, 'bin', 'rmm-agent.previous'), ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(VERSION);
    await until('update.json gone', async () => !existsSync(join(prefix, 'update.json')));
    const updates = (await t!.http.get('/api/v3/agents/updates/').set(admin)).body;
    expect(updates).toMatchObject({ version: v1, updates: { done: 1, running: 0, failed: 0 } });
    // it still runs scripts, as the new version
    const script = await t!.http.post('/api/v3/scripts/').set(admin).send({ name: 'binary-agent-after-update', shell: 'bash', body: 'echo updated' });
    const run = await t!.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: script.body.id, timeout: 20 });
    expect(run.body).toMatchObject({ stdout: 'updated\n', retcode: 0 });
  }, 360_000);

  it('a tampered binary (same size, one byte changed) is refused: agent.update_failed, the agent stays on its version', async () => {
    const v1 = next(1);
    const v2 = next(2);
    const dir = await buildInto(v2);
    const file = join(dir, 'rmm-agent-linux-amd64');
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] ^= 0xff;
    writeFileSync(file, bytes);
    rmSync(`${file}.gz`); // (the server then serves the tampered file itself)
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    delete manifest.targets['linux-amd64'].gzip;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(createHash('sha256').update(bytes).digest('hex')).not.toBe(manifest.targets['linux-amd64'].sha256);
    await serve(v2, dir);
    const events = await Subscriber.connect(`${t!.url.replace(/^http/, 'ws')}/rmm/${agentId}/`, { headers: admin });
    try {
      const failed = await events.next('agent.update_failed', 120_000);
      expect(failed.data.version).toBe(v2);
      expect(failed.data.error).toMatch(/sha-?256/i);
    } finally {
      events.ws.terminate();
    }
    expect(await agentRow()).toMatchObject({ version: v1, status: 'online' });
    expect(spawnSync(join(prefix, 'bin', 'rmm-agent'), ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(v1);
    expect((await t!.http.get('/api/v3/agents/updates/').set(admin)).body.updates).toMatchObject({ failed: 1, running: 0 });
  }, 360_000);

  it('a new version that cannot connect is rolled back: the previous binary comes back and reports update.failed', async () => {
    const v1 = next(1);
    const v3 = next(3);
    const dir = await buildInto(v3);
    refuseVersion = v3;
    await serve(v3, dir);
    const events = await Subscriber.connect(`${t!.url.replace(/^http/, 'ws')}/rmm/${agentId}/`, { headers: admin });
    try {
      expect(await events.next('agent.updating', 120_000)).toMatchObject({ data: { to_version: v3 } });
      const failed = await events.next('agent.update_failed', 120_000);
      expect(failed.data).toMatchObject({ version: v3 });
      expect(failed.data.error).toContain('did not connect');
    } finally {
      events.ws.terminate();
      refuseVersion = null;
    }
    await until('the agent online again', async () => (await agentRow()).status === 'online', 30_000);
    expect(await agentRow()).toMatchObject({ version: v1 });
    expect(spawnSync(join(prefix, 'bin', 'rmm-agent'), ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(v1);
    expect((await t!.http.get('/api/v3/agents/updates/').set(admin)).body.recent_failures[0]).toMatchObject({ agent_id: agentId, version: v3 });
  }, 360_000);

  it('U1: a new "binary" that prints its version and sleeps is rolled back within the deadline plus the reconnect: the previous version online, the update failed with the reason', async () => {
    const v1 = next(1);
    const v4 = next(4);
    // what a broken build looks like to the agent: the right version to --version, then nothing (no start-up code)
    const dir = mkdtempSync(join(work, `bin-${v4}-fake-`));
    const fake = Buffer.from(`#!/bin/sh\nif [ "$1" = --version ]; then echo ${v4}; exit 0; fi\nexec sleep 600\n`);
    writeFileSync(join(dir, 'rmm-agent-linux-amd64'), fake, { mode: 0o755 });
    const sha256 = createHash('sha256').update(fake).digest('hex');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: v4, targets: { 'linux-amd64': { file: 'rmm-agent-linux-amd64', size: fake.length, sha256 } } }));
    await serve(v4, dir);
    const events = await Subscriber.connect(`${t!.url.replace(/^http/, 'ws')}/rmm/${agentId}/`, { headers: admin });
    let offeredAt: number;
    try {
      expect(await events.next('agent.updating', 120_000)).toMatchObject({ data: { to_version: v4 } });
      offeredAt = Date.now();
      const failed = await events.next('agent.update_failed', 120_000);
      expect(failed.data).toEqual({ version: v4, error: `${v4} did not connect within 15 s` });
    } finally {
      events.ws.terminate();
    }
    await until('the previous version online again', async () => (await agentRow()).status === 'online', 30_000);
    // the bound: 120 s (15 s here, RMM_AGENT_UPDATE_DEADLINE_SECONDS) plus the time to reconnect
    expect(Date.now() - offeredAt!).toBeLessThan(15_000 + 30_000);
    expect(await agentRow()).toMatchObject({ version: v1 });
    expect(spawnSync(join(prefix, 'bin', 'rmm-agent'), ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(v1);
    expect(existsSync(join(prefix, 'bin', 'rmm-agent.download'))).toBe(false);
    const updates = (await t!.http.get('/api/v3/agents/updates/').set(admin)).body;
    expect(updates.updates).toMatchObject({ failed: 1, running: 0 });
    expect(updates.recent_failures[0]).toMatchObject({ agent_id: agentId, version: v4, error: `${v4} did not connect within 15 s` });
  }, 360_000);
});
