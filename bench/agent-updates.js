'use strict';
/**
 * The staged self-update at fleet size (issue 22), a step of `npm run bench`, or alone:
 *   DATABASE_URL=postgres://… node bench/agent-updates.js [--agents 2000] [--binary-mb 8] [--concurrency 50]
 *
 * The built server runs as a child process on a database of its own, with RMM_AGENT_VERSION 0.2.0 and a stand-in
 * binary (random bytes of --binary-mb MiB, its manifest) in RMM_AGENT_BIN_DIR. N agents are seeded on 0.1.0 and
 * connected over real WebSockets from this process; each plays a single-file agent that can update itself: it
 * announces `update_target`, and on `update.available` downloads the binary over HTTP, checks its SHA-256 and
 * size, and reconnects on the new version (the real agent also checks the Ed25519 signature and runs the staged
 * file: test/agent/binary-agent.e2e-spec.ts does that with the real binary). Measured: the time until every agent
 * is back on the new version (the server's `updates.done` = N), the peak of downloads in flight (counted by the
 * agents, and `updates.running` as the server reports it), the server's resident memory before and at its peak.
 *
 * Baseline, same run, same server and file: the same N downloads with no rollout at all, RMM_AGENT_UPDATE_CONCURRENCY
 * at a time (the fastest the server could move the bytes with that many in flight). The ratio says what the
 * rollout's bookkeeping (offers, the advisory-locked slot count, reconnections, the done/next-offer round) costs
 * over the bare transfer. Benchmarks measure; nothing here asserts.
 *
 * The stand-in is smaller than a real binary (≈ 50 MB gzipped): N real downloads would move N × 50 MB through
 * loopback and measure the disk and the loopback, not the rollout. Time scales with the size; the peak does not.
 */
const { replaceDocSection } = require('./doc-section');
const { createHash, randomBytes } = require('node:crypto');
const { mkdtempSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const WebSocket = require('ws');
const { ServerProcess, benchEnv, createDatabase, dropDatabase, freePort, memoryOf, request, seedAgents, sleep } = require('./agents');

const ROOT = path.resolve(__dirname, '..');
const DB_NAME = 'rmm_bench_agent_updates';
const OLD = '0.1.0';
const NEW = '0.2.0';
const TARGET = 'linux-amd64';

const now = () => performance.now();
/** An agent refused (1013) or unreachable this long gives up (the step then fails, naming it). */
const CONNECT_GIVE_UP_MS = 5 * 60_000;

/** Open files of a process (its /proc/PID/fd entries); NaN where there is no /proc. */
function openFilesOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}
const downloads = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** GET the binary; resolves {sha256, size}. Counts itself in `flight` while the body streams. */
function download(url, flight) {
  return new Promise((resolve, reject) => {
    flight.now++;
    flight.peak = Math.max(flight.peak, flight.now);
    const done = (err, value) => {
      flight.now--;
      if (err) reject(err);
      else resolve(value);
    };
    const req = http.get(url, { agent: downloads }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return done(new Error(`download answered ${res.statusCode}`));
      }
      const hash = createHash('sha256');
      let size = 0;
      res.on('data', (c) => {
        hash.update(c);
        size += c.length;
      });
      res.on('end', () => done(null, { sha256: hash.digest('hex'), size }));
      res.on('error', (err) => done(err));
    });
    req.setTimeout(120_000, () => req.destroy(new Error('download timed out after 120 s')));
    req.on('error', (err) => done(err));
  });
}

/**
 * One simulated binary agent: connects, says its version and target in its first heartbeat, and on an offer
 * downloads, checks and reconnects on the offered version. `updated` resolves when it is back on the new version.
 */
class UpdatingAgent {
  constructor(serverUrl, id, secret, flight, failures, refusals) {
    this.serverUrl = serverUrl;
    this.refusals = refusals;
    this.id = String(id);
    this.secret = secret;
    this.flight = flight;
    this.failures = failures;
    this.version = OLD;
    this.updatedAt = undefined;
  }

