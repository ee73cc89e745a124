// `node scripts/build-agent.js --binaries [--target T[,T…]] [--version V] [--out DIR] [--if-stale]`: the
// single-file agents. Bun compiles apps/agent/src/main.ts with each target's Bun runtime
// (scripts/agent-runtimes.js) into DIR/rmm-agent-<target>[.exe] (0755), gzips it beside it (<file>.gz, for
// clients that accept gzip), and records both in DIR/manifest.json:
//   {"version":"0.1.0","bun":"1.4.5","targets":{"linux-amd64":{"file":…,"size":N,"sha256":"<hex>","gzip":{"file":…,"size":N}},…}}
// (the targets built so far for that version: a build of another version starts the manifest again).
// Defaults: every target, package.json's version, dist/agent/bin. `--if-stale` skips a target whose binary in DIR
// is of this version and newer than the agent's sources (libs/protocol included) and this build's scripts.
// One build per DIR at a time (scripts/build-lock.js); Bun writes its temporary file into the current folder, so
// each target is compiled in a private folder inside DIR and renamed into place, the manifest last.
'use strict';
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const zlib = require('node:zlib');
const { acquire } = require('./build-lock');
const { newest } = require('./newest-mtime');
const { BUN_VERSION, TARGETS, hostTarget, runtimeFor } = require('./agent-runtimes');
const { adhocSign, verifyAdhoc } = require('./macho-adhoc-sign');
const { forbiddenInputs } = require('./agent-bundle-check');

const root = path.resolve(__dirname, '..');
const ENTRY = path.join(root, 'apps', 'agent', 'src', 'main.ts');
// What a binary is made from: when one of these is newer than it, --if-stale builds it again.
const INPUTS = [
  path.join(root, 'apps', 'agent'),
  path.join(root, 'libs', 'protocol'),
  path.join(root, 'tsconfig.json'),
  path.join(root, 'package-lock.json'),
  path.join(__dirname, 'build-agent.js'),
  __filename,
  path.join(__dirname, 'agent-runtimes.js'),
  path.join(__dirname, 'macho-adhoc-sign.js'),
  path.join(__dirname, 'agent-bundle-check.js'),
];
// zlib level 6: measured on these binaries, level 9 takes 1.4–1.5× as long for 0.1 % less, level 1 half the
// time for 6 % more (docs/performance.md, "Agent binaries").
const GZIP_LEVEL = 6;
const VERSION_RE = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,40})?(?:\+[0-9A-Za-z.-]{1,40})?$/;
const USAGE = 'usage: node scripts/build-agent.js --binaries [--target T[,T…]] [--version V] [--out DIR] [--if-stale]';

class UsageError extends Error {}

function parseArgs(argv) {
  const args = { targets: TARGETS, version: require(path.join(root, 'package.json')).version, out: path.join(root, 'dist', 'agent', 'bin'), ifStale: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)] : [argv[i], undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--binaries') continue;
    else if (flag === '--if-stale') args.ifStale = true;
    else if (flag === '--target') {
      const names = value().split(',').map((s) => s.trim());
      args.targets = names.map((n) => {
        const t = TARGETS.find((x) => x.target === n);
        if (!t) throw new UsageError(`unknown target: ${n} (targets: ${TARGETS.map((x) => x.target).join(', ')})`);
        return t;
      });
      args.targets = TARGETS.filter((t) => args.targets.includes(t)); // (each once, in the usual order)
    } else if (flag === '--version') {
      args.version = value();
      if (!VERSION_RE.test(args.version)) throw new UsageError(`--version must be a semantic version such as 0.1.0 (got ${JSON.stringify(args.version)})`);
    } else if (flag === '--out') args.out = path.resolve(value());
    else throw new UsageError(`unknown argument: ${argv[i]}`);
  }
  return args;
}

function readManifest(file) {
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (m && typeof m.version === 'string' && m.targets && typeof m.targets === 'object') return m;
  } catch {
    /* none yet, or unreadable: start again */
  }
  return undefined;
}

/** Is DIR's binary of t already this version's, complete, and newer than what it is made from? */
function fresh(out, manifest, t, version, inputsMtime) {
  const entry = manifest && manifest.version === version && manifest.targets[t.target];
  if (!entry || !entry.gzip) return false;
  try {
    const bin = fs.statSync(path.join(out, entry.file));
    const gz = fs.statSync(path.join(out, entry.gzip.file));
    return bin.size === entry.size && gz.size === entry.gzip.size && bin.mtimeMs >= inputsMtime;
  } catch {
    return false;
  }
}

