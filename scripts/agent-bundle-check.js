// What must not reach the agent's bundles (scripts/build-agent.js refuses to write a bundle that holds any of it):
// Ajv's compiler and the packages only it uses, and TypeBox. The agent checks the server's messages with the
// validators generated ahead of time from the protocol's schemas (libs/protocol/src/generated/agent-validators.ts),
// which need Ajv's small runtime helpers (ajv/dist/runtime/) and nothing else of Ajv; both would cost every device
// 8–12 MB of memory and the bundle ≈ 330 KB (docs/performance.md, "The protocol's schemas in the agent").
'use strict';

const FORBIDDEN = [
  { pattern: /(^|\/)node_modules\/ajv\/(?!dist\/runtime\/)/, what: "Ajv's compiler" },
  { pattern: /(^|\/)node_modules\/(fast-uri|json-schema-traverse)\//, what: "Ajv's compiler" },
  { pattern: /(^|\/)node_modules\/@sinclair\/typebox\//, what: 'TypeBox' },
];

/**
 * What an esbuild metafile's inputs hold that the agent must not carry: for each forbidden thing, the input of
 * it nearest the entry point and the chain of imports that brings it in, as a line a person can act on; [] when
 * there is none.
 */
function forbiddenInputs(metafile) {
  const inputs = metafile.inputs;
  const importer = new Map(); // input → the input that imports it on a shortest chain from an entry point
  const order = Object.values(metafile.outputs)
    .map((o) => o.entryPoint)
    .filter(Boolean);
  for (const e of order) importer.set(e, null);
  for (let i = 0; i < order.length; i++) {
    for (const { path: to } of inputs[order[i]]?.imports ?? []) {
      if (inputs[to] && !importer.has(to)) {
        importer.set(to, order[i]);
        order.push(to);
      }
    }
  }
  // (inputs no chain reaches, if any, last)
  for (const file of Object.keys(inputs)) if (!importer.has(file)) order.push(file);
  const chain = (file) => {
    const out = [];
    for (let f = file; f != null; f = importer.get(f)) out.unshift(f);
    return out.join(' → ');
  };
  const found = new Map(); // what → its input nearest the entry point
  for (const file of order) {
    const rule = FORBIDDEN.find((r) => r.pattern.test(file));
    if (rule && !found.has(rule.what)) found.set(rule.what, file);
  }
  return [...new Set(FORBIDDEN.map((r) => r.what))]
    .filter((what) => found.has(what))
    .map((what) => {
      const file = found.get(what);
      return importer.has(file) ? `${what} (${file}), through ${chain(file)}` : `${what} (${file})`;
    });
}

module.exports = { FORBIDDEN, forbiddenInputs };
