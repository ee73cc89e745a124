'use strict';
/**
 * The single-file agents' figures (issue 22), a step of `npm run bench`, or alone: `node bench/agent-binaries.js`.
 * Builds each target on its own into a temporary folder (`node scripts/build-agent.js --binaries --target T`,
 * timed as a whole: Bun's compile, the macOS signature, SHA-256, gzip level 6, the manifest) and prints one JSON
 * line per target: {"target","size","gzip_size","build_ms"}. The Bun runtimes are fetched first (not timed).
 * Writes docs/performance.md between the agent-binaries-bench markers. Benchmarks measure; nothing asserts.
 */
const { replaceDocSection } = require('./doc-section');
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TARGETS = ['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64', 'windows-amd64'];

async function runAgentBinariesBench({ log = () => undefined, print = () => undefined } = {}) {
  log('agent binaries: fetching the Bun runtimes (not timed)…');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/agent-runtimes.js'), '--fetch'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const out = mkdtempSync(path.join(os.tmpdir(), 'rmm-bench-agent-bin-'));
  const rows = [];
  try {
    for (const target of TARGETS) {
      const started = process.hrtime.bigint();
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-agent.js'), '--binaries', '--target', target, '--out', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      const buildMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      const entry = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')).targets[target];
      const row = { target, size: entry.size, gzip_size: entry.gzip.size, build_ms: buildMs };
      print(JSON.stringify(row));
      rows.push(row);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return { date: new Date().toISOString(), loadAverage: Math.round(os.loadavg()[0] * 100) / 100, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, rows };
}

const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;

function markdown(r) {
  const total = (k) => r.rows.reduce((sum, row) => sum + row[k], 0);
  return [
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${r.cpus} × ${r.cpuModel}, load average ${r.loadAverage} (\`node bench/agent-binaries.js\`; each target built alone).`,
    '',
    '| Target | Binary | gzip (level 6) | Build (compile, sign, hash, gzip) |',
    '|---|---:|---:|---:|',
    ...r.rows.map((row) => `| ${row.target} | ${mb(row.size)} | ${mb(row.gzip_size)} | ${(row.build_ms / 1000).toFixed(1)} s |`),
    `| all five | ${mb(total('size'))} | ${mb(total('gzip_size'))} | ${(total('build_ms') / 1000).toFixed(1)} s |`,
    '',
  ].join('\n');
}

function updateDoc(table) {
  replaceDocSection('agent-binaries-bench', table);
}

if (require.main === module) {
  runAgentBinariesBench({ log: (m) => console.error(`[bench] ${m}`), print: (line) => console.log(line) })
    .then((r) => {
      const table = markdown(r);
      updateDoc(table);
      console.error(table);
    })
    .catch((err) => {
      console.error(`[bench] agent binaries failed: ${err.message}`);
      process.exit(1);
    });
}

module.exports = { runAgentBinariesBench, agentBinariesMarkdown: markdown, updateAgentBinariesDoc: updateDoc };
