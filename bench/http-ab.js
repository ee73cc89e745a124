'use strict';
/**
 * A/B of two builds of our server on the HTTP routes of bench/http.js, both against the same bare baseline in the same
 * run: for a change whose effect is smaller than the machine's noise (±20 % between runs of bench/http.js on a shared
 * machine). Both builds and the baseline run at once on one seeded database; each round measures A, B and the
 * baseline one after the other (the order rotating by round), so that all three see the same machine. Reports
 * req/s, the ratio to the baseline and the server process's CPU time per request of each.
 *
 *   node bench/http-ab.js --a DIR --b DIR [--agents 2000] [--slice 4] [--rounds 6] [--connections 50] [--routes detail,page,hostname]
 *                         [--a-node "FLAGS"] [--b-node "FLAGS"] [--base-node "FLAGS"]
 *
 * DIR: a copy of dist/ (apps/, libs/, migrations/) inside this project (e.g. .cache/ab/before), so that it finds
 * node_modules; `cp -a dist .cache/ab/NAME` after a build. Traffic to 127.0.0.1 only; measures, asserts nothing.
 */
const { join, resolve } = require('node:path');
const { startChild, cannon, freePort, cpuMs, API_KEY } = require('./http');
const { createBenchDatabase, seedAgents } = require('./seed');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
/** Node's own flags for one side (`--a-node "--max-semi-space-size=64"`), to A/B a runtime setting. */
const nodeFlags = (side) => (opt(`${side}-node`, '') || '').split(' ').filter(Boolean);
const log = (m) => process.stderr.write(`${m}\n`);

async function main() {
  const dirs = { A: opt('a'), B: opt('b') };
  if (!dirs.A || !dirs.B) throw new Error('usage: node bench/http-ab.js --a DIR --b DIR [--agents N] [--slice S] [--rounds R]');
  const agents = Number(opt('agents', 2000));
  const slice = Number(opt('slice', 4));
  const rounds = Number(opt('rounds', 6));
  const connections = Number(opt('connections', 50));
  const only = opt('routes', 'detail,page,hostname').split(',');
  const db = await createBenchDatabase(`rmm_bench_http_ab_${process.pid}`, log);
  const children = [];
  try {
    const servers = [];
    for (const key of ['A', 'B']) {
      const port = await freePort();
      const child = startChild(
        `server ${key}`,
        [...nodeFlags(key.toLowerCase()), join(resolve(dirs[key]), 'apps/api/src/main.js')],
        { DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json', NODE_ENV: 'production', RMM_ADMIN_API_KEY: API_KEY, RMM_RATE_LIMIT_PER_MINUTE: '1000000', REDIS_URL: '' },
        `http://127.0.0.1:${port}/readyz`,
        log,
      );
      children.push(child);
      await child.ready; // one at a time: the first migrates the database
      servers.push({ key, url: `http://127.0.0.1:${port}`, pid: child.pid });
    }
    const { midId, midHostname } = await seedAgents(db.url, agents);
    const basePort = await freePort();
    const base = startChild('baseline', [...nodeFlags('base'), 'bench/baseline-server.js'], { DATABASE_URL: db.url, PORT: String(basePort) }, `http://127.0.0.1:${basePort}/api/v3/agents/${midId}`, log);
    children.push(base);
    await base.ready;
    servers.push({ key: 'baseline', url: `http://127.0.0.1:${basePort}`, pid: base.pid });

    const routes = [
      { id: 'detail', path: `/api/v3/agents/${midId}/` },
      { id: 'page', path: '/api/v3/agents/?limit=100' },
      { id: 'hostname', path: `/api/v3/agents/?hostname=${encodeURIComponent(midHostname)}` },
    ].filter((r) => only.includes(r.id));
    for (const r of routes) {
      const answers = await Promise.all(servers.map((s) => fetch(s.url + r.path, { headers: { 'x-api-key': API_KEY } }).then((x) => x.text())));
      if (new Set(answers).size !== 1) throw new Error(`${r.id}: the three servers answer differently`);
      for (const s of servers) await cannon({ url: s.url + r.path, connections, duration: 2 }); // warm-up
    }
    const out = {};
    for (const r of routes) {
      const acc = Object.fromEntries(servers.map((s) => [s.key, { requests: 0, seconds: 0, cpuMs: 0, perRound: [] }]));
      for (let i = 0; i < rounds; i++) {
        const order = servers.map((_, k) => servers[(k + i) % servers.length]);
        for (const s of order) {
          const before = cpuMs(s.pid);
          const res = await cannon({ url: s.url + r.path, connections, duration: slice });
          const a = acc[s.key];
          a.requests += res.requests.total;
          a.seconds += res.duration;
          a.cpuMs += cpuMs(s.pid) - before;
          a.perRound.push(res.requests.total / res.duration);
        }
      }
      const rps = (k) => acc[k].requests / acc[k].seconds;
      const cpu = (k) => Math.round((acc[k].cpuMs * 1000) / acc[k].requests);
      out[r.id] = {
        A: { rps: Math.round(rps('A')), ratio: +(rps('A') / rps('baseline')).toFixed(3), cpuUsPerRequest: cpu('A') },
        B: { rps: Math.round(rps('B')), ratio: +(rps('B') / rps('baseline')).toFixed(3), cpuUsPerRequest: cpu('B') },
        baseline: { rps: Math.round(rps('baseline')), cpuUsPerRequest: cpu('baseline') },
        BoverA: +(rps('B') / rps('A')).toFixed(3),
        roundsBoverA: acc.B.perRound.map((b, k) => +(b / acc.A.perRound[k]).toFixed(2)),
      };
      log(`${r.id}: ${JSON.stringify(out[r.id])}`);
    }
    process.stdout.write(`${JSON.stringify({ date: new Date().toISOString(), a: dirs.A, b: dirs.B, aNode: nodeFlags('a'), bNode: nodeFlags('b'), baseNode: nodeFlags('base'), agents, slice, rounds, connections, routes: out }, null, 2)}\n`);
  } finally {
    for (const c of children.reverse()) await c.stop().catch(() => undefined);
    await db.drop().catch((err) => log(`could not drop the bench database: ${err.message}`));
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