  /**
   * Resolves once greeted on its current version. A connection closed before `hello` (1013 "try again later": the
   * server's open files are within its head-room, RMM_FD_HEADROOM) is tried again after 1–3 s, as the agent does;
   * after CONNECT_GIVE_UP_MS of that it rejects.
   */
  connect() {
    const deadline = Date.now() + CONNECT_GIVE_UP_MS;
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const ws = new WebSocket(`${this.serverUrl.replace(/^http/, 'ws')}/agent/v1/ws`, { headers: { 'X-Agent-Id': this.id, Authorization: `Bearer ${this.secret}` } });
        this.ws = ws;
        let greeted = false;
        let lastError = '';
        ws.on('error', (err) => (lastError = err.message));
        ws.on('close', (code) => {
          clearInterval(this.beat);
          if (this.closing || ws !== this.ws) return; // (closed by this agent: stopping, or restarting on the new version)
          if (greeted) {
            // Dropped by the server while up (a silence sweep under load): back, as the agent does.
            setTimeout(() => void this.connect().catch(() => undefined), 1_000 + Math.random() * 2_000);
            return;
          }
          if (code === 1013) this.refusals.count++;
          if (Date.now() > deadline) return reject(new Error(`agent ${this.id} not connected within ${CONNECT_GIVE_UP_MS / 1000} s (last: ${code} ${lastError})`));
          setTimeout(attempt, 1_000 + Math.random() * 2_000);
        });
        ws.on('message', (data) => {
          let m;
          try {
            m = JSON.parse(String(data));
          } catch {
            return;
          }
          if (m.type === 'hello') {
            greeted = true;
            ws.send(JSON.stringify({ type: 'heartbeat', facts: { hostname: `bench-${this.id}`, plat: 'linux', version: this.version, update_target: TARGET } }));
            // Heartbeats as hello asks: a connect phase longer than RMM_AGENT_OFFLINE_AFTER_SECONDS (a loaded machine)
            // must not have the first agents swept offline and dropped.
            clearInterval(this.beat);
            this.beat = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'heartbeat' })), (m.heartbeat_seconds ?? 30) * 1_000);
            if (this.version === NEW && this.updatedAt === undefined) this.updatedAt = now();
            resolve();
          } else if (m.type === 'update.available') {
            void this.update(m);
          }
        });
      };
      attempt();
    });
  }

  async update(offer) {
    try {
      const got = await download(`${this.serverUrl}${offer.url}`, this.flight);
      if (got.sha256 !== offer.sha256 || got.size !== offer.size) throw new Error('sha256 or size mismatch');
      this.version = offer.version;
      const old = this.ws;
      this.ws = undefined;
      old.terminate();
      await this.connect();
    } catch (err) {
      this.failures.push(err.message);
      this.ws?.send(JSON.stringify({ type: 'update.failed', version: offer.version, error: err.message.slice(0, 200) }));
    }
  }

  close() {
    this.closing = true;
    clearInterval(this.beat);
    this.ws?.terminate();
  }
}

/** The same downloads with no rollout: `concurrency` at a time, back to back. */
async function bareDownloads(url, n, concurrency) {
  const flight = { now: 0, peak: 0 };
  let next = 0;
  const started = now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        await download(url, flight);
      }
    }),
  );
  return { ms: now() - started, peak: flight.peak };
}