/** Compiles one target into work/ (Bun's temporary file lands in its current folder: work/ too). */
function compile(bun, t, version, work) {
  const runtime = runtimeFor(root, t);
  const outfile = path.join(work, t.file);
  const args = [
    'build',
    ENTRY,
    '--compile',
    '--minify',
    `--target=${t.bunTarget}`,
    `--compile-executable-path=${runtime}`,
    // The agent reads no .env or bunfig.toml from whatever folder it is started in.
    '--no-compile-autoload-dotenv',
    '--no-compile-autoload-bunfig',
    '--define',
    `__RMM_AGENT_VERSION__=${JSON.stringify(version)}`,
    '--define',
    `__RMM_AGENT_TARGET__=${JSON.stringify(t.target)}`,
    // What went in: checked below, as scripts/build-agent.js checks the Node.js bundle.
    `--metafile=${path.join(work, 'metafile.json')}`,
    '--outfile',
    outfile,
  ];
  const r = spawnSync(bun, args, { cwd: work, encoding: 'utf8', env: { ...process.env, TMPDIR: work, NO_COLOR: '1' }, timeout: 10 * 60_000 });
  if (r.error || r.status !== 0 || !fs.existsSync(outfile)) {
    const detail = r.error ? r.error.message : `${r.stderr}${r.stdout}`.trim().split('\n').slice(-5).join('\n');
    throw new Error(`bun build for ${t.target} failed${r.status ? ` (exit ${r.status})` : ''}: ${detail}`);
  }
  const forbidden = forbiddenInputs(JSON.parse(fs.readFileSync(path.join(work, 'metafile.json'), 'utf8')));
  if (forbidden.length) throw new Error(`${t.target}: ${forbidden.join('; ')} (the agent imports '@app/protocol/agent' only: docs/decisions.md)`);
  let bytes = fs.readFileSync(outfile);
  if (t.target.startsWith('darwin')) {
    // darwin-arm64: Bun signed it ad hoc; darwin-amd64: it kept the runtime's signature, now invalid: re-sign.
    if (!verifyAdhoc(bytes).ok) bytes = adhocSign(bytes, { identifier: 'rmm-agent' });
    const check = verifyAdhoc(bytes);
    if (!check.ok) throw new Error(`${t.target}: the code signature is not valid after signing: ${check.problems.join('; ')}`);
    fs.writeFileSync(outfile, bytes);
  }
  fs.chmodSync(outfile, 0o755);
  return { outfile, bytes };
}

async function buildTarget(bun, t, version, out) {
  const started = Date.now();
  const work = fs.mkdtempSync(path.join(out, `.build-${t.target}-`));
  try {
    const { outfile, bytes } = compile(bun, t, version, work);
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    const gz = await promisify(zlib.gzip)(bytes, { level: GZIP_LEVEL });
    fs.writeFileSync(`${outfile}.gz`, gz, { mode: 0o644 });
    fs.renameSync(outfile, path.join(out, t.file));
    fs.renameSync(`${outfile}.gz`, path.join(out, `${t.file}.gz`));
    const ms = Date.now() - started;
    const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    const shown = path.relative(root, path.join(out, t.file));
    process.stderr.write(`built ${shown.startsWith('..') ? path.join(out, t.file) : shown} (${version}, ${mb(bytes.length)}, gzip ${mb(gz.length)}, ${(ms / 1000).toFixed(1)} s)\n`);
    return { file: t.file, size: bytes.length, sha256, gzip: { file: `${t.file}.gz`, size: gz.length } };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Replaces DIR/manifest.json in one rename (readers see the old or the new one, never half). */
function writeManifest(out, manifest) {
  const file = path.join(out, 'manifest.json');
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 });
  fs.renameSync(tmp, file);
}

async function buildBinaries(argv) {
  const { targets, version, out, ifStale } = parseArgs(argv);
  fs.mkdirSync(out, { recursive: true });
  // (one lock per output folder: builds into two folders may run at once, their temporary files apart)
  acquire(root, `build-agent-bin-${crypto.createHash('sha256').update(out).digest('hex').slice(0, 12)}`);
  const manifestFile = path.join(out, 'manifest.json');
  const inputsMtime = Math.max(...INPUTS.map((p) => newest(p)));
  const todo = ifStale ? targets.filter((t) => !fresh(out, readManifest(manifestFile), t, version, inputsMtime)) : targets;
  if (!todo.length) return;
  const host = hostTarget();
  if (!host) throw new Error(`no Bun runtime runs on this machine (${process.platform}-${process.arch}): agent binaries are built on linux, darwin or windows, x64 or arm64`);
  const bun = runtimeFor(root, host);
  for (const t of todo) {
    const entry = await buildTarget(bun, t, version, out);
    const previous = readManifest(manifestFile);
    const manifest = previous && previous.version === version && previous.bun === BUN_VERSION ? previous : { version, bun: BUN_VERSION, targets: {} };
    manifest.targets[t.target] = entry;
    manifest.targets = Object.fromEntries(TARGETS.filter((x) => manifest.targets[x.target]).map((x) => [x.target, manifest.targets[x.target]]));
    writeManifest(out, manifest);
  }
}

module.exports = { buildBinaries, UsageError, USAGE };
