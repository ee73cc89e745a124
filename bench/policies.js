'use strict';
/**
 * Automation policies at fleet size (issue 31), a step of `npm run bench`, or alone:
 *   DATABASE_URL=postgres://… node bench/policies.js [--agents 5000] [--policies 200]
 *
 * The built server runs as a child process on a database of its own. N agents are seeded (each tagged `grp-<i % 100>`)
 * and 200 policies created through the API, two per group tag, each with a ping check of its own: every agent
 * matches two policies, and every effective-policy answer weighs all 200.
 *
 * Measured:
 * - `GET /api/v3/agents/{id}/effective-policy/` for 1,000 random agents, one at a time: p50/p95. Baseline in the same
 *   run: `GET /api/v3/agents/{id}/` for the same agents (the cheapest read of one agent).
 * - Propagation: N simulated agents connected over WebSockets (bench/sim.js); the first `wave` of them tagged
 *   `wave-<k>` beforehand; then one `POST /api/v3/policies/` targeting that tag with a check whose name is a marker.
 *   Each simulated agent notes when its check list first carries the marker: the time until all have it, the
 *   per-agent delay p50/p95/max from the POST, the statements the server sent meanwhile (bench/count-statements.js
 *   preloaded into it: all of them, and the writes to `checks`), the rows written into `checks` and the committed
 *   transactions (set-based writes keep the statement count flat as N grows). Baseline in the same run: one
 *   agent's own check created with `POST /api/v3/checks/` until that agent's list carries it (p50 of 20): the floor of
 *   any change reaching an agent.
 * Benchmarks measure; nothing here asserts.
 */
const { Client } = require('pg');
const { readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { replaceDocSection } = require('./doc-section');
const { ServerProcess, Simulators, benchEnv, createDatabase, dropDatabase, freePort, percentile, request, round, seedAgents, sleep } = require('./agents');

const ROOT = path.resolve(__dirname, '..');
const DB_NAME = 'rmm_bench_policies';
const GROUPS = 100;

async function sql(databaseUrl, text, params = []) {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query(text, params)).rows;
  } finally {
    await c.end();
  }
}

/** What bench/count-statements.js (preloaded into the server) counted so far. */
function statements(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { total: NaN, checksWrites: NaN };
  }
}

async function counters(databaseUrl, file) {
  const counted = statements(file);
  const [row] = await sql(
    databaseUrl,
    `SELECT (SELECT xact_commit::bigint FROM pg_stat_database WHERE datname = current_database()) AS xact,
            (SELECT (n_tup_ins + n_tup_upd + n_tup_del)::bigint FROM pg_stat_user_tables WHERE relname = 'checks') AS rows`,
  );
  return { xact: Number(row.xact), rows: Number(row.rows), statements: counted.total, checksWrites: counted.checksWrites };
}

const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), max: round(sorted[sorted.length - 1] ?? NaN) };
};

