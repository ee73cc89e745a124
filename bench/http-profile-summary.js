'use strict';
/**
 * Summarises a V8 .cpuprofile (node --cpu-prof) by self time: the top functions, and the share of time by
 * package (node_modules/<pkg>, our dist/, node internals). Usage: node bench/http-profile-summary.js FILE [TOP]
 */
const { readFileSync } = require('node:fs');

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/http-profile-summary.js FILE.cpuprofile [TOP]\n');
  process.exit(2);
}
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

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
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const top = Number(topArg ?? 30);
process.stdout.write(`total ${(total / 1e6).toFixed(1)} s sampled\n\nTop functions by self time:\n`);
for (const [k, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${k}\n`);
process.stdout.write('\nBy package:\n');
for (const [k, us] of [...pkg].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${k}\n`);
