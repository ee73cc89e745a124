'use strict';
/**
 * Summarises a V8 .cpuprofile (node --cpu-prof) by self time: the top functions, and the share of time by
 * package (node_modules/<pkg>, our dist/, node internals).
 *
 *   node bench/http-profile-summary.js FILE [TOP]
 *   node bench/http-profile-summary.js --stages FILE [CPU_US_PER_REQUEST]
 *
 * --stages: every sample goes to the stage of a request that its stack is in (the first frame from the leaf up that
 * a rule below names: the key guard, principal resolution, the throttler, validation, SQL, serialization, the access
 * log, our hooks, Nest's and Fastify's routing, Node's HTTP); frames no rule names (Node internals, natives such as
 * writev or a hash) count for the nearest named frame above them. Shares are of the time spent serving (busy, start-up
 * left out). With CPU_US_PER_REQUEST (the process's CPU time per request, which bench/http.js measures from /proc),
 * each stage's share of it in µs: sampled time counts the moments the process waited for a core too, CPU time does
 * not, so the µs stay comparable between runs on a loaded machine where the samples' own totals do not. STAGE_TOP=N
 * also lists the top N leaf functions of each stage.
 */
const { readFileSync } = require('node:fs');

const argv = process.argv.slice(2);
const stagesMode = argv[0] === '--stages';
const [file, topArg] = stagesMode ? argv.slice(1) : argv;
if (!file) {
  process.stderr.write('usage: node bench/http-profile-summary.js FILE.cpuprofile [TOP] | --stages FILE.cpuprofile [REQUESTS]\n');
  process.exit(2);
}
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const pct = (us, of = total) => `${((100 * us) / of).toFixed(1).padStart(5)}%`;

