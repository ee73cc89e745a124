'use strict';
/**
 * The agent-side figures of the scale issue, against the real server run as its own child process:
 * connect N agents (time to all online, server RSS after settling and at peak), heartbeats written behind in
 * batches (heartbeats sent vs the database's statements), the runscript round trip at a fixed rate with N
 * connected, and a reconnect storm (SIGTERM, start again, every agent back within 10 s, none lost).
 *
 * Agents are inserted directly in SQL with known secrets (the server stores SHA-256 hex of the secret, as
 * hashApiKey does; PostgreSQL's sha256() computes the same), which is what makes 20,000 of them quick to set
 * up; everything after that goes over the real protocol (WebSocket /agent/v1/ws, hello, heartbeats, script.run).
 */
const { fork, spawn } = require('node:child_process');
const { readFileSync, openSync, closeSync, mkdirSync } = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const os = require('node:os');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..');
const MAIN = path.join(ROOT, 'dist/apps/api/src/main.js');
/** One simulator process holds at most this many connections (each process may open 20,000 files here). */
const PER_PROCESS = 9_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

/** VmRSS and VmHWM (peak) of a process, in bytes, from /proc/<pid>/status. */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh database for the run, on DATABASE_URL's server; dropped by dropDatabase. */
async function createDatabase(baseUrl, name) {
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(baseUrl, name) {
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The environment of the bench server: its own secrets, every per-minute limit raised out of the way, quiet logs. */
function benchEnv(databaseUrl, port) {
  return {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: path.join(ROOT, '.data-bench'),
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_ANON_KEY: `anon_${randomBytes(16).toString('hex')}`,
    DATA_SERVICE_ROLE_KEY: `service_${randomBytes(16).toString('hex')}`,
    RMM_API_KEY: `rmm_${randomBytes(30).toString('base64url')}`,
    RMM_ADMIN_API_KEY: `rmm_${randomBytes(30).toString('base64url')}`,
    RMM_RATE_LIMIT_PER_MINUTE: '1000000',
    RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000000',
    RMM_FUNCTION_KEY_RATE_LIMIT_PER_MINUTE: '10000000',
    ENROLL_RATE_LIMIT_PER_USER_PER_MINUTE: '1000000',
    PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE: '1000000',
  };
}

/** The built server (dist/) as a child process; `ready` resolves when /readyz answers 200. */
class ServerProcess {
  constructor(env, logFile) {
    this.env = env;
    this.logFile = logFile;
    this.url = `http://127.0.0.1:${env.PORT}`;
  }

  async start(timeoutMs = 120_000) {
    mkdirSync(path.dirname(this.logFile), { recursive: true });
    const fd = openSync(this.logFile, 'a');
    const started = now();
    const extra = process.env.BENCH_SERVER_NODE_OPTIONS ? process.env.BENCH_SERVER_NODE_OPTIONS.split(' ') : [];
    // Through sh, which raises its soft open-file limit to the hard one and execs the server (same process): the
    // server measures its head-room from the soft limit (RMM_FD_HEADROOM), so the bench gives it all it may have.
    this.child = spawn('sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"', process.execPath, ...extra, MAIN], {
      cwd: ROOT,
      env: { ...process.env, REDIS_URL: '', ...this.env },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    let gone = false;
    void this.exited.then(() => (gone = true));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (gone) throw new Error(`the server exited at start (see ${this.logFile})`);
      if ((await get(`${this.url}/readyz`).catch(() => ({ status: 0 }))).status === 200) return now() - started;
      await sleep(50);
    }
    throw new Error(`the server did not become ready within ${timeoutMs} ms (see ${this.logFile})`);
  }

  get pid() {
    return this.child.pid;
  }

  memory() {
    return memoryOf(this.child.pid);
  }

  /** SIGTERM and wait for the exit; the time it took. */
  async stop(timeoutMs = 60_000) {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return 0;
    const started = now();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return { ms: now() - started, ...exit };
  }
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 24 });

/** One HTTP request; resolves {status, body, ms}. */
function request(method, url, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const started = now();
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = http.request(
      url,
      { method, agent: keepAlive, headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode, body: parsed, ms: now() - started });
        });
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error('request timed out after 60 s')));
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}
const get = (url, headers) => request('GET', url, { headers });

