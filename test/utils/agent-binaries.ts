import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './processes';

export const VERSION: string = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const BUILD_SCRIPT = join(ROOT, 'scripts', 'build-agent.js');

/**
 * A folder holding the linux-amd64 agent binary of this version, its .gz and manifest.json, as the build script
 * leaves them (built once per machine and agent sources, shared by the test files; read only). With the build
 * script's output (`--binaries --target linux-amd64`); it throws when the build fails.
 */
export function linuxAmd64BinDir(): string {
  const sources = Math.max(newestMtime(join(ROOT, 'apps', 'agent', 'src')), ...['build-agent.js', 'build-agent-binaries.js', 'agent-runtimes.js', 'macho-adhoc-sign.js'].map((f) => newestMtime(join(ROOT, 'scripts', f))));
  const dir = join(tmpdir(), `rmm-test-agent-bin-${VERSION}-${Math.floor(sources)}`);
  if (existsSync(join(dir, 'manifest.json'))) return dir;
  // binaries of earlier sources or versions (over 100 MB each) are not kept
  for (const name of readdirSync(tmpdir())) {
    if (/^rmm-test-agent-bin-\d/.test(name) && join(tmpdir(), name) !== dir) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  const work = mkdtempSync(join(tmpdir(), 'rmm-test-agent-bin-build-'));
  try {
    execFileSync(process.execPath, [BUILD_SCRIPT, '--binaries', '--target', 'linux-amd64', '--version', VERSION, '--out', work], { stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      renameSync(work, dir);
    } catch {
      // another test file built it meanwhile: theirs is the same
      rmSync(work, { recursive: true, force: true });
    }
    return dir;
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

/** What manifest.json says of one target (for assertions). */
export function manifestEntry(dir: string, target: string): { file: string; size: number; sha256: string; gzip?: { file: string; size: number } } {
  return (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { targets: Record<string, never> }).targets[target];
}

/**
 * A folder of links to every program in /usr/bin and /bin except Node.js (and its npm tools): a PATH on which
 * `command -v node` fails, as on a device without Node.js. `drop` leaves out more (curl, sha256sum …).
 */
export function pathWithoutNode(parent: string, drop: string[] = []): string {
  const dir = mkdtempSync(join(parent, 'no-node-bin-'));
  const skip = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack', ...drop]);
  for (const from of ['/usr/bin', '/bin']) {
    for (const name of readdirSync(from)) {
      if (skip.has(name) || existsSync(join(dir, name))) continue;
      symlinkSync(join(from, name), join(dir, name));
    }
  }
  return dir;
}

/** A `uname` that reports another machine for -s/-m/-sm (a target with no binary) and passes anything else on. */
export function fakeUname(parent: string, system: string, machine: string): string {
  const dir = join(parent, `uname-${system}-${machine}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'uname'),
    `#!/bin/sh\ncase "$*" in\n  -sm|'-s -m') echo '${system} ${machine}' ;;\n  -s) echo '${system}' ;;\n  -m) echo '${machine}' ;;\n  *) exec /usr/bin/uname "$@" ;;\nesac\n`,
    { mode: 0o755 },
  );
  return dir;
}

function newestMtime(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((n) => newestMtime(join(path, n))));
}
