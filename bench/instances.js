'use strict';
/**
 * Two instances on one machine over Redis: N agents, half connected to instance A and half to instance B (the
 * same database, the same Redis, a REDIS_PREFIX of the run's own), each instance its own child process. Measures
 * what scaling out costs: every instance's memory, and the runscript round trip when the REST call reaches the
 * instance that does NOT hold the agent (the command goes through Redis to the owner, the answer comes back the
 * same way) beside the same call on the owning instance. It also shows 20,000 agents on one small machine where
 * one process may not open 20,000 sockets (docs/performance.md, "Why 19,900").
 *
 * Needs REDIS_URL (a Redis on this machine: 127.0.0.0/8 or ::1). Measures; asserts nothing.
 */
const path = require('node:path');
const os = require('node:os');
const { ServerProcess, Simulators, benchEnv, freePort, mb, percentile, request, round, runscriptLoad, seedAgents, sleep, waitFor, dbCounters } = require('./agents');

/** Only a Redis on this machine: the bench never sends traffic elsewhere. */
function localRedis(url) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return /^127\./.test(host) || host === 'localhost' || host === '::1';
}

/** opts: {databaseUrl, redisUrl, agents, runscriptRate, runscriptSeconds, settleSeconds, resultsDir, log} */
async function runInstancesBench(opts) {
  const { databaseUrl, redisUrl, log = console.error } = opts;
  if (!localRedis(redisUrl)) throw new Error(`REDIS_URL must name a Redis on this machine (127.0.0.0/8, localhost or ::1), not ${new URL(redisUrl).hostname}`);
  const n = opts.agents;
  const prefix = `rmm-bench-${process.pid}-${Date.now()}:`;
  const shared = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
  const envA = { ...benchEnv(databaseUrl, await freePort()), ...shared };
  // B shares A's secrets (as replicas of one deployment do through app_settings or their common .env).
  const envB = { ...envA, PORT: String(await freePort()) };
  envB.PUBLIC_URL = `http://127.0.0.1:${envB.PORT}`;
  const a = new ServerProcess(envA, path.join(opts.resultsDir, 'server-a.log'));
  const b = new ServerProcess(envB, path.join(opts.resultsDir, 'server-b.log'));
  const out = { agents: n, instances: 2, loadAverage: {} };
  const load = (phase) => (out.loadAverage[phase] = round(os.loadavg()[0], 2));
  let simsA;
  let simsB;
  try {
    log('two instances: starting A, then B (same database, same Redis)…');
    await a.start(); // (A migrates the database; B then finds it migrated)
    await b.start();
    out.idle = { aMB: mb(a.memory().rss), bMB: mb(b.memory().rss) };
    log(`two instances: seeding ${n} agents, connecting half to each…`);
    const agents = await seedAgents(databaseUrl, n);
    const half = Math.ceil(n / 2);
    const onA = agents.slice(0, half);
    const onB = agents.slice(half);
    simsA = new Simulators(a.url, onA);
    simsB = new Simulators(b.url, onB);
    const started = performance.now();
    await Promise.all([simsA.connectAll(), simsB.connectAll()]);
    const connectMs = performance.now() - started;
    const dbOnline = await waitFor(async () => (await dbCounters(databaseUrl)).online, (v) => v >= n, 30_000);
    load('connected');
    out.connect = { seconds: round(connectMs / 1000, 2), onA: onA.length, onB: onB.length, dbOnline };
    log(`  ${onA.length} on A and ${onB.length} on B in ${out.connect.seconds} s; settling…`);
    await sleep(opts.settleSeconds * 1000);
    const [ma, mbB] = [a.memory(), b.memory()];
    out.memory = { aMB: mb(ma.rss), bMB: mb(mbB.rss), totalMB: mb(ma.rss + mbB.rss), aPeakMB: mb(ma.peak), bPeakMB: mb(mbB.peak) };
    log(`  RSS A ${out.memory.aMB} MB, B ${out.memory.bMB} MB`);

    const adminKey = envA.RMM_ADMIN_API_KEY;
    const script = await request('POST', `${a.url}/api/v3/scripts/`, { headers: { 'x-api-key': adminKey }, body: { name: `bench-x-${Date.now()}`, shell: 'bash', body: 'echo ok' } });
    if (script.status !== 201 && script.status !== 200) throw new Error(`creating the bench script: ${script.status} ${JSON.stringify(script.body)}`);
    const idsA = onA.map(([id]) => id);
    const idsB = onB.map(([id]) => id);
    // Every call to the instance that does not hold the agent: half of them A → B's agents, half B → A's.
    const rate = opts.runscriptRate;
    const seconds = opts.runscriptSeconds;
    log(`two instances: runscript across instances (through Redis) at ${rate}/s for ${seconds} s…`);
    await Promise.all([runscriptLoad(a.url, adminKey, script.body.id, idsB, 10, 1), runscriptLoad(b.url, adminKey, script.body.id, idsA, 10, 1)]); // warm-up
    const across = merge(await Promise.all([runscriptLoad(a.url, adminKey, script.body.id, idsB, rate / 2, seconds), runscriptLoad(b.url, adminKey, script.body.id, idsA, rate / 2, seconds)]));
    load('across');
    log(`  across: p50 ${across.p50} ms, p99 ${across.p99} ms, ${across.ok}/${across.calls} ok`);
    log(`two instances: runscript on the owning instance at ${rate}/s for ${seconds} s…`);
    const local = merge(await Promise.all([runscriptLoad(a.url, adminKey, script.body.id, idsA, rate / 2, seconds), runscriptLoad(b.url, adminKey, script.body.id, idsB, rate / 2, seconds)]));
    load('local');
    log(`  same instance: p50 ${local.p50} ms, p99 ${local.p99} ms, ${local.ok}/${local.calls} ok`);
    out.runscript = { rate, seconds, across, local };
    out.simulator = { a: await simsA.stats(), b: await simsB.stats() };
  } finally {
    await simsA?.stop();
    await simsB?.stop();
    await Promise.all([a.stop(15_000), b.stop(15_000)]);
  }
  return out;
}

/** Two runscriptLoad results as one: the percentiles recomputed over both halves' latencies. */
function merge(parts) {
  const latencies = parts.flatMap((p) => p.latencies).sort((x, y) => x - y);
  const at = (p) => round(percentile(latencies, p), 2);
  const statuses = {};
  for (const p of parts) for (const [k, v] of Object.entries(p.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return {
    calls: parts.reduce((s, p) => s + p.calls, 0),
    ok: latencies.length,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    max: latencies.length ? round(latencies[latencies.length - 1], 2) : null,
    statuses,
    errors: parts.flatMap((p) => p.errors).slice(0, 5),
  };
}

module.exports = { runInstancesBench, localRedis };
