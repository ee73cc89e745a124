'use strict';
/**
 * The terminal and file transfer (issue 32), a step of `npm run bench`, or alone:
 *   DATABASE_URL=postgres://… [REDIS_URL=redis://…] node bench/hands.js [--file-mib 1024] [--sessions 100]
 *
 * The built server runs as a child process on a database of its own; everything is on 127.0.0.1.
 *
 * Measured, each beside a baseline of the same run:
 * - **Keystroke to echo.** The real single-file agent (linux-amd64, built by scripts/build-agent.js) runs bash in a
 *   pseudo-terminal; one character at a time is sent over the terminal's WebSocket and timed until its echo comes
 *   back (300 keystrokes): p50/p95. Baseline: the same bash in a pseudo-terminal opened directly by the same
 *   runtime (Bun, bench/pty-echo.js), timed the same way. The added latency is the difference. With REDIS_URL,
 *   again with two server instances, the WebSocket on one and the agent on the other.
 * - **Files.** A file of `--file-mib` MiB (1 GiB by default) downloaded through `GET …/files/content` and uploaded
 *   through resumable uploads (1 MiB chunks, one after the other), by the same real agent: MB/s, and the server's
 *   RSS growth (sampled every 100 ms) over its RSS before. Baseline: the same file served by a plain Node.js HTTP
 *   server on loopback (fs.createReadStream piped to the response), read the same way.
 * - **Load.** `--sessions` terminal sessions (100), each printing 1 MiB/s (agents speaking the protocol in this
 *   process, bench/session-agents.js, 3 sessions each), their bytes read by as many WebSocket clients, while
 *   200 simulated agents (bench/sim.js) take runscript calls at 50/s: the runscript p50/p99. Baseline: the same
 *   runscript load before the sessions start.
 * Benchmarks measure; nothing here asserts.
 */
const { createHash, randomBytes } = require('node:crypto');
const { execFileSync, spawn } = require('node:child_process');
const { createReadStream, existsSync, mkdtempSync, rmSync, writeFileSync, openSync, writeSync, closeSync, statSync } = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { WebSocket } = require('ws');
const { replaceDocSection } = require('./doc-section');
const { ServerProcess, Simulators, benchEnv, createDatabase, dropDatabase, freePort, memoryOf, percentile, request, round, runscriptLoad, seedAgents, sleep } = require('./agents');
const { SessionAgents } = require('./session-agents');

const ROOT = path.resolve(__dirname, '..');
const DB_NAME = 'rmm_bench_hands';
const BUN = path.join(ROOT, 'node_modules/@oven/bun-linux-x64-baseline/bin/bun');
const now = () => performance.now();

const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: round(percentile(sorted, 50), 2), p95: round(percentile(sorted, 95), 2), p99: round(percentile(sorted, 99), 2) };
};

/** The linux-amd64 agent binary of these sources (built once into a temporary folder). */
function buildAgentBinary(log) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rmm-bench-hands-bin-'));
  log('building the linux-amd64 agent binary…');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-agent.js'), '--binaries', '--target', 'linux-amd64', '--out', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  return { dir, bin: path.join(dir, 'rmm-agent-linux-amd64') };
}

/** A real agent process on `server` as the seeded agent [id, secret]. */
function startAgent(bin, server, [id, secret]) {
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'rmm-bench-hands-agent-'));
  writeFileSync(path.join(prefix, 'state.json'), JSON.stringify({ server, agent_id: String(id), agent_secret: secret }), { mode: 0o600 });
  const child = spawn(bin, ['run', '--prefix', prefix], { stdio: 'ignore', detached: true, env: { ...process.env, HOME: prefix, SHELL: '/bin/bash' } });
  return {
    child,
    stop: () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

async function waitOnline(url, key, agentId, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await request('GET', `${url}/api/v3/agents/${agentId}/`, { headers: key });
    if (res.body?.status === 'online') return;
    await sleep(200);
  }
  throw new Error(`agent ${agentId} did not come online`);
}

