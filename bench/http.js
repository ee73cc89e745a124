'use strict';
/**
 * HTTP benchmark: our agent endpoints vs a bare Fastify 5 + pg server running the same SQL (bench/baseline-server.js).
 * Seeds N agents in a fresh database (dropped at the end), starts both servers as child processes (ours: the built
 * dist/, LOG_LEVEL=info and JSON lines as in production, to /dev/null), then for each route runs autocannon against
 * ours and the baseline alternately with the same connections and duration. Also the paged list at a steady
 * 200 req/s (p99 of each). Measures; asserts nothing. Traffic goes to 127.0.0.1 only.
 *
 *   node bench/http.js [--agents 20000] [--duration 10] [--connections 50] [--rounds 2] [--json out.json] [--cpu-prof DIR]
 *                      [--routes detail,page,hostname] [--no-steady]
 *
 * --cpu-prof DIR profiles both servers (node --cpu-prof; the baseline's file names carry its pid too, see the log);
 * --routes measures only those routes (to profile one route alone); --no-steady skips the steady-rate figure.
 *
 * As a module: runHttpBench({ agents, durationSeconds, connections, log }) → { rows, p99 }.
 */
const { spawn, execFileSync } = require('node:child_process');
const { createServer } = require('node:net');
const { join } = require('node:path');
const { writeFileSync } = require('node:fs');
const autocannon = require('autocannon');
const { createBenchDatabase, seedAgents } = require('./seed');

const ROOT = join(__dirname, '..');
const API_KEY = 'rmm_bench_http_admin_key_0123456789abcdefghij';

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function startChild(name, args, env, readyUrl, log) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = (async () => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${stderr}`);
      try {
        const r = await fetch(readyUrl);
        if (r.ok) return;
      } catch {
        /* not yet */
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`${name} not ready within 60 s: ${stderr}`);
  })();
  return {
    ready,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
      log?.(`${name} stopped`);
    },
  };
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ ...opts, headers: { 'x-api-key': API_KEY, ...(opts.headers ?? {}) } }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMs(pid) {
  try {
    const fields = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

const summary = (r) => ({
  rps: r.requests.average,
  p50: r.latency.p50,
  p99: r.latency.p99,
  non2xx: r.non2xx,
  errors: r.errors + r.timeouts,
});

async function runHttpBench({ agents = 20000, durationSeconds = 10, connections = 50, log = () => undefined, cpuProfDir, steadyRate = 200, rounds = 2, only, steadyFigure = true } = {}) {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-if-stale.js')], { cwd: ROOT, stdio: 'ignore' });
  const db = await createBenchDatabase(`rmm_bench_http_${process.pid}`, log);
  const children = [];
  try {
    const [oursPort, basePort] = [await freePort(), await freePort()];
    const ours = startChild(
      'our server',
      [...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []), 'dist/apps/api/src/main.js'],
      {
        DATABASE_URL: db.url,
        PORT: String(oursPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        NODE_ENV: 'production',
        RMM_ADMIN_API_KEY: API_KEY,
        RMM_RATE_LIMIT_PER_MINUTE: '1000000',
        REDIS_URL: '',
      },
      `http://127.0.0.1:${oursPort}/readyz`,
      log,
    );
    children.push(ours);
    await ours.ready; // the server migrated the database
    log(`our server ready on ${oursPort}; seeding ${agents} agents`);
    const { midId, midHostname } = await seedAgents(db.url, agents);
    const base = startChild('baseline', [...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []), 'bench/baseline-server.js'], { DATABASE_URL: db.url, PORT: String(basePort) }, `http://127.0.0.1:${basePort}/api/v3/agents/${midId}`, log);
    children.push(base);
    await base.ready;
    if (cpuProfDir) log(`profiles in ${cpuProfDir}: ours pid ${ours.pid}, baseline pid ${base.pid}`);

    const allRoutes = [
      { id: 'detail', name: `GET /api/v3/agents/{id}/`, path: `/api/v3/agents/${midId}/` },
      { id: 'page', name: 'GET /api/v3/agents/?limit=100', path: '/api/v3/agents/?limit=100' },
      { id: 'hostname', name: 'GET /api/v3/agents/?hostname=', path: `/api/v3/agents/?hostname=${encodeURIComponent(midHostname)}` },
    ];
    const routes = only ? allRoutes.filter((r) => only.includes(r.id)) : allRoutes;
    const requests = { ours: 0, baseline: 0 }; // every request sent to each (warm-up included): per-request costs from a profile
    const servers = [
      { key: 'ours', url: `http://127.0.0.1:${oursPort}`, pid: ours.pid },
      { key: 'baseline', url: `http://127.0.0.1:${basePort}`, pid: base.pid },
    ];
    // Same answer from both, before anything is measured.
    for (const r of routes) {
      const [a, b] = await Promise.all(servers.map((s) => fetch(s.url + r.path, { headers: { 'x-api-key': API_KEY } }).then((x) => x.text())));
      if (a !== b) throw new Error(`${r.name}: our answer differs from the baseline's\n${a.slice(0, 300)}\n${b.slice(0, 300)}`);
    }
    // Warm-up (JIT, pools): 2 s each.
    for (const r of routes) for (const s of servers) requests[s.key] += (await cannon({ url: s.url + r.path, connections, duration: 2 })).requests.total;

    // Each figure: `rounds` alternating slices (ours, baseline, ours, …) of durationSeconds/rounds each, so that
    // both see the same machine (a shared one's load drifts); req/s = all requests / all time, p99 = the median
    // of the slices' p99.
    const rows = [];
    const details = {};
    const slice = Math.max(1, Math.round(durationSeconds / rounds));
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const r of routes) {
      const res = {};
      const parts = { ours: [], baseline: [] };
      const cpu = { ours: 0, baseline: 0 };
      for (let i = 0; i < rounds; i++) {
        for (const s of servers) {
          const before = cpuMs(s.pid);
          parts[s.key].push(await cannon({ url: s.url + r.path, connections, duration: slice }));
          cpu[s.key] += (cpuMs(s.pid) ?? NaN) - (before ?? NaN);
        }
      }
      for (const s of servers) {
        const all = parts[s.key];
        const total = all.reduce((n, x) => n + x.requests.total, 0);
        const seconds = all.reduce((n, x) => n + x.duration, 0);
        requests[s.key] += total;
        res[s.key] = {
          rps: total / seconds,
          p50: median(all.map((x) => x.latency.p50)),
          p99: median(all.map((x) => x.latency.p99)),
          non2xx: all.reduce((n, x) => n + x.non2xx, 0),
          errors: all.reduce((n, x) => n + x.errors + x.timeouts, 0),
          // The server process's CPU time per answered request (user + system): unlike req/s, hardly moved by
          // what else runs on the machine.
          cpuUsPerRequest: Math.round((cpu[s.key] * 1000) / total),
        };
        log(`${r.name} ${s.key}: ${res[s.key].rps.toFixed(0)} req/s, p99 ${res[s.key].p99} ms, non-2xx ${res[s.key].non2xx}, errors ${res[s.key].errors}, CPU ${res[s.key].cpuUsPerRequest} µs per request`);
      }
      details[r.name] = res;
      rows.push({ name: r.name, ours: Math.round(res.ours.rps), baseline: Math.round(res.baseline.rps), ratio: +(res.ours.rps / res.baseline.rps).toFixed(2), unit: 'req/s' });
    }

    // The paged list at a steady rate: p99 of ours vs the baseline's.
    const steady = {};
    if (!steadyFigure) return { rows, details, requests, agents, durationSeconds, connections };
    for (const s of servers) {
      steady[s.key] = summary(await cannon({ url: s.url + allRoutes[1].path, connections: 10, overallRate: steadyRate, duration: durationSeconds }));
      log(`steady ${steadyRate}/s ${allRoutes[1].name} ${s.key}: p50 ${steady[s.key].p50} ms, p99 ${steady[s.key].p99} ms`);
    }
    const p99 = {
      name: `${allRoutes[1].name} at ${steadyRate} req/s`,
      ours: steady.ours.p99,
      baseline: steady.baseline.p99,
      ratio: +(steady.ours.p99 / Math.max(steady.baseline.p99, 1)).toFixed(2),
      unit: 'ms p99',
    };
    rows.push(p99);
    return { rows, p99, details: { ...details, steady }, requests, agents, durationSeconds, connections };
  } finally {
    for (const c of children.reverse()) await c.stop().catch(() => undefined);
    await db.drop().catch((err) => log(`could not drop the bench database: ${err.message}`));
  }
}

