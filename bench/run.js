'use strict';
/**
 * `npm run bench [-- --agents N]`: every figure of the scale issue in one run, against the built server run as
 * a child process on a database of its own (created on DATABASE_URL's PostgreSQL, dropped at the end; without
 * DATABASE_URL, on an embedded PostgreSQL in a temporary folder).
 *
 *   npm run bench                      2,000 agents, short windows: a few minutes
 *   npm run bench -- --agents 20000    the full size (clamped to 19,900 on a machine whose per-process open-file
 *                                      limit is 20,000: the server needs one descriptor per agent plus its own)
 *   REDIS_URL=redis://127.0.0.1:6379 npm run bench …
 *                                      also two instances over Redis, the agents split between them (bench/instances.js)
 *
 * Writes bench/results/<date>.json and bench/results/latest.json, prints a Markdown table and puts it in
 * docs/performance.md between the agent-bench markers. The HTTP figures come from bench/http.js
 * (runHttpBench) when that file exists. Benchmarks measure; nothing here asserts.
 */
const { replaceDocSection } = require('./doc-section');
const { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');
const { ServerProcess, benchEnv, createDatabase, dropDatabase, freePort, round, runAgentBench } = require('./agents');
const { runEnrollBench } = require('./enroll');
const { runInstancesBench } = require('./instances');
const { runConsoleBench, consoleMarkdown, updateConsoleDoc } = require('./console');
const { runAgentBinariesBench, agentBinariesMarkdown, updateAgentBinariesDoc } = require('./agent-binaries');
const { runAgentUpdatesBench, agentUpdatesMarkdown, updateAgentUpdatesDoc } = require('./agent-updates');
const { runNotificationsBench, notificationsMarkdown, updateNotificationsDoc } = require('./notifications');
const { runPoliciesBench, policiesMarkdown, updatePoliciesDoc } = require('./policies');
const { runHandsBench, handsMarkdown, updateHandsDoc } = require('./hands');

const ROOT = path.resolve(__dirname, '..');
const RESULTS = path.join(__dirname, 'results');
const DB_NAME = 'rmm_bench_agents';

function parseArgs(argv) {
  const args = { agents: 2_000, skipHttp: false, render: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--agents') args.agents = Number(argv[++i]);
    else if (a.startsWith('--agents=')) args.agents = Number(a.slice(9));
    else if (a === '--skip-http') args.skipHttp = true;
    else if (a === '--render') args.render = argv[++i];
    else if (a === '--help' || a === '-h') {
      console.log('usage: npm run bench [-- --agents N] [--skip-http] | npm run bench -- --render bench/results/FILE.json');
      process.exit(0);
    } else {
      console.error(`unknown argument ${a}\nusage: npm run bench [-- --agents N] [--skip-http]`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(args.agents) || args.agents < 1) {
    console.error('--agents must be a positive integer');
    process.exit(2);
  }
  return args;
}

/**
 * The server's open-file head-room at the bench's RMM_AGENT_UPDATE_CONCURRENCY (50): RMM_FD_HEADROOM's default,
 * max(256, 2 × 50 + 128) (apps/api/src/health/fd-headroom.ts). The server refuses agents (1013) within it.
 */
const SERVER_FD_HEADROOM = 256;

/**
 * The largest number of agents one server process can hold here: its open-file limit (`ulimit -Hn`: the bench's
 * servers inherit the soft limit, which a process may raise up to this hard one; raising the hard one needs
 * CAP_SYS_RESOURCE) less the head-room the server keeps free (SERVER_FD_HEADROOM) and 100 for its own files
 * (PostgreSQL connections, logs, listening sockets).
 */
function maxAgents() {
  let limit = 1_048_576;
  try {
    limit = Number(execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim()) || limit;
  } catch {
    /* keep the default */
  }
  return { limit, max: limit - SERVER_FD_HEADROOM - 100 };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.render) {
    // Re-writes docs/performance.md's table from a saved result (e.g. the full-size run after a default one).
    const table = markdown(JSON.parse(readFileSync(path.resolve(args.render), 'utf8')));
    updateDoc(table);
    console.log(table);
    return;
  }
  const { limit, max } = maxAgents();
  const requested = args.agents;
  const agents = Math.min(requested, max);
  const full = requested >= 10_000;
  const log = (m) => console.error(`[bench] ${m}`);
  if (agents < requested) {
    log(`${requested} agents asked, ${agents} measured: one process may open ${limit} files here (ulimit -Hn), the server needs one per agent plus its own, and keeps ${SERVER_FD_HEADROOM} free (RMM_FD_HEADROOM)`);
  }

  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.js')], { cwd: ROOT, stdio: 'inherit' });
  // DATABASE_URL names a PostgreSQL server on which the bench creates (and drops) databases of its own; without
  // it, an embedded PostgreSQL in a temporary folder serves the whole run (removed at the end).
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbedded(log);
  if (embedded) process.env.DATABASE_URL = embedded.adminUrl; // (bench/http.js's database goes there too)
  const base = process.env.DATABASE_URL;
  const started = new Date();
  const result = {
    date: started.toISOString(),
    command: `${embedded ? '' : `DATABASE_URL=${withoutPassword(base)} `}${process.env.REDIS_URL ? `REDIS_URL=${withoutPassword(process.env.REDIS_URL)} ` : ''}npm run bench${requested === 2_000 ? '' : ` -- --agents ${requested}`}`,
    database: embedded ? `embedded PostgreSQL ${embedded.version}` : `PostgreSQL ${await serverVersion(base)} (DATABASE_URL)`,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGB: Math.round(os.totalmem() / 2 ** 30), node: process.version, openFileLimit: limit },
    agentsRequested: requested,
  };

  const httpBench = path.join(__dirname, 'http.js');
  if (!args.skipHttp && existsSync(httpBench)) {
    log('HTTP figures (bench/http.js)…');
    try {
      result.http = await require(httpBench).runHttpBench({ databaseUrl: base, agents: full ? 20_000 : agents, full, log });
    } catch (err) {
      result.http = { error: err.message };
      log(`HTTP bench failed: ${err.message}`);
    }
  }

  const databaseUrl = await createDatabase(base, DB_NAME);
  const env = benchEnv(databaseUrl, await freePort());
  const server = new ServerProcess(env, path.join(RESULTS, 'server.log'));
  try {
    log(`starting the server (its log: bench/results/server.log)…`);
    await server.start();
    result.agentSide = await runAgentBench({
      server,
      databaseUrl,
      agents,
      settleSeconds: 10, // (the per-connect statements of checks.sync and alerts done before the heartbeat window)
      heartbeatWindowSeconds: full ? 35 : 30,
      runscriptRate: 100,
      runscriptSeconds: full ? 20 : 10,
      log,
    });
    result.enroll = await runEnrollBench({ server, seconds: full ? 20 : 10, connections: 20, log });
    result.enroll.loadAverage = Math.round(os.loadavg()[0] * 100) / 100;
  } finally {
    // (15 s, then SIGKILL: after the enrollment phase the server's own keep-alive connections to itself, from
    // the function's upstream client, hold its HTTP close until their keep-alive time-out; see the report.)
    await server.stop(15_000);
    await dropDatabase(base, DB_NAME).catch(() => undefined);
  }

  // The console (issue 21): its bundle, the agents page with 20,000 agents in headless Chromium, a status event to
  // its display, axe-core per page; on a database and a server of its own.
  try {
    result.console = await runConsoleBench({ baseUrl: base, agents: 20_000, log });
  } catch (err) {
    result.console = { error: err.message };
    log(`console bench failed: ${err.message}`);
  }

  // The single-file agents (issue 22): each target built alone into a temporary folder, its size, gzip size and
  // build time. No server or database.
  try {
    log('agent binaries (bench/agent-binaries.js)…');
    result.agentBinaries = await runAgentBinariesBench({ log });
  } catch (err) {
    result.agentBinaries = { error: err.message };
    log(`agent binaries bench failed: ${err.message}`);
  }

  // The staged self-update (issue 22): the requested number of simulated binary agents (2,000 by default)
  // updating through RMM_AGENT_UPDATE_CONCURRENCY, against bare downloads of the same file as the baseline.
  try {
    result.agentUpdates = await runAgentUpdatesBench({ baseUrl: base, agents: Math.min(requested, max), log });
  } catch (err) {
    result.agentUpdates = { error: err.message };
    log(`agent updates bench failed: ${err.message}`);
  }

  // Notifications (issue 23): 10,000 alerts opened in a burst, each a signed webhook to a receiver on 127.0.0.1;
  // the time until all are delivered and the p99 delay, with the receiver hit directly and 1,000 alerts as baselines.
  try {
    log('notifications (bench/notifications.js)…');
    result.notifications = await runNotificationsBench({ databaseUrl: base, alerts: 10_000, log });
  } catch (err) {
    result.notifications = { error: err.message };
    log(`notifications bench failed: ${err.message}`);
  }

  // Automation policies (issue 31): the effective policy of one agent among 200 policies, and a policy change
  // reaching 5,000 connected agents (and the whole fleet in a full run), against one agent's own check change.
  try {
    log('policies (bench/policies.js)…');
    const fleet = full ? Math.min(requested, max) : Math.max(5_000, agents);
    result.policies = await runPoliciesBench({ baseUrl: base, agents: fleet, policies: 200, waves: full ? [5_000, fleet] : [5_000], log });
  } catch (err) {
    result.policies = { error: err.message };
    log(`policies bench failed: ${err.message}`);
  }

  // The terminal and file transfer (issue 32): keystroke to echo against a direct PTY, a 1 GiB file each way
  // against plain loopback HTTP, and runscript under 100 sessions printing 1 MiB/s against runscript alone.
  try {
    log('terminal and files (bench/hands.js)…');
    result.hands = await runHandsBench({ baseUrl: base, fileMib: 1024, sessions: 100, log });
  } catch (err) {
    result.hands = { error: err.message };
    log(`terminal and files bench failed: ${err.message}`);
  }

  // Two instances over Redis (when REDIS_URL names one on this machine): the requested count split over two
  // server processes on one database, runscript across them. Not clamped: each process holds half.
  try {
    if (process.env.REDIS_URL) {
      const databaseUrl2 = await createDatabase(base, `${DB_NAME}_two`);
      try {
        result.instances = await runInstancesBench({
          databaseUrl: databaseUrl2,
          redisUrl: process.env.REDIS_URL,
          agents: Math.min(requested, 2 * max),
          // One heartbeat period and its flush, as the single-instance phase has before its runscript (settle +
          // heartbeat window): every agent's first heartbeat, with its facts, written before the calls.
          settleSeconds: 40,
          runscriptRate: 100,
          runscriptSeconds: full ? 20 : 10,
          resultsDir: RESULTS,
          log,
        });
      } catch (err) {
        result.instances = { error: err.message };
        log(`two-instance bench failed: ${err.message}`);
      } finally {
        await dropDatabase(base, `${DB_NAME}_two`).catch(() => undefined);
      }
    } else {
      log('two instances over Redis: skipped (set REDIS_URL to a Redis on this machine to measure them)');
    }
  } finally {
    await embedded?.stop();
  }

  const table = markdown(result);
  mkdirSync(RESULTS, { recursive: true });
  const day = started.toISOString().slice(0, 10);
  writeFileSync(path.join(RESULTS, `${day}${full ? '-full' : ''}.json`), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(path.join(RESULTS, 'latest.json'), JSON.stringify(result, null, 2) + '\n');
  updateDoc(table);
  console.log(table);
  if (result.console && !result.console.error) {
    const consoleTable = consoleMarkdown(result.console);
    updateConsoleDoc(consoleTable);
    console.log(`\nThe console (issue 21):\n\n${consoleTable}`);
  }
  if (result.agentUpdates && !result.agentUpdates.error) {
    const updatesTable = agentUpdatesMarkdown(result.agentUpdates);
    updateAgentUpdatesDoc(updatesTable);
    console.log(`\nThe staged self-update (issue 22):\n\n${updatesTable}`);
  }
  if (result.notifications && !result.notifications.error) {
    const notificationsTable = notificationsMarkdown(result.notifications);
    updateNotificationsDoc(notificationsTable);
    console.log(`\nNotifications (issue 23):\n\n${notificationsTable}`);
  }
  if (result.policies && !result.policies.error) {
    updatePoliciesDoc(result.policies);
    console.log(`\nAutomation policies (issue 31):\n\n${policiesMarkdown(result.policies)}`);
  }
  if (result.hands && !result.hands.error) {
    updateHandsDoc(result.hands);
    console.log(`\nTerminal and files (issue 32):\n\n${handsMarkdown(result.hands)}`);
  }
  if (result.agentBinaries && !result.agentBinaries.error) {
    const binariesTable = agentBinariesMarkdown(result.agentBinaries);
    updateAgentBinariesDoc(binariesTable);
    console.log(`\nThe agent binaries (issue 22):\n\n${binariesTable}`);
  }
}

/** An embedded PostgreSQL for the run (the server's own helper, as `npm start` uses it), in a temporary folder. */
async function startEmbedded(log) {
  const { startEmbeddedPostgres } = require(path.join(ROOT, 'dist/apps/api/src/database/embedded-postgres.js'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rmm-bench-'));
  chmodSync(dataDir, 0o755); // (as root PostgreSQL runs as the postgres user, which must reach it)
  // (fsync on, as `npm start` runs it: the figures are the ones an operator of the embedded database gets)
  const pg = await startEmbeddedPostgres({ dataDir });
  log(`no DATABASE_URL: embedded PostgreSQL on port ${pg.port} (data in ${dataDir}, removed at the end)`);
  return {
    adminUrl: pg.adminUrl,
    version: await serverVersion(pg.adminUrl),
    async stop() {
      await pg.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A database URL fit to print: its password (if any) replaced. */
function withoutPassword(url) {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

async function serverVersion(url) {
  const { Client } = require('pg');
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query('SHOW server_version')).rows[0].server_version.split(' ')[0];
  } finally {
    await c.end();
  }
}

const fmt = (x, unit = '') => (x === null || x === undefined || Number.isNaN(x) ? '—' : `${typeof x === 'number' ? x.toLocaleString('en-US') : x}${unit}`);
const stormErrors = (st) => st.otherErrors + st.serverErrors + Object.values(st.upgradeRefused).reduce((sum, v) => sum + v, 0);
const verdict = (ok) => (ok ? 'met' : '**missed**');

function markdown(r) {
  const a = r.agentSide;
  const n = a.agents;
  const rows = [
    [
      'Agents connected (one server process)',
      fmt(n),
      '20,000',
      n >= 20_000 ? 'met' : r.agentsRequested > n ? `${fmt(n)} of 20,000: the open-file limit, see below` : `the default size; the full size is \`--agents 20000\``,
    ],
    ['Time until all online', fmt(a.connect.seconds, ' s'), '—', `${fmt(a.connect.perSecond)} agents/s; ${fmt(a.connect.dbOnline)} online in the database`],
    ['Server RSS, all connected and settled', fmt(a.memory.rssMB, ' MB'), '< 1,024 MB', verdict(a.memory.rssMB < 1024)],
    ['Server peak RSS (VmHWM)', fmt(Math.max(a.memory.peakMB, a.storm.peakMB), ' MB'), '< 1,024 MB', verdict(Math.max(a.memory.peakMB, a.storm.peakMB) < 1024)],
    ['Memory per connected agent', fmt(a.memory.perAgentKB, ' KB'), '—', `extrapolated to 20,000 agents: ${fmt(a.memory.extrapolated20kMB, ' MB')}`],
    [
      `Heartbeats in ${a.heartbeats.windowSeconds} s vs database transactions (all sources)`,
      `${fmt(a.heartbeats.sent)} vs ${fmt(a.heartbeats.transactions)}`,
      'no write per heartbeat',
      `${fmt(a.heartbeats.heartbeatsPerTransaction)} heartbeats per transaction; ${fmt(a.heartbeats.agentRowUpdates)} agent rows updated`,
    ],
    [
      `runscript round trip at ${a.runscript.rate}/s for ${a.runscript.seconds} s, p50 / p99`,
      `${fmt(a.runscript.p50, ' ms')} / ${fmt(a.runscript.p99, ' ms')}`,
      'p99 < 50 ms',
      `${verdict(a.runscript.p99 < 50 && a.runscript.ok === a.runscript.calls)}; ${fmt(a.runscript.ok)}/${fmt(a.runscript.calls)} answered 200, max ${fmt(a.runscript.max, ' ms')}`,
    ],
    [
      'Reconnect storm: all agents back after the restarted server is ready',
      fmt(a.storm.allBackSecondsAfterReady, ' s'),
      '< 10 s',
      `${verdict(a.storm.allBackSecondsAfterReady !== null && a.storm.allBackSecondsAfterReady < 10)}; shutdown ${fmt(a.storm.shutdownSeconds, ' s')}, start ${fmt(a.storm.restartSeconds, ' s')}`,
    ],
    [
      'Reconnect storm: agents lost / errors',
      `${fmt(a.storm.lost)} / ${fmt(stormErrors(a.storm))}`,
      '0 / 0',
      `${a.storm.lost === 0 ? 'none lost' : '**agents lost**'}; ${stormErrors(a.storm) === 0 ? 'no error' : `errors **missed** (refused upgrades ${JSON.stringify(a.storm.upgradeRefused)}, other ${fmt(a.storm.otherErrors)}: time-outs and resets)`}; connections refused while no server listened (expected): ${fmt(a.storm.refusedWhileDown)}`,
    ],
    [
      `Enrollment function end to end (${r.enroll.connections} connections, ${r.enroll.seconds} s)`,
      fmt(r.enroll.requestsPerSecond, ' req/s'),
      '≥ 200 req/s',
      `${verdict(r.enroll.requestsPerSecond >= 200 && r.enroll.non2xx === 0)}; p99 ${fmt(r.enroll.latencyP99, ' ms')}, non-2xx ${fmt(r.enroll.non2xx)}, errors ${fmt(r.enroll.errors)}`,
    ],
  ];
  const m = r.machine;
  return [
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${m.cpus} × ${m.cpuModel}, ${m.memoryGB} GB, Node ${m.node}, open-file limit ${fmt(m.openFileLimit)} per process${r.database ? `, ${r.database}` : ''}.`,
    `Load: the machine's 1-minute load average at the phases (connected, heartbeats, runscript, storm): ${Object.values(a.loadAverage).join(', ')} (${m.cpus} CPUs, shared by the server, the simulated agents, PostgreSQL and anything else running).`,
    `Command: \`${r.database ? r.command : `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres ${r.command}`}\` (raw figures: bench/results/${r.date.slice(0, 10)}${r.agentsRequested >= 10_000 ? '-full' : ''}.json).`,
    '',
    ...httpTable(r.http),
    '| Figure | Measured | Target | Result |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
    ...instancesTable(r.instances),
  ].join('\n');
}

/** The two-instance figures of the same run (absent when no REDIS_URL was given). */
function instancesTable(x) {
  if (!x) return [];
  if (x.error) return [`Two instances over Redis: this part of the run failed (${x.error}).`, ''];
  const across = x.runscript.across;
  const local = x.runscript.local;
  const rows = [
    ['Agents connected, two instances on this machine', `${fmt(x.agents)} (${fmt(x.connect.onA)} on A, ${fmt(x.connect.onB)} on B)`, '—', `${fmt(x.connect.dbOnline)} online in the database after ${fmt(x.connect.seconds, ' s')}`],
    ['Server RSS, A / B / both, all connected and settled', `${fmt(x.memory.aMB, ' MB')} / ${fmt(x.memory.bMB, ' MB')} / ${fmt(x.memory.totalMB, ' MB')}`, '< 1,024 MB each', verdict(x.memory.aMB < 1024 && x.memory.bMB < 1024)],
    [
      `runscript across instances (the REST call on the instance that does not hold the agent, through Redis) at ${x.runscript.rate}/s for ${x.runscript.seconds} s, p50 / p99`,
      `${fmt(across.p50, ' ms')} / ${fmt(across.p99, ' ms')}`,
      '— (the issue’s p99 < 50 ms is for one instance)',
      `${fmt(across.ok)}/${fmt(across.calls)} answered 200, max ${fmt(across.max, ' ms')}; the Redis hop adds ${fmt(round(across.p50 - local.p50, 2), ' ms')} at the median`,
    ],
    [
      `runscript on the owning instance, same rate, p50 / p99`,
      `${fmt(local.p50, ' ms')} / ${fmt(local.p99, ' ms')}`,
      '—',
      `${fmt(local.ok)}/${fmt(local.calls)} answered 200, max ${fmt(local.max, ' ms')}`,
    ],
  ];
  return [
    `Two instances over Redis on the same machine (one database, one Redis, half the agents connected to each; load average ${Object.values(x.loadAverage).join(', ')}):`,
    '',
    '| Figure | Measured | Target | Result |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
  ];
}

/** The HTTP figures of the same run: ours beside the bare Fastify + pg route running the same SQL. */
function httpTable(http) {
  if (!http) return [];
  if (http.error) return [`HTTP figures: the HTTP part of this run failed (${http.error}).`, ''];
  const lines = [
    `HTTP, ${fmt(http.agents)} agents in the table, autocannon ${http.connections} connections, ${http.durationSeconds} s per figure in alternating slices:`,
    '',
    '| Figure | Ours | Bare Fastify + pg, same SQL | Ratio | Target | Result |',
    '|---|---:|---:|---:|---|---|',
  ];
  for (const row of http.rows) {
    const latency = row.unit !== 'req/s';
    const target = latency ? 'p99 ≤ 2× the baseline’s' : '≥ 0.6 of the baseline';
    lines.push(`| \`${row.name}\` | ${fmt(row.ours)} ${row.unit} | ${fmt(row.baseline)} ${row.unit} | **${row.ratio}** | ${target} | ${verdict(latency ? row.ratio <= 2 : row.ratio >= 0.6)} |`);
  }
  lines.push('');
  return lines;
}

function updateDoc(table) {
  replaceDocSection('agent-bench', table);
}

main().catch((err) => {
  console.error(`[bench] failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