/** [stage, test(functionName, url)]: the first rule that names a frame wins; order matters only within one frame. */
const STAGES = [
  ['idle', (f) => f === '(idle)'],
  ['start-up (loading modules, building the app)', (f, u) => u.startsWith('node:internal/modules/') || ['buildApp', 'createServer', 'bootstrap', 'buildOpenApiDocument'].includes(f)],
  ['garbage collection', (f) => f === '(garbage collector)'],
  ['key guard (ApiKeyGuard)', (f, u) => u.endsWith('/rmm/common/api-key.guard.js')],
  ['principal resolution (key lookup, cache, SHA-256)', (f, u) => /\/(principal-resolver|api-keys\.service|api-key-cache|api-key-secret|api-key-usage)\.js$/.test(u)],
  ['throttler (guard + storage + tracker hash)', (f, u) => u.includes('/@nestjs/throttler/') || /\/rmm\/common\/(rmm-throttler\.guard|redis-throttler\.storage)\.js$/.test(u) || u.includes('/ioredis/')],
  ['validation (ValidationPipe, class-validator/-transformer, id pipe)', (f, u) => u.includes('/pipes/validation.pipe.js') || u.includes('/class-validator/') || u.includes('/class-transformer/') || u.endsWith('/rmm/common/id.pipe.js')],
  ['SQL (pg, pool, query building)', (f, u) => /\/node_modules\/(pg|pg-pool|pg-protocol|pg-types|postgres-date|postgres-array|postgres-interval|postgres-bytea|pg-connection-string)\//.test(u) || /\/(agents\.sql|agents\.repository|transaction-host)\.js$/.test(u) || u.includes('/typeorm/')],
  ['rows → DTO (our mappers)', (f, u) => /\/(agents\.dto|agents\.service|values|pagination\.dto|list-headers|principal|client-scope)\.js$/.test(u)],
  ['serialization (JSON.stringify of the answer)', (f, u) => (f === 'serialize' && u.includes('/fastify/lib/reply.js')) || u.includes('/fast-json-stringify/')],
  ['access log (pino)', (f, u) => /\/node_modules\/(pino|sonic-boom|@pinojs\/[^/]+|pino-std-serializers|fast-redact|quick-format-unescaped|thread-stream)\//.test(u) || u.endsWith('/common/logging/logger.js')],
  ['our hooks (request id, log line, security headers, CORS, body limits, audit, docs)', (f, u) => /\/(server|security-headers|cors|body-limits|platform-http|enroll-http|swagger|audit-http|error-surfaces)\.js$/.test(u)],
  ['Nest (router, guards/pipes consumers, reflector, params)', (f, u) => u.includes('/@nestjs/core/') || u.includes('/@nestjs/common/') || u.includes('/@nestjs/platform-fastify/') || u.includes('/reflect-metadata/') || u.includes('/rxjs/') || u.includes('/rmm/fleet/agents/agents.controller.js')],
  ['Fastify (routing, hooks, reply)', (f, u) => /\/node_modules\/(fastify|find-my-way|light-my-request|avvio|@fastify\/[^/]+|fast-querystring|fast-decode-uri-component|safe-regex2|toad-cache)\//.test(u)],
  ['Node HTTP (parse the request, write the answer)', (f, u) => /^node:(_http_server|_http_outgoing|_http_common|_http_incoming|net|stream|internal\/streams|internal\/stream_base_commons)/.test(u)],
];

if (stagesMode) {
  const stageOf = new Map(); // node id → stage (memoised: a node's stage is its own rule's, else its parent's)
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Start-up first, whatever is below it (Nest's and Swagger's module scanning run under buildApp).
  const startupMemo = new Map();
  const [STARTUP_STAGE, isStartupFrame] = STAGES[1];
  const inStartup = (id) => {
    if (startupMemo.has(id)) return startupMemo.get(id);
    const { callFrame: cf } = byId.get(id);
    const r = isStartupFrame(cf.functionName, cf.url) || (parent.has(id) && inStartup(parent.get(id)));
    startupMemo.set(id, r);
    return r;
  };
  const classify = (id) => {
    if (stageOf.has(id)) return stageOf.get(id);
    const { callFrame: cf } = byId.get(id);
    if (cf.functionName !== '(idle)' && cf.functionName !== '(garbage collector)' && inStartup(id)) {
      stageOf.set(id, STARTUP_STAGE);
      return STARTUP_STAGE;
    }
    const rule = STAGES.find(([, test]) => test(cf.functionName, cf.url));
    let stage;
    if (rule) stage = rule[0];
    else if (parent.has(id)) stage = classify(parent.get(id));
    else stage = undefined;
    stageOf.set(id, stage);
    return stage;
  };
  const sums = new Map();
  const leaves = new Map(); // stage → leaf function → µs (STAGE_TOP=N prints the top N of each stage)
  for (const [id, us] of self) {
    const s = classify(id) ?? 'other (timers, microtask plumbing, natives without a named caller)';
    sums.set(s, (sums.get(s) ?? 0) + us);
    const { callFrame: cf } = byId.get(id);
    const leaf = `${cf.functionName || '(anonymous)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`;
    if (!leaves.has(s)) leaves.set(s, new Map());
    leaves.get(s).set(leaf, (leaves.get(s).get(leaf) ?? 0) + us);
  }
  const cpuPerRequest = Number(topArg ?? 0);
  const STARTUP = 'start-up (loading modules, building the app)';
  const busy = total - (sums.get('idle') ?? 0);
  const serving = busy - (sums.get(STARTUP) ?? 0);
  process.stdout.write(`total ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy, ${(serving / 1e6).toFixed(1)} s serving\n\n`);
  process.stdout.write(`| Stage | Share of serving time |${cpuPerRequest ? ' CPU µs per request |' : ''}\n|---|---:|${cpuPerRequest ? '---:|' : ''}\n`);
  for (const [s, us] of [...sums].filter(([k]) => k !== 'idle' && k !== STARTUP).sort((a, b) => b[1] - a[1])) {
    process.stdout.write(`| ${s} | ${pct(us, serving).trim()} |${cpuPerRequest ? ` ${((us / serving) * cpuPerRequest).toFixed(0)} |` : ''}\n`);
  }
  const perStage = Number(process.env.STAGE_TOP ?? 0);
  for (const [s, fns] of perStage ? leaves : []) {
    if (s === 'idle') continue;
    process.stdout.write(`\n${s}:\n`);
    for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, perStage)) process.stdout.write(`${pct(us, busy)}  ${k}\n`);
  }
  process.exit(0);
}

const fn = new Map();
const pkg = new Map();
for (const [id, us] of self) {
  const { callFrame: cf } = byId.get(id);
  const where = cf.url.replace(/^file:\/\//, '');
  const key = `${cf.functionName || '(anonymous)'} ${where.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where);
  const p = m ? m[1] : where.includes('/dist/') ? `ours: ${where.split('/dist/')[1].split('/').slice(0, -1).join('/')}` : where.startsWith('node:') ? 'node internals' : cf.functionName || '(vm)';
  pkg.set(p, (pkg.get(p) ?? 0) + us);
}
const top = Number(topArg ?? 30);
process.stdout.write(`total ${(total / 1e6).toFixed(1)} s sampled\n\nTop functions by self time:\n`);
for (const [k, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${k}\n`);
process.stdout.write('\nBy package:\n');
for (const [k, us] of [...pkg].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${k}\n`);