/** N agents inserted in one statement, secret `bench-secret-<n>` stored as its SHA-256 hex. Returns [[id, secret]]. */
async function seedAgents(databaseUrl, n) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const site = (await db.query(`SELECT id, client_id FROM sites ORDER BY id LIMIT 1`)).rows[0];
    const { rows } = await db.query(
      `INSERT INTO agents (hostname, client_id, site_id, plat, monitoring_type, status, operating_system, version, last_seen, secret_hash)
       SELECT 'bench-' || lpad(g::text, 6, '0'), $2, $3, 'linux', 'workstation', 'offline', 'Linux 6.8.0 (simulated)', '0.1.0', now(),
              encode(sha256(convert_to('bench-secret-' || g, 'UTF8')), 'hex')
         FROM generate_series(1, $1::int) AS g
       RETURNING id, substr(hostname, 7)::int AS n`,
      [n, site.client_id, site.id],
    );
    await db.query('ANALYZE agents');
    return rows.map((r) => [r.id, `bench-secret-${r.n}`]);
  } finally {
    await db.end();
  }
}

/** Simulator processes (forked: their memory is theirs), each with at most PER_PROCESS agents. */
class Simulators {
  constructor(url, agents, { concurrency = 200, facts = true } = {}) {
    const count = Math.max(1, Math.ceil(agents.length / PER_PROCESS));
    const size = Math.ceil(agents.length / count);
    this.children = [];
    this.tokens = 0;
    for (let i = 0; i < count; i++) {
      const execArgv = process.env.BENCH_SIM_NODE_OPTIONS ? process.env.BENCH_SIM_NODE_OPTIONS.split(' ') : [];
      const child = fork(path.join(__dirname, 'sim.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
      const slice = agents.slice(i * size, (i + 1) * size);
      const state = { child, readyWaiters: [], statWaiters: new Map() };
      child.on('message', (m) => {
        if (m.type === 'ready') state.readyWaiters.splice(0).forEach((w) => w());
        if (m.type === 'stats' || m.type === 'watched') {
          state.statWaiters.get(m.token)?.(m.type === 'stats' ? m.stats : m.times);
          state.statWaiters.delete(m.token);
        }
      });
      state.start = () => child.send({ cmd: 'start', url, agents: slice, concurrency, facts });
      this.children.push(state);
    }
  }

  /** Starts every process's connections; resolves when every agent has had its `hello`. */
  connectAll() {
    const ready = this.whenAllReady();
    for (const c of this.children) c.start();
    return ready;
  }

  whenAllReady() {
    return Promise.all(this.children.map((c) => new Promise((resolve) => c.readyWaiters.push(resolve))));
  }

  rearm() {
    for (const c of this.children) c.child.send({ cmd: 'rearm' });
  }

  /** From now on, each agent notes when its check list first carries a check whose name contains `marker`. */
  watch(marker) {
    for (const c of this.children) c.child.send({ cmd: 'watch', marker });
  }

  /** When each agent saw the watched marker (epoch ms), all processes together. */
  async watched() {
    const all = await Promise.all(
      this.children.map((c) => {
        const token = ++this.tokens;
        return new Promise((resolve) => {
          c.statWaiters.set(token, resolve);
          c.child.send({ cmd: 'watched', token });
        });
      }),
    );
    return all.flat();
  }

  /** Every process's counters, summed. */
  async stats() {
    const all = await Promise.all(
      this.children.map((c) => {
        const token = ++this.tokens;
        return new Promise((resolve) => {
          c.statWaiters.set(token, resolve);
          c.child.send({ cmd: 'stats', token });
        });
      }),
    );
    const sum = {};
    for (const s of all) {
      for (const [k, v] of Object.entries(s ?? {})) {
        if (typeof v === 'number') sum[k] = (sum[k] ?? 0) + v;
        else {
          sum[k] ??= {};
          for (const [kk, vv] of Object.entries(v)) sum[k][kk] = (sum[k][kk] ?? 0) + vv;
        }
      }
    }
    return sum;
  }

  async stop() {
    await Promise.all(
      this.children.map(
        (c) =>
          new Promise((resolve) => {
            c.child.once('exit', resolve);
            try {
              c.child.send({ cmd: 'stop' });
            } catch {
              resolve();
            }
            setTimeout(() => c.child.kill('SIGKILL'), 5_000).unref();
          }),
      ),
    );
  }
}

/** The database's own counters: committed transactions (every statement outside an explicit transaction is one) and rows changed in agents. */
async function dbCounters(databaseUrl) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('SELECT pg_stat_clear_snapshot()');
    const xact = (await db.query(`SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = current_database()`)).rows[0].n;
    const upd = (await db.query(`SELECT n_tup_upd::bigint AS n FROM pg_stat_user_tables WHERE relname = 'agents'`)).rows[0].n;
    const online = (await db.query(`SELECT count(*)::int AS n FROM agents WHERE status = 'online'`)).rows[0].n;
    return { transactions: Number(xact), agentRowUpdates: Number(upd), online };
  } finally {
    await db.end();
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Open-loop load: `rate` runscript calls per second for `seconds` (each on a random agent), latency of each. */
async function runscriptLoad(url, apiKey, scriptId, agentIds, rate, seconds) {
  const total = rate * seconds;
  const latencies = [];
  const statuses = {};
  const errors = [];
  const inflight = [];
  const started = now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - now();
    if (wait > 0) await sleep(wait);
    const agentId = agentIds[Math.floor(Math.random() * agentIds.length)];
    inflight.push(
      request('POST', `${url}/api/v3/agents/${agentId}/runscript/`, { headers: { 'x-api-key': apiKey }, body: { script: scriptId, output: 'wait', timeout: 30 } }).then(
        (res) => {
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status === 200 && res.body?.stdout === 'ok\n') latencies.push(res.ms);
          else if (errors.length < 5) errors.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        },
        (err) => {
          statuses.error = (statuses.error ?? 0) + 1;
          if (errors.length < 5) errors.push(err.message);
        },
      ),
    );
  }
  await Promise.all(inflight);
  const elapsed = (now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const result = {
    calls: total,
    ok: latencies.length,
    achievedRate: round(total / elapsed, 1),
    p50: round(percentile(latencies, 50), 2),
    p90: round(percentile(latencies, 90), 2),
    p99: round(percentile(latencies, 99), 2),
    max: round(latencies[latencies.length - 1], 2),
    statuses,
    errors,
  };
  // Every latency, for merging two loads' percentiles (bench/instances.js); left out of the JSON written.
  Object.defineProperty(result, 'latencies', { value: latencies, enumerable: false });
  return result;
}

const round = (x, d = 0) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);
const mb = (bytes) => round(bytes / 1024 / 1024, 1);

