#!/usr/bin/env node
// The module graph of docs/architecture.md, from the code: dependency-cruiser cruises apps/api/src with the
// project's rules (.dependency-cruiser.cjs), one node per folder, and this turns its JSON into two Mermaid
// flowcharts (the whole server; rmm/ by area) written between the markers in docs/architecture.md.
//   node scripts/architecture-graph.js           rewrite the graphs in docs/architecture.md (npm run graph)
//   node scripts/architecture-graph.js --check   exit 1 when docs/architecture.md is not what the code gives
// An arrow is a direct import. An import that a longer path of arrows already implies is left out (a transitive
// reduction: the graph has no cycle, so it is unique), else every folder would point at the ground.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const DOC = path.join(root, 'docs', 'architecture.md');
const SRC = 'apps/api/src/';
const AREAS = ['access', 'tenancy', 'alerting', 'fleet', 'automation', 'remote'];
// One node per folder: an area's feature folder, any other folder of rmm/, any top folder of apps/api/src, a lib.
const COLLAPSE = `^(${SRC}rmm/(${AREAS.join('|')})/[^/]+|${SRC}rmm/[^/]+|${SRC}[^/]+|libs/[^/]+)/`;

function cruise() {
  const bin = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const out = execFileSync(
    process.execPath,
    [bin, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--collapse', COLLAPSE, 'apps/api/src', 'libs'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const edges = new Map();
  for (const m of JSON.parse(out).modules) {
    const from = m.source.replace(/\/$/, '');
    if (!edges.has(from)) edges.set(from, new Set());
    for (const d of m.dependencies) {
      const to = d.resolved.replace(/\/$/, '');
      if (to !== from && !to.startsWith('node_modules') && !d.coreModule) edges.get(from).add(to);
    }
  }
  for (const targets of [...edges.values()]) for (const t of targets) if (!edges.has(t)) edges.set(t, new Set());
  return edges;
}

/** The graph on `keep(node)` nodes, each node renamed by `name` (several may merge into one), without self-loops. */
function project(edges, name) {
  const out = new Map();
  for (const [from, targets] of edges) {
    const a = name(from);
    if (a === null) continue;
    if (!out.has(a)) out.set(a, new Set());
    for (const t of targets) {
      const b = name(t);
      if (b !== null && b !== a) out.get(a).add(b);
    }
  }
  return out;
}

/** Drops every edge a → c that another path a → … → c implies. */
function reduce(edges) {
  const reach = new Map();
  const reachOf = (n, seen = new Set()) => {
    if (reach.has(n)) return reach.get(n);
    const r = new Set();
    for (const t of edges.get(n) ?? []) {
      if (seen.has(t)) throw new Error(`cycle through ${t}: run npm run lint:deps`);
      r.add(t);
      for (const x of reachOf(t, new Set([...seen, n]))) r.add(x);
    }
    reach.set(n, r);
    return r;
  };
  const out = new Map();
  for (const [a, targets] of edges) {
    out.set(a, new Set([...targets].filter((c) => ![...targets].some((b) => b !== c && reachOf(b).has(c)))));
  }
  return out;
}

const id = (n) => n.replace(/[^A-Za-z0-9]/g, '_');

function mermaid(edges, label, groups) {
  const lines = ['```mermaid', 'flowchart BT'];
  const grouped = new Set();
  for (const [group, members] of groups) {
    const present = members.filter((m) => edges.has(m)).sort();
    if (present.length === 0) continue;
    lines.push(`  subgraph ${id(`area ${group}`)}["${group}"]`);
    for (const m of present) {
      lines.push(`    ${id(m)}["${label(m)}"]`);
      grouped.add(m);
    }
    lines.push('  end');
  }
  for (const n of [...edges.keys()].sort()) if (!grouped.has(n)) lines.push(`  ${id(n)}["${label(n)}"]`);
  for (const [a, targets] of [...edges].sort(([x], [y]) => x.localeCompare(y))) {
    for (const b of [...targets].sort()) lines.push(`  ${id(a)} --> ${id(b)}`);
  }
  lines.push('```');
  return lines.join('\n');
}

function graphs() {
  const edges = cruise();
  const assembly = (n) => new RegExp(`^${SRC}[^/]+\\.ts$`).test(n);
  // 1. The server: its top folders, the assembly files as one node, rmm/ as one node.
  const top = project(edges, (n) => {
    if (assembly(n)) return 'assembly';
    if (n.startsWith(`${SRC}rmm`)) return 'rmm';
    if (n.startsWith(SRC)) return n.slice(SRC.length).split('/')[0];
    if (n.startsWith('libs/')) return n.split('/').slice(0, 2).join('/');
    return null;
  });
  const server = mermaid(reduce(top), (n) => (n === 'assembly' ? 'assembly: main, server, app.module, error-surfaces' : n), [
    ['ground', ['common', 'config', 'database', 'jobs', 'settings']],
  ]);
  // 2. rmm/: the ground, each area's folders, the top; what rmm/ imports from outside it is in the first picture.
  const inRmm = project(edges, (n) => {
    if (n === `${SRC}rmm`) return 'rmm (assembly)'; // rmm.module.ts, rmm-error.surface.ts
    if (!n.startsWith(`${SRC}rmm/`)) return null;
    const rest = n.slice(`${SRC}rmm/`.length);
    return AREAS.includes(rest) ? `${rest}/${rest}.module` : rest; // a file at an area's root: its module
  });
  const groups = [['ground', ['common']], ...AREAS.map((a) => [a, [...inRmm.keys()].filter((k) => k.startsWith(`${a}/`))]), ['top', ['events', 'bootstrap', 'rmm (assembly)']]];
  const rmm = mermaid(reduce(inRmm), (n) => (n.includes('/') ? n.split('/').slice(1).join('/') : n), groups);
  return { server, rmm };
}

function render(doc, { server, rmm }) {
  const put = (text, name, body) => {
    const re = new RegExp(`(<!-- graph:${name} -->\\n)[\\s\\S]*?(<!-- /graph:${name} -->)`);
    if (!re.test(text)) throw new Error(`docs/architecture.md has no <!-- graph:${name} --> … <!-- /graph:${name} --> block`);
    return text.replace(re, (_m, a, b) => `${a}${body}\n${b}`);
  };
  return put(put(doc, 'server', server), 'rmm', rmm);
}

const doc = fs.readFileSync(DOC, 'utf8');
const next = render(doc, graphs());
if (process.argv.includes('--check')) {
  if (next !== doc) {
    process.stderr.write('docs/architecture.md: the module graphs are not what the code gives: run npm run graph\n');
    process.exit(1);
  }
  process.stdout.write('docs/architecture.md: the module graphs are current\n');
} else {
  fs.writeFileSync(DOC, next);
  process.stdout.write(`wrote ${path.relative(root, DOC)}\n`);
}