/** Opens a terminal by API and WebSocket; resolves {ws, received(): Buffer of everything so far, wait(text)}. */
async function openTerminal(url, key, agentId, size = { cols: 120, rows: 40 }) {
  const res = await request('POST', `${url}/api/v3/agents/${agentId}/terminal/`, { headers: key, body: size });
  if (res.status !== 201) throw new Error(`terminal: ${res.status} ${JSON.stringify(res.body)}`);
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${res.body.url}`, { headers: key });
  let chunks = [];
  const waiters = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) return;
    chunks.push(data);
    for (const w of [...waiters]) w();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, r) => reject(new Error(`terminal WebSocket: HTTP ${r.statusCode}`)));
  });
  const text = () => Buffer.concat(chunks).toString('utf8');
  return {
    ws,
    clear: () => (chunks = []),
    text,
    wait: (pattern, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(text())) {
            waiters.splice(waiters.indexOf(check), 1);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(check), 1);
          reject(new Error(`no ${pattern} within ${timeoutMs} ms: ${JSON.stringify(text().slice(-200))}`));
        }, timeoutMs);
        waiters.push(check);
        check();
      }),
  };
}

/** Keystroke to echo through the server: one character at a time, its echo awaited (the line cleared every 50). */
async function echoThroughServer(url, key, agentId, n) {
  const t = await openTerminal(url, key, agentId);
  await t.wait(/[$#] $/m, 20_000);
  const times = [];
  for (let i = 0; i < n; i++) {
    const ch = String.fromCharCode(97 + (i % 26));
    t.clear();
    const started = now();
    t.ws.send(Buffer.from(ch));
    await t.wait(new RegExp(ch));
    times.push(now() - started);
    if (i % 50 === 49) {
      t.ws.send(Buffer.from('\u0015')); // Ctrl-U: clear the line
      await sleep(50);
    }
  }
  t.ws.close();
  return stats(times);
}

/** The baseline: the same shell in a pseudo-terminal opened by Bun directly (bench/pty-echo.js). */
function echoDirect(n) {
  if (!existsSync(BUN)) return null;
  const out = execFileSync(BUN, [path.join(__dirname, 'pty-echo.js'), String(n)], { encoding: 'utf8', env: { ...process.env, SHELL: '/bin/bash' } });
  return stats(JSON.parse(out));
}

/** Reads a URL to its end, counting bytes and hashing them; samples the server's RSS every 100 ms meanwhile. */
function readAll(url, headers, pid) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let bytes = 0;
    let peak = 0;
    const sampler = pid ? setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 100) : undefined;
    const started = now();
    http
      .get(url, { headers }, (res) => {
        res.on('data', (c) => {
          bytes += c.length;
          hash.update(c);
        });
        res.on('end', () => {
          clearInterval(sampler);
          resolve({ status: res.statusCode, bytes, ms: now() - started, sha256: hash.digest('hex'), header: res.headers['x-checksum-sha256'], peakRss: peak });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function putChunk(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': body.length } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Uploads `file` in 1 MiB chunks, one after the other; samples the server's RSS. */
async function upload(url, key, agentId, file, target, sha256, pid) {
  const size = statSync(file).size;
  const started = now();
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 100);
  try {
    const begin = await request('POST', `${url}/api/v3/agents/${agentId}/files/uploads/`, { headers: key, body: { path: target, size, sha256, overwrite: true } });
    if (begin.status !== 201) throw new Error(`upload: ${begin.status} ${JSON.stringify(begin.body)}`);
    const { upload_id: id, chunk_size: chunk } = begin.body;
    const fd = openSync(file, 'r');
    const buf = Buffer.alloc(chunk);
    let last;
    try {
      for (let offset = 0; offset < size; offset += chunk) {
        const n = require('node:fs').readSync(fd, buf, 0, Math.min(chunk, size - offset), offset);
        last = await putChunk(`${url}/api/v3/agents/${agentId}/files/uploads/${id}?offset=${offset}`, key, buf.subarray(0, n));
        if (last.status !== 200) throw new Error(`chunk at ${offset}: ${last.status} ${JSON.stringify(last.body)}`);
      }
    } finally {
      closeSync(fd);
    }
    return { ms: now() - started, status: last?.body?.status, peakRss: peak };
  } finally {
    clearInterval(sampler);
  }
}

/** A file of `mib` MiB of random bytes (written once), and its SHA-256. */
function makeFile(dir, mib) {
  const file = path.join(dir, `bench-${mib}MiB.bin`);
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  const block = randomBytes(1024 * 1024);
  for (let i = 0; i < mib; i++) {
    block[0] = i & 255;
    writeSync(fd, block);
    hash.update(block);
  }
  closeSync(fd);
  return { file, sha256: hash.digest('hex') };
}

/** The baseline of a file's transfer: the same file from a plain Node.js HTTP server on loopback. */
async function plainHttpDownload(file) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-length': statSync(file).size, 'content-type': 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await readAll(`http://127.0.0.1:${server.address().port}/`, {});
  } finally {
    server.close();
  }
}

