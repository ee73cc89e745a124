import { ChildProcess, spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import WebSocket, { WebSocketServer } from 'ws';
import { SYSTEMD_UNIT } from '../../apps/agent/src/uninstall';
import { exec, ROOT } from '../utils/processes';
import { until } from '../utils/wait';

// The agent's self-update, update key, --service and uninstall with REAL single-file binaries (Bun --compile,
// two versions built here) against a scripted server: a plain HTTP + `ws` server in the test plays the RMM
// server (registration, the channel, the download), so that it can offer updates, serve tampered bytes and
// refuse a version's connections on demand.

const TARGET = 'linux-amd64';
const OLD = '0.1.0';
const NEW = '0.1.1';
const CAN_RUN = process.platform === 'linux' && process.arch === 'x64';
if (!CAN_RUN) process.stderr.write(`self-update.e2e-spec: skipped: runs linux-amd64 binaries, this is ${process.platform}-${process.arch}\n`);

/** Builds the linux-amd64 agent binary of `version` into `outDir` with the build script; answers its path. */
async function buildBinary(version: string, outDir: string): Promise<string> {
  const r = await exec(process.execPath, [join(ROOT, 'scripts/build-agent.js'), '--binaries', '--target', TARGET, '--version', version, '--out', outDir], {
    env: process.env,
    cwd: ROOT,
    timeoutMs: 180_000,
  });
  if (r.code !== 0) throw new Error(`agent build failed (${r.code}): ${r.stderr}${r.stdout}`);
  return join(outDir, `rmm-agent-${TARGET}`);
}

interface Connection {
  ws: WebSocket;
  userAgent: string;
  messages: any[];
  closed?: number;
  openedAt: number;
  closedAt?: number;
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const rawPublicKey = (key: KeyObject): string => key.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');

(CAN_RUN ? describe : describe.skip)('agent binaries: self-update, update key, --service, uninstall (scripted server)', () => {
  let work: string;
  let binOld: string;
  let binNew: string;
  let http: Server;
  let wss: WebSocketServer;
  let server: string;
  const keys = generateKeyPairSync('ed25519');
  const otherKeys = generateKeyPairSync('ed25519');
  const updateKey = rawPublicKey(keys.publicKey);

  // what the scripted server does
  let connections: Connection[] = [];
  let downloads: Array<{ acceptEncoding: string; gzip: boolean }> = [];
  /** The bytes GET /agent/v1/download/linux-amd64 answers. */
  let served: Buffer = Buffer.alloc(0);
  /** Upgrades from an agent whose User-Agent contains this are refused (503). */
  let refuse: string | undefined;
  let refused = 0;

  const children: ChildProcess[] = [];
  const prefixes: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rmm-self-update-'));
    [binOld, binNew] = await Promise.all([buildBinary(OLD, join(work, 'build-old')), buildBinary(NEW, join(work, 'build-new'))]);
    http = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/agent/v1/register') {
        req.resume();
        req.on('end', () => {
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ agent_id: '7', agent_secret: 'agt_scripted', hostname: 'scripted', client: 1, site: 1, reenrolled: false }));
        });
        return;
      }
      if (req.method === 'GET' && req.url === `/agent/v1/download/${TARGET}`) {
        const acceptEncoding = String(req.headers['accept-encoding'] ?? '');
        const gzip = /\bgzip\b/.test(acceptEncoding);
        downloads.push({ acceptEncoding, gzip });
        const body = gzip ? gzipSync(served, { level: 1 }) : served;
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length, ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
        res.end(body);
        return;
      }
      res.writeHead(404).end();
    });
    wss = new WebSocketServer({
      server: http,
      path: '/agent/v1/ws',
      verifyClient: (info: { req: IncomingMessage }, cb: (ok: boolean, code?: number) => void) => {
        if (refuse && String(info.req.headers['user-agent'] ?? '').includes(refuse)) {
          refused++;
          return cb(false, 503);
        }
        cb(true);
      },
    });
    wss.on('connection', (ws, req) => {
      const c: Connection = { ws, userAgent: String(req.headers['user-agent'] ?? ''), messages: [], openedAt: Date.now() };
      ws.on('message', (d) => c.messages.push(JSON.parse(d.toString())));
      ws.on('close', (code) => {
        c.closed = code;
        c.closedAt = Date.now();
      });
      connections.push(c);
      ws.send(JSON.stringify({ type: 'hello', agent_id: '7', heartbeat_seconds: 1, server_time: new Date().toISOString() }));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    server = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  }, 180_000);

  afterEach(async () => {
    // the test's own children, then whatever process of this agent runs now (a respawned one writes run.pid)
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const prefix of prefixes.splice(0)) {
      for (const file of ['run.pid', 'agent.pid', 'trial.pid']) {
        try {
          process.kill(Number(readFileSync(join(prefix, file), 'utf8').trim()), 'SIGKILL');
        } catch {
          /* none, or gone */
        }
      }
    }
    for (const c of connections) c.ws.terminate();
    connections = [];
    downloads = [];
    refuse = undefined;
    refused = 0;
  });

  afterAll(async () => {
    wss?.close();
    await new Promise((r) => (http ? http.close(r) : r(undefined)));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A prefix as the installer leaves it: bin/rmm-agent (the old version) registered with the update key. */
  const install = async (name: string, key: string | null = updateKey): Promise<string> => {
    const prefix = join(work, name);
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    linkSync(binOld, join(prefix, 'bin', 'rmm-agent')); // (a hard link: the agent renames, never rewrites, it)
    prefixes.push(prefix);
    const reg = await exec(join(prefix, 'bin', 'rmm-agent'), ['register', '--server', server, '--token', '00000000-0000-4000-8000-000000000000', '--prefix', prefix, ...(key ? ['--update-key', key] : [])], {
      env: process.env,
      cwd: work,
      timeoutMs: 30_000,
    });
    expect(reg).toMatchObject({ code: 0, stdout: '7\n' });
    return prefix;
  };

  const start = (prefix: string, extra: string[] = [], env: Record<string, string> = {}) => {
    const child = spawn(join(prefix, 'bin', 'rmm-agent'), ['run', ...extra, '--prefix', prefix], { env: { ...process.env, ...env }, cwd: work });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    let exitedAt: number | undefined;
    const exited = new Promise<number | null>((r) =>
      child.on('exit', (code) => {
        exitedAt = Date.now();
        r(code);
      }),
    );
    return { child, exited, output: () => out, exitedAt: () => exitedAt };
  };

  /** The next connection (from index `from`) whose first heartbeat reports `version`. */
  const connected = (version: string, from = 0, what = `a connection of ${version}`, timeoutMs = 20_000): Promise<Connection> =>
    until(
      what,
      async () => connections.slice(from).find((c) => c.closed === undefined && c.messages.some((m) => m.type === 'heartbeat' && m.facts?.version === version)),
      timeoutMs,
    );

  /** The next connection (from index `from`), open or closed since, whose first heartbeat reported `version` (a trial's is short). */
  const seen = (version: string, from: number, what: string, timeoutMs = 60_000): Promise<Connection> =>
    until(what, async () => connections.slice(from).find((c) => c.messages.some((m) => m.type === 'heartbeat' && m.facts?.version === version)), timeoutMs);

  const offer = (over: Record<string, unknown> = {}, signer: KeyObject = keys.privateKey, binary: Buffer = readFileSync(binNew)) => {
    const m = { type: 'update.available', version: NEW, target: TARGET, url: `/agent/v1/download/${TARGET}`, sha256: sha256(binary), size: binary.length, ...over };
    const text = `rmm-agent-update:v1:${String(m.target)}:${String(m.version)}:${String(m.sha256)}`;
    return { ...m, signature: sign(null, Buffer.from(text), signer).toString('base64'), ...(over.signature ? { signature: over.signature } : {}) };
  };

  const version = async (binary: string): Promise<string> => (await exec(binary, ['--version'], { env: process.env, cwd: work, timeoutMs: 20_000 })).stdout.trim();
  const runPid = (prefix: string): number | undefined => {
    try {
      return Number(readFileSync(join(prefix, 'run.pid'), 'utf8').trim()) || undefined;
    } catch {
      return undefined;
    }
  };
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('registers with --update-key (stored in state.json), refuses a key that is not 32 bytes of base64 (64), and reports its target', async () => {
    const prefix = await install('register');
    expect(JSON.parse(readFileSync(join(prefix, 'state.json'), 'utf8'))).toEqual({ server, agent_id: '7', agent_secret: 'agt_scripted', update_key: updateKey });
    const bad = await exec(join(prefix, 'bin', 'rmm-agent'), ['register', '--server', server, '--token', 'x', '--prefix', join(work, 'register-bad'), '--update-key', Buffer.alloc(31).toString('base64')], {
      env: process.env,
      cwd: work,
    });
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--update-key must be the base64 of a 32-byte Ed25519 public key');
    expect(existsSync(join(work, 'register-bad'))).toBe(false);

    // a flag without a value parses; the first heartbeat carries update_target, the upgrade a User-Agent
    const agent = start(prefix, ['--service']);
    const c = await connected(OLD);
    expect(c.messages.find((m) => m.type === 'heartbeat').facts).toMatchObject({ version: OLD, update_target: TARGET });
    expect(c.userAgent).toBe(`rmm-agent/${OLD} (${TARGET})`);
    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);

    // no update key: no update_target, and an offer is ignored (nothing downloaded, nothing answered)
    const keyless = await install('keyless', null);
    const seen = connections.length;
    start(keyless);
    const k = await connected(OLD, seen);
    expect(k.messages.find((m) => m.type === 'heartbeat').facts).not.toHaveProperty('update_target');
    served = readFileSync(binNew);
    k.ws.send(JSON.stringify(offer()));
    k.ws.send(JSON.stringify({ type: 'script.run', id: 'r1', runId: 1, shell: 'bash', body: 'echo after', args: [], timeoutSeconds: 5 }));
    await until('the script after the offer to answer', async () => k.messages.find((m) => m.type === 'result'));
    expect(downloads).toEqual([]);
    expect(k.messages.filter((m) => m.type === 'update.failed')).toEqual([]);
  });

  it('updates itself: downloads (gzip), checks, runs the new version on trial while disconnected, swaps once it connected, restarts on it; the previous binary is kept', async () => {
    const prefix = await install('good');
    served = readFileSync(binNew);
    const old = start(prefix, [], { RMM_AGENT_UPDATE_DEADLINE_SECONDS: '60' });
    const first = await connected(OLD);
    first.ws.send(JSON.stringify(offer()));

    // the trial: the old version closes its connection first (one connection per agent), then the new one connects
    const trial = await seen(NEW, 1, 'the new version on trial');
    expect(first.closed).toBe(1000);
    expect(first.closedAt!).toBeLessThanOrEqual(trial.openedAt); // never two connections of one agent at once
    expect(await old.exited).toBe(0); // then swapped, started the new binary and left
    expect(old.exitedAt()!).toBeGreaterThanOrEqual(trial.openedAt); // (it supervised the trial until then)
    expect(await until('the trial connection to close', async () => trial.closed)).toBe(1000);
    const second = await connected(NEW, connections.indexOf(trial) + 1, 'the new version, installed');
    expect(second.messages.find((m) => m.type === 'heartbeat').facts).toMatchObject({ version: NEW, update_target: TARGET });
    expect(second.userAgent).toBe(`rmm-agent/${NEW} (${TARGET})`);
    expect(downloads).toEqual([{ acceptEncoding: expect.stringContaining('gzip'), gzip: true }]);

    const pid = runPid(prefix);
    expect(pid).toBeDefined();
    expect(pid).not.toBe(old.child.pid);
    expect(alive(pid!)).toBe(true);
    expect(existsSync(join(prefix, 'update.json'))).toBe(false);
    expect(await version(join(prefix, 'bin', 'rmm-agent'))).toBe(NEW);
    expect(await version(join(prefix, 'bin', 'rmm-agent.previous'))).toBe(OLD);
    expect(statSync(join(prefix, 'bin', 'rmm-agent')).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(prefix, 'bin')).sort()).toEqual(['rmm-agent', 'rmm-agent.previous']);
    expect(old.output()).toContain(`${NEW} connected on trial and is installed`);
    expect(old.output()).toContain(`[trial of ${NEW}] greeted by the server as ${NEW}`);
    expect([...first.messages, ...trial.messages, ...second.messages].filter((m) => m.type === 'update.failed')).toEqual([]);

    // the same version offered again: nothing to do
    second.ws.send(JSON.stringify(offer()));
    second.ws.send(JSON.stringify({ type: 'script.run', id: 'r2', runId: 2, shell: 'bash', body: 'echo still', args: [], timeoutSeconds: 5 }));
    await until('the script after the offer to answer', async () => second.messages.find((m) => m.type === 'result'));
    expect(downloads).toHaveLength(1);
    expect(alive(pid!)).toBe(true);
  }, 180_000);

  it('refuses a tampered binary, a bad signature and another origin with update.failed, and keeps running the old version', async () => {
    const prefix = await install('tampered');
    const agent = start(prefix);
    const c = await connected(OLD);
    const failed = (n: number) => until(`update.failed #${n}`, async () => c.messages.filter((m) => m.type === 'update.failed')[n - 1], 30_000);

    // other bytes than the offer's sha256 (same size)
    const good = readFileSync(binNew);
    served = Buffer.from(good);
    served[served.length - 100] ^= 0xff;
    c.ws.send(JSON.stringify(offer()));
    expect(await failed(1)).toEqual({ type: 'update.failed', version: NEW, error: `sha256 mismatch: the download is ${sha256(served)}, the offer ${sha256(good)}` });
    expect(downloads).toHaveLength(1);

    // signed by another key: refused before any download
    c.ws.send(JSON.stringify(offer({}, otherKeys.privateKey)));
    expect(await failed(2)).toEqual({ type: 'update.failed', version: NEW, error: "invalid signature: the offer is not signed by this agent's update key" });
    // a signature of other fields (the version changed after signing)
    c.ws.send(JSON.stringify({ ...offer(), version: '9.9.9' }));
    expect(await failed(3)).toEqual({ type: 'update.failed', version: '9.9.9', error: "invalid signature: the offer is not signed by this agent's update key" });
    // a download from another origin, even well signed
    c.ws.send(JSON.stringify(offer({ url: `http://127.0.0.2:1/agent/v1/download/${TARGET}` })));
    expect((await failed(4)).error).toMatch(/^refused a download from http:\/\/127\.0\.0\.2:1: not the agent's server/);
    expect(downloads).toHaveLength(1);

    // still the old version, running, on the same connection; nothing left behind
    expect(c.closed).toBeUndefined();
    expect(agent.child.exitCode).toBeNull();
    c.ws.send(JSON.stringify({ type: 'script.run', id: 'r3', runId: 3, shell: 'bash', body: 'echo alive', args: [], timeoutSeconds: 5 }));
    expect(await until('a result', async () => c.messages.find((m) => m.type === 'result'))).toMatchObject({ ok: true, result: { stdout: 'alive\n' } });
    expect(readdirSync(join(prefix, 'bin'))).toEqual(['rmm-agent']);
    expect(await version(join(prefix, 'bin', 'rmm-agent'))).toBe(OLD);
    expect(existsSync(join(prefix, 'update.json'))).toBe(false);
  }, 120_000);

  it('U1: a new version that cannot connect before the deadline is killed; the previous one, never stopped, reconnects and sends update.failed', async () => {
    const prefix = await install('rollback');
    served = readFileSync(binNew);
    refuse = `rmm-agent/${NEW}`; // the server refuses every upgrade of the new version
    const old = start(prefix, [], { RMM_AGENT_UPDATE_DEADLINE_SECONDS: '5' });
    const first = await connected(OLD);
    first.ws.send(JSON.stringify(offer()));
    await until('the new version to try to connect', async () => refused > 0, 60_000);
    const back = await connected(OLD, 1, 'the previous version back', 60_000);
    const report = await until('update.failed from the previous version', async () => back.messages.find((m) => m.type === 'update.failed'));
    expect(report).toEqual({ type: 'update.failed', version: NEW, error: `${NEW} did not connect within 5 s` });
    expect(old.child.exitCode).toBeNull(); // the same process all along
    expect(runPid(prefix)).toBe(old.child.pid);
    expect(await version(join(prefix, 'bin', 'rmm-agent'))).toBe(OLD);
    expect(readdirSync(join(prefix, 'bin'))).toEqual(['rmm-agent']); // the new binary is gone
    await until('update.json to be removed', async () => !existsSync(join(prefix, 'update.json')));
    expect(old.output()).toContain(`${NEW} did not connect within 5 s: staying on ${OLD}; reconnecting`);
    // it still takes the next offer (nothing is left "in progress")
    back.ws.send(JSON.stringify({ type: 'script.run', id: 'r4', runId: 4, shell: 'bash', body: 'echo back', args: [], timeoutSeconds: 5 }));
    expect(await until('a result', async () => back.messages.find((m) => m.type === 'result'))).toMatchObject({ ok: true, result: { stdout: 'back\n' } });
  }, 120_000);

  /** A "binary" that answers --version as NEW and then does what `run` is given (its pid in PREFIX/trial.pid). */
  const fakeBinary = (run: string): Buffer =>
    Buffer.from(`#!/bin/sh\nif [ "$1" = --version ]; then echo ${NEW}; exit 0; fi\necho $$ > "$3/trial.pid"\n${run}\n`);
  const trialPid = (prefix: string): number => Number(readFileSync(join(prefix, 'trial.pid'), 'utf8').trim());

  it('U1: a new "binary" that prints its version and sleeps is killed at the deadline; the previous version is online and reports why', async () => {
    const prefix = await install('sleeps');
    served = fakeBinary('exec sleep 600');
    const old = start(prefix, [], { RMM_AGENT_UPDATE_DEADLINE_SECONDS: '4' });
    const first = await connected(OLD);
    const offered = Date.now();
    first.ws.send(JSON.stringify(offer({}, keys.privateKey, served)));
    const back = await connected(OLD, 1, 'the previous version back', 60_000);
    const report = await until('update.failed', async () => back.messages.find((m) => m.type === 'update.failed'), 30_000);
    // the bound: the deadline plus the time to reconnect (here 4 s + at most 20 s)
    expect(Date.now() - offered).toBeLessThan(24_000);
    expect(report).toEqual({ type: 'update.failed', version: NEW, error: `${NEW} did not connect within 4 s` });
    expect(first.closed).toBe(1000);
    expect(alive(trialPid(prefix))).toBe(false); // the sleeping "binary" was killed
    expect(old.child.exitCode).toBeNull();
    expect(await version(join(prefix, 'bin', 'rmm-agent'))).toBe(OLD);
    expect(readdirSync(join(prefix, 'bin'))).toEqual(['rmm-agent']);
    await until('update.json to be removed', async () => !existsSync(join(prefix, 'update.json')));
  }, 120_000);

  it('U1: with --service, a new "binary" that crashes at start (exit 1) is rolled back at once; the service process never exits', async () => {
    const prefix = await install('crashes');
    served = fakeBinary('echo "cannot load a library" >&2; exit 1');
    const old = start(prefix, ['--service'], { RMM_AGENT_UPDATE_DEADLINE_SECONDS: '120' });
    const first = await connected(OLD);
    first.ws.send(JSON.stringify(offer({}, keys.privateKey, served)));
    const back = await connected(OLD, 1, 'the previous version back', 60_000);
    const report = await until('update.failed', async () => back.messages.find((m) => m.type === 'update.failed'), 30_000);
    expect(report).toEqual({ type: 'update.failed', version: NEW, error: `${NEW} exited with code 1 before connecting` });
    expect(old.child.exitCode).toBeNull(); // long before the 120 s deadline, without a restart
    expect(old.output()).toContain('cannot load a library'); // the trial's stderr is the agent's
    expect(await version(join(prefix, 'bin', 'rmm-agent'))).toBe(OLD);
    expect(readdirSync(join(prefix, 'bin'))).toEqual(['rmm-agent']);
  }, 120_000);

  it('U1: without a service manager (`start`), a sleeping new version is rolled back and agent.pid keeps naming the agent', async () => {
    const prefix = await install('background');
    served = fakeBinary('exec sleep 600');
    const started = await exec(join(prefix, 'bin', 'rmm-agent'), ['start', '--prefix', prefix], { env: { ...process.env, RMM_AGENT_UPDATE_DEADLINE_SECONDS: '3' }, cwd: work, timeoutMs: 30_000 });
    expect(started.code).toBe(0);
    const pid = Number(readFileSync(join(prefix, 'agent.pid'), 'utf8').trim());
    const first = await connected(OLD);
    first.ws.send(JSON.stringify(offer({}, keys.privateKey, served)));
    const back = await connected(OLD, 1, 'the previous version back', 60_000);
    expect(await until('update.failed', async () => back.messages.find((m) => m.type === 'update.failed'), 30_000)).toEqual({
      type: 'update.failed',
      version: NEW,
      error: `${NEW} did not connect within 3 s`,
    });
    expect(alive(trialPid(prefix))).toBe(false);
    expect(Number(readFileSync(join(prefix, 'agent.pid'), 'utf8').trim())).toBe(pid);
    expect(runPid(prefix)).toBe(pid);
    expect(alive(pid)).toBe(true);
    expect(readFileSync(join(prefix, 'agent.log'), 'utf8')).toContain(`${NEW} did not connect within 3 s: staying on ${OLD}`);
    const stopped = await exec(join(prefix, 'bin', 'rmm-agent'), ['stop', '--prefix', prefix], { env: process.env, cwd: work, timeoutMs: 30_000 });
    expect(stopped.code).toBe(0);
  }, 120_000);

  it('with --service: exits 10 once the new version connected on trial and is swapped in; the version a service manager starts then is the new one', async () => {
    const prefix = await install('service');
    served = readFileSync(binNew);
    const old = start(prefix, ['--service']);
    const first = await connected(OLD);
    first.ws.send(JSON.stringify(offer()));
    const trial = await seen(NEW, 1, 'the new version on trial');
    expect(await old.exited).toBe(10);
    expect(first.closed).toBe(1000);
    expect(first.closedAt!).toBeLessThanOrEqual(trial.openedAt);
    expect(old.exitedAt()!).toBeGreaterThanOrEqual(trial.openedAt);
    expect(await until('the trial connection to close', async () => trial.closed)).toBe(1000);
    expect(await version(join(prefix, 'bin', 'rmm-agent'))).toBe(NEW);
    expect(await version(join(prefix, 'bin', 'rmm-agent.previous'))).toBe(OLD);
    expect(existsSync(join(prefix, 'update.json'))).toBe(false);
    expect(runPid(prefix)).toBeUndefined(); // nothing was started: that is the service manager's job

    // the service manager starts the binary again
    const next = start(prefix, ['--service']);
    await connected(NEW, connections.indexOf(trial) + 1);
    expect(next.child.exitCode).toBeNull();
  }, 180_000);

  it('an update begun by an older agent (update.json with a deadline, no trial): the new version still puts the previous one back at the deadline', async () => {
    const prefix = await install('legacy');
    // what an agent before the supervised trial leaves: the new binary swapped in, the old kept, a deadline
    rmSync(join(prefix, 'bin', 'rmm-agent'));
    linkSync(binNew, join(prefix, 'bin', 'rmm-agent'));
    linkSync(binOld, join(prefix, 'bin', 'rmm-agent.previous'));
    writeFileSync(join(prefix, 'update.json'), JSON.stringify({ from: OLD, to: NEW, deadline: new Date(Date.now() + 120_000).toISOString() }), { mode: 0o600 });
    refuse = `rmm-agent/${NEW}`;
    const env = { RMM_AGENT_UPDATE_DEADLINE_SECONDS: '3' };
    const updated = start(prefix, ['--service'], env);
    expect(await updated.exited).toBe(10);
    expect(refused).toBeGreaterThan(0);
    expect(await version(join(prefix, 'bin', 'rmm-agent'))).toBe(OLD);
    expect(JSON.parse(readFileSync(join(prefix, 'update.json'), 'utf8'))).toEqual({ rolled_back: NEW, error: `${NEW} did not connect within 3 s` });
    // the service manager starts the previous version again, which tells the server
    start(prefix, ['--service'], env);
    const back = await connected(OLD);
    expect(await until('update.failed', async () => back.messages.find((m) => m.type === 'update.failed'))).toEqual({ type: 'update.failed', version: NEW, error: `${NEW} did not connect within 3 s` });
    await until('update.json to be removed', async () => !existsSync(join(prefix, 'update.json')));
  }, 120_000);

  it('uninstall removes the prefix\'s files (no service here) and exits 0; agent.uninstall does the same from the server, and the process exits 0', async () => {
    // On a machine where the agent is installed as a service, uninstall would remove that service: not here.
    if (existsSync(SYSTEMD_UNIT)) {
      process.stderr.write(`self-update.e2e-spec: uninstall not tested: ${SYSTEMD_UNIT} exists on this machine, and uninstall would remove it\n`);
      return;
    }
    const prefix = await install('uninstall');
    // what an installation and an update leave behind, and a file that is not the agent's
    linkSync(binOld, join(prefix, 'bin', 'rmm-agent.previous'));
    mkdirSync(join(prefix, 'lib'));
    writeFileSync(join(prefix, 'lib', 'rmm-agent.js'), '// the Node.js bundle\n');
    writeFileSync(join(prefix, 'agent.log'), 'log\n');
    writeFileSync(join(prefix, 'update.json'), '{}\n');
    writeFileSync(join(prefix, 'notes.txt'), 'mine\n');
    const copy = join(work, 'rmm-agent-copy');
    linkSync(binOld, copy);
    const r = await exec(copy, ['uninstall', '--prefix', prefix], { env: process.env, cwd: work });
    expect(r).toMatchObject({ code: 0 });
    expect(readdirSync(prefix)).toEqual(['notes.txt']);

    const second = await install('uninstall-message');
    const agent = start(second);
    const c = await connected(OLD);
    c.ws.send(JSON.stringify({ type: 'agent.uninstall' }));
    expect(await agent.exited).toBe(0);
    expect(existsSync(second)).toBe(false);
    expect(agent.output()).toContain('the server asks this agent to uninstall itself');
  });
});
