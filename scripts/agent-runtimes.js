// The Bun runtimes that `bun build --compile` puts in each single-file agent (scripts/build-agent.js --binaries):
// one npm package per target, all optionalDependencies of the project at one exact version. `npm ci` installs
// only the one for this machine (npm skips the others by their os/cpu fields); a runtime that is not in
// node_modules is fetched with `npm pack <pkg>@<version>` (the npm registry is the only network use) into
// .cache/agent-runtimes/<name>-<version>/, checked against the integrity package-lock.json records for it, and
// unpacked there. `node scripts/agent-runtimes.js [--fetch]` lists (and fetches) them; exit 1 when one is missing.
'use strict';
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const BUN_VERSION = '1.4.5';

/**
 * Our target names, the file each one's binary has, Bun's --target and the runtime package. The x64 targets use
 * Bun's "baseline" runtimes (x86-64-v2: SSE4.2, any x64 CPU since 2008): the default x64 runtimes need AVX2 and
 * die with SIGILL on older CPUs and in virtual machines with a conservative CPU model (Proxmox's default CPU
 * types have no AVX2), which an agent of many devices cannot afford. The compiler is this machine's runtime.
 */
const TARGETS = [
  { target: 'linux-amd64', file: 'rmm-agent-linux-amd64', bunTarget: 'bun-linux-x64-baseline', pkg: '@oven/bun-linux-x64-baseline', exe: 'bin/bun' },
  { target: 'linux-arm64', file: 'rmm-agent-linux-arm64', bunTarget: 'bun-linux-arm64', pkg: '@oven/bun-linux-aarch64', exe: 'bin/bun' },
  { target: 'darwin-amd64', file: 'rmm-agent-darwin-amd64', bunTarget: 'bun-darwin-x64-baseline', pkg: '@oven/bun-darwin-x64-baseline', exe: 'bin/bun' },
  { target: 'darwin-arm64', file: 'rmm-agent-darwin-arm64', bunTarget: 'bun-darwin-arm64', pkg: '@oven/bun-darwin-aarch64', exe: 'bin/bun' },
  { target: 'windows-amd64', file: 'rmm-agent-windows-amd64.exe', bunTarget: 'bun-windows-x64-baseline', pkg: '@oven/bun-windows-x64-baseline', exe: 'bin/bun.exe' },
];

/** The target of the machine this runs on (its runtime is the compiler), or undefined. */
function hostTarget() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  const name = os && arch ? `${os}-${arch}` : undefined;
  return TARGETS.find((t) => t.target === name);
}

/** What package-lock.json records for pkg: its version and integrity (sha512). */
function lockEntry(root, pkg) {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const entry = lock.packages && lock.packages[`node_modules/${pkg}`];
  if (!entry || !entry.version || !entry.integrity) throw new Error(`package-lock.json records no version and integrity for ${pkg}`);
  if (entry.version !== BUN_VERSION) throw new Error(`package-lock.json has ${pkg}@${entry.version}; the agent build needs ${BUN_VERSION}`);
  return entry;
}

function cacheDir(root, t) {
  return path.join(root, '.cache', 'agent-runtimes', `${t.pkg.replace(/^@/, '').replace('/', '-')}-${BUN_VERSION}`);
}

/** The runtime binary of target t if it is already here (node_modules, then the cache), else undefined. */
function findRuntime(root, t) {
  const installed = path.join(root, 'node_modules', t.pkg);
  try {
    const { version } = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    if (version === BUN_VERSION && fs.existsSync(path.join(installed, t.exe))) return path.join(installed, t.exe);
  } catch {
    /* not installed: look in the cache */
  }
  const cached = cacheDir(root, t);
  // (.verified is written last: a directory without it is an interrupted fetch)
  if (fs.existsSync(path.join(cached, '.verified')) && fs.existsSync(path.join(cached, 'package', t.exe))) return path.join(cached, 'package', t.exe);
  return undefined;
}

/** Fetches t's package into the cache (npm pack, integrity check, tar), returns its binary. Callers hold a lock. */
function fetchRuntime(root, t, log = (m) => process.stderr.write(`${m}\n`)) {
  const { integrity } = lockEntry(root, t.pkg);
  const [algorithm, expected] = [integrity.slice(0, integrity.indexOf('-')), integrity.slice(integrity.indexOf('-') + 1)];
  if (algorithm !== 'sha512') throw new Error(`package-lock.json's integrity for ${t.pkg} is ${algorithm}, not sha512`);
  const dest = cacheDir(root, t);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const work = fs.mkdtempSync(`${dest}.fetch-`);
  try {
    log(`fetching ${t.pkg}@${BUN_VERSION} (npm pack; the runtime of ${t.target} binaries)`);
    let packed;
    try {
      const out = execFileSync('npm', ['pack', `${t.pkg}@${BUN_VERSION}`, '--json', '--pack-destination', work], {
        cwd: work,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 10 * 60_000,
        maxBuffer: 16 * 1024 * 1024,
        shell: process.platform === 'win32', // (npm is npm.cmd there)
      });
      packed = JSON.parse(out)[0].filename;
    } catch (err) {
      const detail = String((err.stderr || err.message || err) ?? '').trim().split('\n').slice(-3).join(' ');
      throw new Error(`cannot fetch ${t.pkg}@${BUN_VERSION} with npm pack: ${detail}`);
    }
    const tgz = path.join(work, path.basename(packed));
    const actual = crypto.createHash('sha512').update(fs.readFileSync(tgz)).digest('base64');
    if (actual !== expected) throw new Error(`${t.pkg}@${BUN_VERSION}: the fetched package's sha512 does not match package-lock.json's integrity`);
    fs.mkdirSync(path.join(work, 'x'));
    execFileSync('tar', ['-xzf', tgz, '-C', path.join(work, 'x'), '--no-same-owner'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const exe = path.join(work, 'x', 'package', t.exe);
    if (!fs.existsSync(exe)) throw new Error(`${t.pkg}@${BUN_VERSION} holds no ${t.exe}`);
    fs.chmodSync(exe, 0o755);
    fs.writeFileSync(path.join(work, 'x', '.verified'), `${integrity}\n`);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.renameSync(path.join(work, 'x'), dest);
    return path.join(dest, 'package', t.exe);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The runtime binary of target t, fetched when it is not here. Takes the runtimes' lock while fetching. */
function runtimeFor(root, t, log) {
  const found = findRuntime(root, t);
  if (found) return found;
  const { acquire } = require('./build-lock');
  const release = acquire(root, 'agent-runtimes');
  try {
    return findRuntime(root, t) ?? fetchRuntime(root, t, log);
  } finally {
    release();
  }
}

module.exports = { BUN_VERSION, TARGETS, hostTarget, findRuntime, runtimeFor };

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  const fetch = process.argv.includes('--fetch');
  let missing = 0;
  for (const t of TARGETS) {
    let where;
    try {
      where = fetch ? runtimeFor(root, t) : findRuntime(root, t);
    } catch (err) {
      process.stderr.write(`${err.message}\n`);
    }
    if (!where) missing++;
    process.stdout.write(`${t.target}\t${t.pkg}@${BUN_VERSION}\t${where ? path.relative(root, where) : 'missing'}\n`);
  }
  process.exit(missing ? 1 : 0);
}
