'use strict';
/**
 * The enrollment function end to end: POST /functions/v1/enroll-rmm with a signed-in user's token, which makes
 * its own HTTP hops to /auth/v1, /rest/v1 and /api/v3 of the same server (the default configuration), under
 * autocannon. The bench server's per-user, deployment and function-key limits are raised (bench/agents.js
 * benchEnv) so that the figure is the function's throughput, not its limits.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { request, round } = require('./agents');

const ROOT = path.resolve(__dirname, '..');

/** A data-platform user made with the operator CLI (as the README does), signed in: its access token. */
async function signedInUser(server) {
  const email = `bench-${Date.now()}@bench.test`;
  const password = 'bench-password-not-secret';
  const cli = spawnSync(process.execPath, [path.join(ROOT, 'dist/apps/api/src/cli/cli.js'), 'user', 'create', '--email', email, '--password', password], {
    cwd: ROOT,
    env: { ...process.env, ...server.env, REDIS_URL: '' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (cli.status !== 0) throw new Error(`user create failed (${cli.status}): ${cli.stderr}`);
  const res = await request('POST', `${server.url}/auth/v1/token?grant_type=password`, { headers: { apikey: server.env.DATA_ANON_KEY }, body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token;
}

/** opts: {server, seconds, connections}. */
async function runEnrollBench({ server, seconds = 10, connections = 20, log = console.error }) {
  const token = await signedInUser(server);
  const headers = { authorization: `Bearer ${token}`, apikey: server.env.DATA_ANON_KEY, 'content-type': 'application/json' };
  const url = `${server.url}/functions/v1/enroll-rmm`;
  const body = JSON.stringify({ hostname: 'BENCH-ENROLL', platform: 'linux' });
  const check = await request('POST', url, { headers, body });
  if (check.status !== 200) throw new Error(`enroll-rmm answered ${check.status}: ${JSON.stringify(check.body)}`);
  log(`enrollment: autocannon ${connections} connections for ${seconds} s…`);
  // Warm-up, 10 s: the server was just restarted (the storm phase), and the function's path (five routes, their
  // SQL) runs slower until the JIT has seen it: on a restarted server the first 20 s ran at 165–197 req/s, the
  // next 20 s at 206–253 (2026-11-26, docs/performance.md); a 2 s warm-up measured the JIT.
  await autocannon({ url, method: 'POST', headers, body, connections, duration: 10 });
  const r = await autocannon({ url, method: 'POST', headers, body, connections, duration: seconds });
  const out = {
    seconds,
    connections,
    requestsPerSecond: round(r.requests.average, 1),
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    latencyP50: r.latency.p50,
    latencyP99: r.latency.p99,
  };
  log(`  ${out.requestsPerSecond} req/s, p99 ${out.latencyP99} ms, non-2xx ${out.non2xx}, errors ${out.errors}`);
  return out;
}

module.exports = { runEnrollBench, signedInUser };
