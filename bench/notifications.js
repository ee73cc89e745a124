'use strict';
/**
 * Notifications (issue 23), a step of `npm run bench`, or alone: `node bench/notifications.js [--alerts N]`
 * (DATABASE_URL: the PostgreSQL server to create its database on; default 10,000 alerts).
 *
 * The built server as a child process, one webhook channel to a receiver on 127.0.0.1 (node:http, answering 204),
 * and a burst of alerts: N agents inserted overdue in one statement, whose agent_overdue alerts the server's
 * reconcile (every second here) opens in one statement, with their N notifications in the same transaction. Then
 * the time until the receiver has every notification (from the first alert's created_at) and the delay of each
 * (alert created_at → received), p50/p99/max. Baselines in the same run: the same receiver hit directly with as
 * many POSTs of the same size by a client with the server's concurrency (what the network and the receiver cost),
 * and a burst of 1,000 alerts. Benchmarks measure; nothing here asserts.
 */
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { replaceDocSection } = require('./doc-section');
const { ServerProcess, benchEnv, createDatabase, dropDatabase, freePort, percentile, request, round, sleep } = require('./agents');

const DB_NAME = 'rmm_bench_notifications';
const CONCURRENCY = 32; // RMM_NOTIFY_CONCURRENCY's default

/** A receiver on 127.0.0.1 that answers 204 and notes when each delivery id arrived, with its body's alert time. */
async function startReceiver() {
  const got = new Map();
  let duplicates = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const id = req.headers['x-rmm-delivery'];
      if (id) {
        if (got.has(id)) duplicates++;
        else {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          got.set(id, { at, createdAt: Date.parse(body.alert.created_at) });
        }
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, got, duplicates: () => duplicates, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

/** `n` POSTs of `body` to the receiver, `concurrency` at a time on keep-alive connections: the floor of any delivery. */
async function direct(url, n, body, concurrency) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      await new Promise((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return { requests: n, ms: Date.now() - started };
}

/** `n` overdue agents of the default tenant in one statement; the reconcile opens their alerts together. */
async function overdueAgents(databaseUrl, prefix, n) {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(
      `INSERT INTO agents (hostname, client_id, site_id, plat, monitoring_type, status, version, last_seen)
       SELECT $1 || g, c.id, s.id, 'linux', 'server', 'overdue', '0.1.0', now() - interval '2 hours'
         FROM generate_series(1, $2::int) g, (SELECT id FROM clients ORDER BY id LIMIT 1) c, (SELECT id FROM sites ORDER BY id LIMIT 1) s`,
      [prefix, n],
    );
  } finally {
    await c.end();
  }
}

/** One burst: `n` alerts, until the receiver has them all (or `timeoutMs`). */
async function burst(databaseUrl, receiver, prefix, n, log, timeoutMs) {
  receiver.got.clear();
  await overdueAgents(databaseUrl, prefix, n);
  const deadline = Date.now() + timeoutMs;
  while (receiver.got.size < n && Date.now() < deadline) await sleep(50);
  const rows = [...receiver.got.values()];
  const delays = rows.map((r) => r.at - r.createdAt).sort((a, b) => a - b);
  const first = Math.min(...rows.map((r) => r.createdAt));
  const last = Math.max(...rows.map((r) => r.at));
  const out = {
    alerts: n,
    received: rows.length,
    allDeliveredSeconds: rows.length === n ? round((last - first) / 1000, 2) : null,
    perSecond: rows.length === n ? Math.round(n / ((last - first) / 1000)) : null,
    delayMs: { p50: percentile(delays, 50), p99: percentile(delays, 99), max: delays[delays.length - 1] },
  };
  log(`notifications: ${n} alerts → ${rows.length} received in ${out.allDeliveredSeconds} s, delay p50 ${out.delayMs.p50} ms, p99 ${out.delayMs.p99} ms`);
  return out;
}

async function runNotificationsBench({ databaseUrl: base, alerts = 10_000, log = () => undefined }) {
  const databaseUrl = await createDatabase(base, DB_NAME);
  const env = { ...benchEnv(databaseUrl, await freePort()), RMM_NOTIFY_ALLOW_PRIVATE: 'true', RMM_RECONCILE_SECONDS: '1' };
  const server = new ServerProcess(env, path.join(__dirname, 'results', 'server-notifications.log'));
  const receiver = await startReceiver();
  try {
    log('notifications: starting the server (its log: bench/results/server-notifications.log)…');
    await server.start();
    const created = await request('POST', `${server.url}/api/v3/notifications/`, {
      headers: { 'X-API-KEY': env.RMM_ADMIN_API_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench', type: 'webhook', url: receiver.url, secret: 'bench-secret', min_severity: 'info', events: ['alert.created'] }),
    });
    if (created.status !== 201) throw new Error(`channel not created: ${created.status} ${created.body}`);
    // A body of the size the server sends (an alert.created of an overdue agent).
    const sample = JSON.stringify({ id: '00000000-0000-0000-0000-000000000000', event: 'alert.created', ts: new Date().toISOString(), severity: 'error', agent: { id: '1', hostname: 'bench-00001', plat: 'linux', client: { id: 1, name: 'Default' }, site: { id: 1, name: 'Default' }, url: `${server.url}/app/agents/1` }, alert: { id: 1, alert_type: 'agent_overdue', agent: '1', severity: 'error', message: 'agent bench-00001 is overdue: not heard from since 2026-11-26T10:00:00.000Z', created_at: new Date().toISOString(), snoozed: false, resolved: false, acknowledged: false, acknowledged_at: null, acknowledged_by: null, resolved_at: null, resolved_by: null, check: null, task: null } });
    const baselineDirect = await direct(receiver.url, alerts, sample, CONCURRENCY);
    log(`notifications: the receiver hit directly: ${alerts} POSTs in ${baselineDirect.ms} ms`);
    const small = await burst(databaseUrl, receiver, 'small-', 1_000, log, 120_000);
    const full = await burst(databaseUrl, receiver, 'burst-', alerts, log, 600_000);
    return {
      date: new Date().toISOString(),
      command: `DATABASE_URL=… node bench/notifications.js${alerts === 10_000 ? '' : ` --alerts ${alerts}`}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadAverage: round(os.loadavg()[0], 2),
      concurrency: CONCURRENCY,
      direct: { ...baselineDirect, perSecond: Math.round((baselineDirect.requests / baselineDirect.ms) * 1000) },
      small,
      burst: full,
      duplicates: receiver.duplicates(),
    };
  } finally {
    await server.stop(15_000);
    await receiver.close();
    await dropDatabase(base, DB_NAME).catch(() => undefined);
  }
}

const fmt = (x) => (x === null || x === undefined ? '—' : x.toLocaleString('en-US'));

function markdown(r) {
  const row = (what, b) => `| ${what} | ${fmt(b.received)} / ${fmt(b.alerts)} | ${fmt(b.allDeliveredSeconds)} s | ${fmt(b.perSecond)}/s | ${fmt(b.delayMs.p50)} ms | ${fmt(b.delayMs.p99)} ms | ${fmt(b.delayMs.max)} ms |`;
  return [
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${r.cpus} × ${r.cpuModel}, load average ${r.loadAverage} (\`${r.command}\`; one server process, RMM_NOTIFY_CONCURRENCY ${r.concurrency}, a signed webhook to a receiver on 127.0.0.1).`,
    '',
    '| Burst | Received | All delivered (first alert → last received) | Rate | Delay p50 (alert created → received) | p99 | max |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row(`${fmt(r.burst.alerts)} alerts`, r.burst),
    row(`${fmt(r.small.alerts)} alerts (baseline)`, r.small),
    `| the receiver hit directly, ${fmt(r.direct.requests)} POSTs, ${r.concurrency} at a time (baseline) | — | ${round(r.direct.ms / 1000, 2)} s | ${fmt(r.direct.perSecond)}/s | — | — | — |`,
    '',
    `Duplicates received: ${r.duplicates}.`,
    '',
  ].join('\n');
}

function updateDoc(table) {
  replaceDocSection('notifications-bench', table);
}

if (require.main === module) {
  const i = process.argv.indexOf('--alerts');
  const alerts = i > 0 ? Number(process.argv[i + 1]) : 10_000;
  if (!process.env.DATABASE_URL) {
    console.error('set DATABASE_URL to a PostgreSQL server (the bench creates and drops a database of its own there), or run `npm run bench`');
    process.exit(2);
  }
  runNotificationsBench({ databaseUrl: process.env.DATABASE_URL, alerts, log: (m) => console.error(`[bench] ${m}`) })
    .then((r) => {
      const table = markdown(r);
      updateDoc(table);
      console.log(table);
    })
    .catch((err) => {
      console.error(`[bench] notifications failed: ${err.stack ?? err.message}`);
      process.exit(1);
    });
}

module.exports = { runNotificationsBench, notificationsMarkdown: markdown, updateNotificationsDoc: updateDoc };