/**
 * Every agent-side phase, in order, on one server process (restarted once for the storm).
 * opts: {server, databaseUrl, agents (count), heartbeatWindowSeconds, runscriptRate, runscriptSeconds, log}
 */
async function runAgentBench(opts) {
  const { server, databaseUrl, log = console.error } = opts;
  const n = opts.agents;
  const out = { agents: n, loadAverage: {} };
  // The machine may be shared: its 1-minute load average at each phase is kept with the figures.
  const load = (phase) => (out.loadAverage[phase] = round(os.loadavg()[0], 2));
  const adminKey = server.env.RMM_ADMIN_API_KEY;

  out.serverIdle = { rssMB: mb(server.memory().rss) };
  log(`seeding ${n} agents in SQL…`);
  const agents = await seedAgents(databaseUrl, n);
  const ids = agents.map(([id]) => id);

  log(`connecting ${n} agents…`);
  const sims = new Simulators(server.url, agents, { concurrency: opts.concurrency ?? 200 });
  const started = now();
  let peakDuringConnect = 0;
  const sampler = setInterval(() => (peakDuringConnect = Math.max(peakDuringConnect, server.memory().rss)), 200);
  try {
    const connected = await withTimeout(sims.connectAll(), 300_000, 'agents not all connected within 300 s');
    void connected;
    const connectMs = now() - started;
    const dbOnline = await waitFor(async () => (await dbCounters(databaseUrl)).online, (v) => v >= n, 30_000);
    load('connected');
    out.connect = { seconds: round(connectMs / 1000, 2), perSecond: round(n / (connectMs / 1000)), dbOnline };
    log(`  all ${n} connected in ${out.connect.seconds} s; settling…`);
    await sleep(opts.settleSeconds * 1000);
    const mem = server.memory();
    const idle = out.serverIdle.rssMB;
    out.memory = {
      rssMB: mb(mem.rss),
      peakMB: mb(Math.max(mem.peak, peakDuringConnect)),
      perAgentKB: round(((mem.rss / 1024 / 1024 - idle) * 1024) / n, 1),
      extrapolated20kMB: round(idle + ((mem.rss / 1024 / 1024 - idle) * 20_000) / n),
    };
    log(`  server RSS ${out.memory.rssMB} MB (peak ${out.memory.peakMB} MB), ${out.memory.perAgentKB} KB per agent`);

    // Heartbeats: one whole period (or the window asked for) with nothing else happening.
    log(`heartbeat window: ${opts.heartbeatWindowSeconds} s…`);
    const s0 = await sims.stats();
    const d0 = await dbCounters(databaseUrl);
    await sleep(opts.heartbeatWindowSeconds * 1000);
    const s1 = await sims.stats();
    const d1 = await dbCounters(databaseUrl);
    load('heartbeats');
    out.heartbeats = {
      windowSeconds: opts.heartbeatWindowSeconds,
      sent: s1.heartbeats - s0.heartbeats,
      agentRowUpdates: d1.agentRowUpdates - d0.agentRowUpdates,
      transactions: d1.transactions - d0.transactions - 2, // (minus the two of dbCounters itself)
    };
    out.heartbeats.heartbeatsPerTransaction = round(out.heartbeats.sent / Math.max(1, out.heartbeats.transactions), 1);
    log(`  ${out.heartbeats.sent} heartbeats, ${out.heartbeats.transactions} database transactions (all sources)`);

    // runscript round trip with every agent connected.
    const script = await request('POST', `${server.url}/api/v3/scripts/`, {
      headers: { 'x-api-key': adminKey },
      body: { name: `bench-${Date.now()}`, shell: 'bash', body: 'echo ok' },
    });
    if (script.status !== 201 && script.status !== 200) throw new Error(`creating the bench script: ${script.status} ${JSON.stringify(script.body)}`);
    log(`runscript: ${opts.runscriptRate}/s for ${opts.runscriptSeconds} s…`);
    await runscriptLoad(server.url, adminKey, script.body.id, ids, 20, 1); // warm-up
    out.runscript = { rate: opts.runscriptRate, seconds: opts.runscriptSeconds, ...(await runscriptLoad(server.url, adminKey, script.body.id, ids, opts.runscriptRate, opts.runscriptSeconds)) };
    load('runscript');
    log(`  p50 ${out.runscript.p50} ms, p99 ${out.runscript.p99} ms, ${out.runscript.ok}/${out.runscript.calls} ok`);

    // Reconnect storm: SIGTERM, start again on the same port and database.
    log('reconnect storm: SIGTERM, start again…');
    keepAlive.destroy();
    const before = await sims.stats();
    sims.rearm();
    const back = sims.whenAllReady();
    const stopped = await server.stop();
    const downAt = now();
    const startMs = await server.start();
    const readyAt = now();
    let lost = 0;
    let allBack = true;
    await withTimeout(back, 60_000, 'not all back').catch(() => (allBack = false));
    const backAt = now();
    const after = await sims.stats();
    load('storm');
    lost = n - after.connected;
    const dbOnlineAfter = await waitFor(async () => (await dbCounters(databaseUrl)).online, (v) => v >= n, 15_000);
    const refused = {};
    for (const [k, v] of Object.entries(after.upgradeRefused ?? {})) refused[k] = v - (before.upgradeRefused?.[k] ?? 0);
    out.storm = {
      shutdownSeconds: round(stopped.ms / 1000, 2),
      restartSeconds: round(startMs / 1000, 2),
      allBackSecondsAfterReady: allBack ? round((backAt - readyAt) / 1000, 2) : null,
      allBackSecondsAfterSigterm: allBack ? round((backAt - downAt + stopped.ms) / 1000, 2) : null,
      lost,
      dbOnline: dbOnlineAfter,
      refusedWhileDown: after.refusedWhileDown - before.refusedWhileDown,
      upgradeRefused: refused,
      otherErrors: after.otherErrors - before.otherErrors,
      serverErrors: after.serverErrors - before.serverErrors,
      rssMB: mb(server.memory().rss),
      peakMB: mb(server.memory().peak),
    };
    log(`  shutdown ${out.storm.shutdownSeconds} s, restart ${out.storm.restartSeconds} s, all back ${out.storm.allBackSecondsAfterReady} s after ready, lost ${lost}`);
    out.simulator = await sims.stats();
  } finally {
    clearInterval(sampler);
    await sims.stop();
  }
  return out;
}

async function waitFor(read, ok, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let v = await read();
  while (!ok(v) && Date.now() < deadline) {
    await sleep(250);
    v = await read();
  }
  return v;
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

module.exports = { ServerProcess, Simulators, benchEnv, createDatabase, dropDatabase, dbCounters, freePort, memoryOf, percentile, request, runAgentBench, runscriptLoad, seedAgents, round, mb, sleep, waitFor };