async function runAgentUpdatesBench({ baseUrl, agents = 2_000, binaryMiB = 8, concurrency = 50, skipBaseline = false, log = () => undefined }) {
  const binDir = mkdtempSync(path.join(os.tmpdir(), 'rmm-bench-agent-updates-'));
  const binary = randomBytes(binaryMiB * 1024 * 1024);
  const sha256 = createHash('sha256').update(binary).digest('hex');
  writeFileSync(path.join(binDir, `rmm-agent-${TARGET}`), binary, { mode: 0o755 });
  writeFileSync(path.join(binDir, 'manifest.json'), JSON.stringify({ version: NEW, bun: 'stand-in', targets: { [TARGET]: { file: `rmm-agent-${TARGET}`, size: binary.length, sha256 } } }));

  const databaseUrl = await createDatabase(baseUrl, DB_NAME);
  const env = {
    ...benchEnv(databaseUrl, await freePort()),
    RMM_AGENT_VERSION: NEW,
    RMM_AGENT_BIN_DIR: binDir,
    RMM_AGENT_UPDATE_CONCURRENCY: String(concurrency),
  };
  const server = new ServerProcess(env, path.join(__dirname, 'results', 'server-agent-updates.log'));
  const sims = [];
  try {
    log(`agent updates: starting the server (log: bench/results/server-agent-updates.log)…`);
    await server.start();
    const apiKey = env.RMM_ADMIN_API_KEY;
    const ids = await seedAgents(databaseUrl, agents);

    let baseline = { ms: NaN, peak: NaN };
    if (!skipBaseline) {
      log(`agent updates: baseline, ${agents} bare downloads of ${binaryMiB} MiB, ${concurrency} at a time…`);
      baseline = await bareDownloads(`${server.url}/agent/v1/download/${TARGET}`, agents, concurrency);
    }

    const rssBefore = memoryOf(server.pid).rss;
    let rssPeak = rssBefore;
    let serverRunningPeak = 0;
    let status = {};
    const flight = { now: 0, peak: 0 };
    const failures = [];
    const refusals = { count: 0 };
    log(`agent updates: ${agents} agents on ${OLD} connect; the server offers ${NEW}…`);
    const started = now();
    for (const [id, secret] of ids) sims.push(new UpdatingAgent(server.url, id, secret, flight, failures, refusals));
    for (let i = 0; i < sims.length; i += 200) await Promise.all(sims.slice(i, i + 200).map((s) => s.connect()));
    const connectedMs = now() - started;
    const openFilesConnected = openFilesOf(server.pid);
    let openFilesPeak = openFilesConnected;
    log(`agent updates: ${agents} connected in ${(connectedMs / 1000).toFixed(1)} s; the server has ${openFilesConnected} files open (${refusals.count} connections refused 1013 meanwhile)`);
    const deadline = Date.now() + 15 * 60_000;
    while (Date.now() < deadline) {
      rssPeak = Math.max(rssPeak, memoryOf(server.pid).rss);
      openFilesPeak = Math.max(openFilesPeak, openFilesOf(server.pid));
      const r = await request('GET', `${server.url}/api/v3/agents/updates/`, { headers: { 'X-API-KEY': apiKey } });
      status = r.body.updates ?? {};
      serverRunningPeak = Math.max(serverRunningPeak, status.running ?? 0);
      if (status.done + status.failed >= agents) break;
      await sleep(250);
    }
    const totalMs = now() - started;
    const back = sims.filter((s) => s.updatedAt !== undefined).map((s) => s.updatedAt - started).sort((a, b) => a - b);
    return {
      date: new Date().toISOString(),
      loadAverage: Math.round(os.loadavg()[0] * 100) / 100,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      agents,
      binaryBytes: binary.length,
      concurrency,
      connectedMs: Math.round(connectedMs),
      totalMs: Math.round(totalMs),
      lastBackMs: Math.round(back.at(-1) ?? NaN),
      done: status.done,
      failed: status.failed,
      agentFailures: failures.length,
      refused1013: refusals.count,
      openFilesConnected,
      openFilesPeak,
      serverAlive: server.child.exitCode === null && server.child.signalCode === null,
      // The step passes when every agent came back on the new version and the server is still up (U2).
      passed: status.done === agents && server.child.exitCode === null && server.child.signalCode === null,
      peakDownloads: flight.peak,
      serverRunningPeak,
      rssBeforeMiB: Math.round(rssBefore / 2 ** 20),
      rssPeakMiB: Math.round(rssPeak / 2 ** 20),
      baselineMs: Math.round(baseline.ms),
      baselinePeak: baseline.peak,
      ratio: Math.round((totalMs / baseline.ms) * 100) / 100,
    };
  } finally {
    for (const s of sims) s.close();
    await server.stop(15_000);
    await dropDatabase(baseUrl, DB_NAME).catch(() => undefined);
    rmSync(binDir, { recursive: true, force: true });
  }
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

function agentUpdatesMarkdown(r) {
  return [
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${r.cpus} × ${r.cpuModel}, load average ${r.loadAverage} (\`node bench/agent-updates.js --agents ${r.agents}\`; a ${(r.binaryBytes / 2 ** 20).toFixed(0)} MiB stand-in binary, RMM_AGENT_UPDATE_CONCURRENCY=${r.concurrency}).`,
    '',
    '| Figure | Value |',
    '|---|---:|',
    `| agents updated (server's done / failed); every one, server up | ${r.done} / ${r.failed}; ${r.passed ? 'passed' : '**failed**'} |`,
    `| all connected on ${OLD} | ${s(r.connectedMs)} |`,
    `| until every agent is back on ${NEW} (from the first connect) | ${s(r.totalMs)} |`,
    `| peak downloads in flight (agents' count / server's running) | ${r.peakDownloads} / ${r.serverRunningPeak} |`,
    `| server RSS before → peak | ${r.rssBeforeMiB} → ${r.rssPeakMiB} MiB |`,
    `| server's open files, all connected → peak (of its limit) | ${r.openFilesConnected} → ${r.openFilesPeak} |`,
    `| agent connections refused 1013 (open-file head-room), tried again | ${r.refused1013} |`,
    `| baseline: the same ${r.agents} downloads bare, ${r.concurrency} at a time | ${s(r.baselineMs)} (peak ${r.baselinePeak}) |`,
    `| rollout time / baseline | ${r.ratio} × |`,
    '',
  ].join('\n');
}

function updateAgentUpdatesDoc(table) {
  replaceDocSection('agent-updates-bench', table);
}

module.exports = { runAgentUpdatesBench, agentUpdatesMarkdown, updateAgentUpdatesDoc };

if (require.main === module) {
  const args = { agents: 2_000, binaryMiB: 8, concurrency: 50 };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--agents') args.agents = Number(argv[++i]);
    else if (argv[i] === '--binary-mb') args.binaryMiB = Number(argv[++i]);
    else if (argv[i] === '--concurrency') args.concurrency = Number(argv[++i]);
    else if (argv[i] === '--skip-baseline') args.skipBaseline = true;
    else {
      console.error('usage: DATABASE_URL=postgres://… node bench/agent-updates.js [--agents N] [--binary-mb M] [--concurrency C] [--skip-baseline]');
      process.exit(2);
    }
  }
  if (!process.env.DATABASE_URL) {
    console.error('DATABASE_URL must name a PostgreSQL server on this machine (npm run bench starts an embedded one when it is not set)');
    process.exit(2);
  }
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.js')], { cwd: ROOT, stdio: 'inherit' });
  runAgentUpdatesBench({ baseUrl: process.env.DATABASE_URL, ...args, log: (m) => console.error(`[bench] ${m}`) }).then(
    (r) => {
      const table = agentUpdatesMarkdown(r);
      if (!args.skipBaseline) updateAgentUpdatesDoc(table);
      console.log(JSON.stringify(r));
      console.log(table);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