const mbps = (bytes, ms) => round(bytes / 1e6 / (ms / 1000), 1);
const mib = (bytes) => round(bytes / 1024 / 1024, 1);

async function runHandsBench({ baseUrl, fileMib = 1024, sessions = 100, log = () => undefined }) {
  const result = { fileMib, sessions };
  const databaseUrl = await createDatabase(baseUrl, DB_NAME);
  const work = mkdtempSync(path.join(os.tmpdir(), 'rmm-bench-hands-'));
  const env = { ...benchEnv(databaseUrl, await freePort()), RMM_AGENT_MAX_MESSAGES_PER_SECOND: '100000' };
  const key = { 'x-api-key': env.RMM_ADMIN_API_KEY };
  const server = new ServerProcess(env, path.join(ROOT, 'bench', 'results', 'hands-server.log'));
  const agents = [];
  let sims;
  let sessionAgents;
  let second;
  let binary;
  try {
    await server.start();
    binary = buildAgentBinary(log);
    const seeded = await seedAgents(databaseUrl, 2 + 200 + Math.ceil(sessions / 3));
    const [real, realB] = seeded;
    const simAgents = seeded.slice(2, 202);
    const loadAgents = seeded.slice(202);

    // ---- keystroke to echo ----
    agents.push(startAgent(binary.bin, server.url, real));
    await waitOnline(server.url, key, real[0]);
    log('keystroke to echo…');
    result.echoDirect = echoDirect(300);
    result.echoServer = await echoThroughServer(server.url, key, real[0], 300);
    log(`echo: ${JSON.stringify(result.echoServer)} direct ${JSON.stringify(result.echoDirect)}`);
    result.echoAdded = result.echoDirect ? { p50: round(result.echoServer.p50 - result.echoDirect.p50, 2), p95: round(result.echoServer.p95 - result.echoDirect.p95, 2) } : null;
    if (process.env.REDIS_URL) {
      // Two instances: the agent on B, the WebSocket on A.
      const envB = { ...benchEnv(databaseUrl, await freePort()), RMM_ADMIN_API_KEY: env.RMM_ADMIN_API_KEY, JWT_SECRET: env.JWT_SECRET, REDIS_URL: process.env.REDIS_URL };
      const envA = { ...env, REDIS_URL: process.env.REDIS_URL };
      await server.stop();
      const a = new ServerProcess(envA, path.join(ROOT, 'bench', 'results', 'hands-server.log'));
      second = new ServerProcess(envB, path.join(ROOT, 'bench', 'results', 'hands-server-b.log'));
      await a.start();
      await second.start();
      Object.assign(server, { child: a.child, exited: a.exited });
      agents.push(startAgent(binary.bin, second.url, realB));
      await waitOnline(server.url, key, realB[0]);
      result.echoCrossInstance = await echoThroughServer(server.url, key, realB[0], 300);
      result.echoCrossAdded = result.echoDirect ? { p50: round(result.echoCrossInstance.p50 - result.echoDirect.p50, 2), p95: round(result.echoCrossInstance.p95 - result.echoDirect.p95, 2) } : null;
    }

    // ---- files ----
    log(`files: ${fileMib} MiB…`);
    const { file, sha256 } = makeFile(work, fileMib);
    const size = fileMib * 1024 * 1024;
    const plain = await plainHttpDownload(file);
    result.plainDownload = { mbps: mbps(plain.bytes, plain.ms), seconds: round(plain.ms / 1000, 1) };
    const rssBefore = memoryOf(server.pid).rss;
    const down = await readAll(`${server.url}/api/v3/agents/${real[0]}/files/content?path=${encodeURIComponent(file)}`, key, server.pid);
    result.download = {
      status: down.status,
      mbps: mbps(down.bytes, down.ms),
      seconds: round(down.ms / 1000, 1),
      bytes: down.bytes,
      sha256Matches: down.sha256 === sha256 && down.header === sha256,
      rssGrowthMiB: mib(down.peakRss - rssBefore),
    };
    const rssBeforeUp = memoryOf(server.pid).rss;
    const target = path.join(work, 'uploaded.bin');
    const up = await upload(server.url, key, real[0], file, target, sha256, server.pid);
    result.upload = { status: up.status, mbps: mbps(size, up.ms), seconds: round(up.ms / 1000, 1), rssGrowthMiB: mib(up.peakRss - rssBeforeUp) };
    log(`files: ${JSON.stringify({ plain: result.plainDownload, download: result.download, upload: result.upload })}`);
    rmSync(file, { force: true });
    rmSync(target, { force: true });

    // ---- load: sessions printing 1 MiB/s, and other agents' runscript ----
    log(`load: ${sessions} sessions at 1 MiB/s, runscript on 200 other agents…`);
    sims = new Simulators(server.url.replace(/^http/, 'ws'), simAgents, { concurrency: 100 });
    await sims.connectAll();
    const script = await request('POST', `${server.url}/api/v3/scripts/`, { headers: key, body: { name: 'bench-hands-echo', shell: 'bash', body: 'echo ok' } });
    const ids = simAgents.map(([id]) => id);
    result.runscriptAlone = await runscriptLoad(server.url, env.RMM_ADMIN_API_KEY, script.body.id, ids, 50, 15);
    sessionAgents = new SessionAgents(server.url, loadAgents, { bytesPerSecond: 1024 * 1024 });
    await sessionAgents.connectAll();
    // (a caller holds at most 10 sessions: one key of scope `terminal` per ten)
    const keys = [];
    for (let k = 0; k < Math.ceil(sessions / 10); k++) {
      const made = await request('POST', `${server.url}/api/v3/keys/`, { headers: key, body: { name: `bench-terminal-${k}`, scopes: ['terminal'] } });
      if (made.status !== 201) throw new Error(`key: ${made.status} ${JSON.stringify(made.body)}`);
      keys.push({ 'x-api-key': made.body.key });
    }
    const clients = [];
    for (let i = 0; i < sessions; i++) {
      const agentId = loadAgents[Math.floor(i / 3) % loadAgents.length][0];
      clients.push(await openTerminal(server.url, keys[Math.floor(i / 10)], agentId, { cols: 80, rows: 24 }));
    }
    // (each client only counts what it reads)
    for (const c of clients) c.clear();
    const loadStarted = now();
    const counted = clients.map(() => 0);
    clients.forEach((c, i) => c.ws.on('message', (d, isBinary) => isBinary && (counted[i] += d.length)));
    result.runscriptUnderLoad = await runscriptLoad(server.url, env.RMM_ADMIN_API_KEY, script.body.id, ids, 50, 15);
    const loadMs = now() - loadStarted;
    result.sessionsMiBps = round(counted.reduce((a, b) => a + b, 0) / 1024 / 1024 / (loadMs / 1000), 1);
    result.serverRssUnderLoadMiB = mib(memoryOf(server.pid).rss);
    for (const c of clients) c.ws.close();
    return result;
  } finally {
    for (const a of agents) a.stop();
    await sessionAgents?.stop();
    await sims?.stop();
    await second?.stop();
    await server.stop();
    if (binary) rmSync(binary.dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
    await dropDatabase(baseUrl, DB_NAME).catch(() => undefined);
  }
}

function handsMarkdown(r) {
  const rows = [
    '| What | Measured | Baseline (same run) | Target |',
    '|---|---|---|---|',
    `| Keystroke to echo, one instance | p50 ${r.echoServer?.p50} ms, p95 ${r.echoServer?.p95} ms | direct PTY p50 ${r.echoDirect?.p50} ms, p95 ${r.echoDirect?.p95} ms; added p95 **${r.echoAdded?.p95} ms** | added p95 ≤ 30 ms |`,
  ];
  if (r.echoCrossInstance) rows.push(`| Keystroke to echo, browser on A, agent on B | p50 ${r.echoCrossInstance.p50} ms, p95 ${r.echoCrossInstance.p95} ms | added p95 **${r.echoCrossAdded?.p95} ms** | added p95 ≤ 60 ms |`);
  rows.push(
    `| Download of ${r.fileMib} MiB | **${r.download?.mbps} MB/s** (${r.download?.seconds} s, SHA-256 ${r.download?.sha256Matches ? 'matches' : 'DIFFERS'}), server RSS +${r.download?.rssGrowthMiB} MiB | plain Node.js HTTP on loopback ${r.plainDownload?.mbps} MB/s (ratio ${round(r.download?.mbps / r.plainDownload?.mbps, 2)}) | ≥ 50 MB/s, RSS < +64 MiB |`,
    `| Upload of ${r.fileMib} MiB (1 MiB chunks) | **${r.upload?.mbps} MB/s** (${r.upload?.seconds} s, ${r.upload?.status}), server RSS +${r.upload?.rssGrowthMiB} MiB | (as above) ratio ${round(r.upload?.mbps / r.plainDownload?.mbps, 2)} | ≥ 50 MB/s, RSS < +64 MiB |`,
    `| Runscript on other agents with ${r.sessions} sessions printing 1 MiB/s (read at ${r.sessionsMiBps} MiB/s) | p50 ${r.runscriptUnderLoad?.p50} ms, **p99 ${r.runscriptUnderLoad?.p99} ms** | without the sessions: p50 ${r.runscriptAlone?.p50} ms, p99 ${r.runscriptAlone?.p99} ms | p99 < 50 ms |`,
  );
  return rows.join('\n');
}

function updateHandsDoc(r) {
  replaceDocSection('hands-bench', `${handsMarkdown(r)}\n\nMeasured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown CPU'}).\n`);
}

module.exports = { runHandsBench, handsMarkdown, updateHandsDoc };

if (require.main === module) {
  const argv = process.argv.slice(2);
  const arg = (name, dflt) => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : dflt;
  };
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    console.error('DATABASE_URL is required (a PostgreSQL on which the bench may create and drop a database)');
    process.exit(2);
  }
  runHandsBench({ baseUrl, fileMib: arg('--file-mib', 1024), sessions: arg('--sessions', 100), log: (l) => console.error(l) }).then(
    (r) => {
      const file = path.join(ROOT, 'bench', 'results', `hands-${new Date().toISOString().slice(0, 10)}.json`);
      writeFileSync(file, JSON.stringify(r, null, 2) + '\n');
      updateHandsDoc(r);
      console.log(handsMarkdown(r));
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