/** Runs the step; returns its figures. `agents`: the fleet; `waves`: the sizes of the propagation waves (each ≤ agents). */
async function runPoliciesBench({ baseUrl, agents = 5_000, policies = 200, waves = [Math.min(5_000, agents)], log = () => undefined }) {
  const databaseUrl = await createDatabase(baseUrl, DB_NAME);
  // Every statement the server sends is counted (bench/count-statements.js, preloaded into it).
  const statementsFile = path.join(os.tmpdir(), `rmm-bench-policies-statements-${process.pid}.json`);
  const env = { ...benchEnv(databaseUrl, await freePort()), BENCH_STATEMENTS_FILE: statementsFile };
  const server = new ServerProcess(env, path.join(ROOT, 'bench', 'results', 'policies-server.log'));
  const nodeOptions = process.env.BENCH_SERVER_NODE_OPTIONS;
  const key = { 'X-API-KEY': env.RMM_ADMIN_API_KEY };
  let sims;
  try {
    process.env.BENCH_SERVER_NODE_OPTIONS = [nodeOptions, `--require=${path.join(__dirname, 'count-statements.js')}`].filter(Boolean).join(' ');
    try {
      await server.start();
    } finally {
      if (nodeOptions === undefined) delete process.env.BENCH_SERVER_NODE_OPTIONS;
      else process.env.BENCH_SERVER_NODE_OPTIONS = nodeOptions;
    }
    const api = (method, p, body) => request(method, `${server.url}/api/v3${p}`, { headers: key, body });
    const seeded = await seedAgents(databaseUrl, agents);
    await sql(databaseUrl, `UPDATE agents SET tags = ARRAY['grp-' || (id % ${GROUPS})]`);
    log(`policies: ${agents} agents seeded, tagged grp-0..grp-${GROUPS - 1}`);

    const createStarted = Date.now();
    for (let i = 0; i < policies; i++) {
      const r = await api('POST', '/policies/', {
        name: `bench-${i}`,
        priority: 1 + (i % 1000),
        targets: { tags_any: [`grp-${i % GROUPS}`] },
        checks: [{ check_type: 'ping', settings: { target: `host-${i}.example` }, run_interval: 300 }],
        tasks: [],
      });
      if (r.status !== 201) throw new Error(`POST /policies/ answered ${r.status}: ${JSON.stringify(r.body)}`);
    }
    const createMs = Date.now() - createStarted;
    log(`policies: ${policies} policies created in ${createMs} ms`);
    await sleep(3_000); // (let the engine write the state rows of the last ones)

    // Effective policy of one agent, against the agent's own detail.
    const sample = Array.from({ length: 1_000 }, () => seeded[Math.floor(Math.random() * seeded.length)][0]);
    const detail = [];
    const effective = [];
    for (const id of sample) {
      const a = await api('GET', `/agents/${id}/`);
      if (a.status !== 200) throw new Error(`GET /agents/${id}/ answered ${a.status}`);
      detail.push(a.ms);
      const e = await api('GET', `/agents/${id}/effective-policy/`);
      if (e.status !== 200) throw new Error(`GET /agents/${id}/effective-policy/ answered ${e.status}: ${JSON.stringify(e.body)}`);
      effective.push(e.ms);
    }
    const effectivePolicy = { policies, agents, detail: stats(detail), effective: stats(effective) };
    effectivePolicy.ratioP95 = round(effectivePolicy.effective.p95 / effectivePolicy.detail.p95);
    log(`policies: effective policy p95 ${effectivePolicy.effective.p95} ms (agent detail ${effectivePolicy.detail.p95} ms)`);

    // Every agent connected.
    sims = new Simulators(server.url, seeded, { concurrency: 200, facts: false });
    const connectStarted = Date.now();
    await sims.connectAll();
    log(`policies: ${agents} simulated agents connected in ${Date.now() - connectStarted} ms`);
    await sleep(5_000); // (the connect-time check lists are sent)

    // Baseline: one agent's own check until its list carries it.
    const single = [];
    for (let i = 0; i < 20; i++) {
      const marker = `bench-own-${i}-${Date.now()}`;
      const [id] = seeded[i];
      sims.watch(marker);
      const t0 = Date.now();
      const r = await api('POST', '/checks/', { agent: String(id), check_type: 'cpuload', name: marker, settings: { threshold_percent: 99 } });
      if (r.status !== 201) throw new Error(`POST /checks/ answered ${r.status}: ${JSON.stringify(r.body)}`);
      const deadline = Date.now() + 30_000;
      let times = [];
      while (times.length < 1 && Date.now() < deadline) {
        await sleep(20);
        times = await sims.watched();
      }
      single.push(times.length ? times[0] - t0 : NaN);
      await api('DELETE', `/checks/${r.body.id}/`);
    }
    const baseline = stats(single);

    const propagation = [];
    for (const [k, size] of waves.entries()) {
      const tag = `wave-${k}`;
      await sql(databaseUrl, `UPDATE agents SET tags = tags || ARRAY[$1::text] WHERE id IN (SELECT id FROM agents ORDER BY id LIMIT $2)`, [tag, size]);
      const marker = `bench-wave-${k}-${Date.now()}`;
      sims.watch(marker);
      await sleep(500);
      const before = await counters(databaseUrl, statementsFile);
      const t0 = Date.now();
      const r = await api('POST', '/policies/', {
        name: marker,
        priority: 1,
        targets: { tags_any: [tag] },
        // (a drive of its own: a key no earlier wave's policy holds, so the merge gives it to every agent of the wave)
        checks: [{ check_type: 'diskspace', name: marker, settings: { drive: `/wave-${k}`, threshold_percent: 5 } }],
        tasks: [],
      });
      if (r.status !== 201) throw new Error(`POST /policies/ answered ${r.status}: ${JSON.stringify(r.body)}`);
      const deadline = Date.now() + 120_000;
      let times = [];
      while (Date.now() < deadline) {
        await sleep(100);
        times = await sims.watched();
        if (times.length >= size) break;
      }
      await sleep(600); // (the counter file is written twice a second)
      const after = await counters(databaseUrl, statementsFile);
      const delays = times.map((t) => t - t0);
      const wave = {
        agents: size,
        reached: times.length,
        allMs: times.length >= size ? Math.max(...delays) : null,
        delay: stats(delays),
        transactions: after.xact - before.xact,
        statements: after.statements - before.statements,
        checkWriteStatements: after.checksWrites - before.checksWrites,
        checkRowsWritten: after.rows - before.rows,
        ratioP50ToSingle: round(stats(delays).p50 / baseline.p50),
      };
      propagation.push(wave);
      log(`policies: wave of ${size}: ${wave.reached} reached, all in ${wave.allMs} ms, p95 ${wave.delay.p95} ms, ${wave.transactions} transactions`);
    }
    const cpus = os.cpus();
    return {
      measured: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, load average ${os.loadavg()[0].toFixed(2)}`,
      agents,
      policies,
      createMs,
      effectivePolicy,
      baseline,
      propagation,
    };
  } finally {
    await sims?.stop();
    await server.stop(15_000);
    await dropDatabase(baseUrl, DB_NAME).catch(() => undefined);
    rmSync(statementsFile, { force: true });
  }
}

function policiesMarkdown(r) {
  const lines = [
    `Measured ${r.measured} (\`DATABASE_URL=… node bench/policies.js --agents ${r.agents} --waves ${r.propagation.map((w) => w.agents).join(',')}\`).`,
    '',
    `Fleet of ${r.agents.toLocaleString('en')} agents, ${r.policies} policies (each agent matches two); created through the API in ${r.createMs} ms.`,
    '',
    '| Measure | Value | Baseline (same run) | Ratio |',
    '|---|---|---|---|',
    `| effective policy of one agent, p50 / p95 | ${r.effectivePolicy.effective.p50} / ${r.effectivePolicy.effective.p95} ms | agent detail ${r.effectivePolicy.detail.p50} / ${r.effectivePolicy.detail.p95} ms | ${r.effectivePolicy.ratioP95}× (p95) |`,
  ];
  for (const w of r.propagation) {
    lines.push(
      `| policy change to ${w.agents.toLocaleString('en')} connected agents: all reached / per-agent p50, p95 | ${w.allMs ?? `only ${w.reached}`} ms / ${w.delay.p50}, ${w.delay.p95} ms | one agent's own check: p50 ${r.baseline.p50} ms | ${w.ratioP50ToSingle}× (p50) |`,
      `| … meanwhile: statements the server sent (all, incl. heartbeats) / writes to checks / check rows written / transactions | ${w.statements} / ${w.checkWriteStatements} / ${w.checkRowsWritten} / ${w.transactions} | | |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function updatePoliciesDoc(r) {
  replaceDocSection('policies-bench', policiesMarkdown(r));
}

module.exports = { runPoliciesBench, policiesMarkdown, updatePoliciesDoc };

if (require.main === module) {
  const args = process.argv.slice(2);
  const arg = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const agents = arg('agents', 5_000);
  const waves = args.includes('--waves') ? args[args.indexOf('--waves') + 1].split(',').map(Number) : [Math.min(5_000, agents), ...(agents > 5_000 ? [agents] : [])];
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    console.error('DATABASE_URL is required (the PostgreSQL server to create the bench database on)');
    process.exit(2);
  }
  runPoliciesBench({ baseUrl, agents, policies: arg('policies', 200), waves, log: (m) => console.log(m) })
    .then((r) => {
      console.log(JSON.stringify(r, null, 2));
      console.log(policiesMarkdown(r));
      if (args.includes('--write-doc')) updatePoliciesDoc(r);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