function table(result) {
  const lines = ['| Figure | Ours | Bare Fastify + pg | Ratio |', '|---|---:|---:|---:|'];
  for (const r of result.rows) lines.push(`| ${r.name} | ${r.ours} ${r.unit} | ${r.baseline} ${r.unit} | ${r.ratio} |`);
  return lines.join('\n');
}

module.exports = { runHttpBench, httpTable: table, startChild, cannon, freePort, cpuMs, API_KEY };

if (require.main === module) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const started = new Date();
  runHttpBench({
    agents: Number(opt('agents', 20000)),
    durationSeconds: Number(opt('duration', 10)),
    connections: Number(opt('connections', 50)),
    cpuProfDir: opt('cpu-prof', undefined),
    rounds: Number(opt('rounds', 2)),
    only: opt('routes', undefined)?.split(','),
    steadyFigure: !args.includes('--no-steady'),
    log: (m) => process.stderr.write(`${m}\n`),
  }).then(
    (result) => {
      const out = { date: started.toISOString(), node: process.version, cpus: require('node:os').cpus().length, ...result };
      const json = opt('json', undefined);
      if (json) writeFileSync(json, JSON.stringify(out, null, 2));
      process.stderr.write(`requests sent (warm-up included): ours ${result.requests.ours}, baseline ${result.requests.baseline}\n`);
      process.stdout.write(`${table(result)}\n`);
    },
    (err) => {
      process.stderr.write(`${err.stack}\n`);
      process.exit(1);
    },
  );
}
