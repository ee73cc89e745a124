import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * package.json declares what the code uses, and only that: knip (config: knip.jsonc) follows the imports from every
 * entry (the server's and the agent's programs, the console, scripts, benchmarks, tests, the tools' configs) and
 * reports a declared dependency that nothing uses, a used one that is not declared, and a file nothing reaches.
 * Unused exports it only reports (`npm run knip`). knip takes about 2 s here, hence this tier and not the unit one.
 */
const ROOT = join(__dirname, '..', '..');
const KNIP = join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js');
const ENFORCED = ['--dependencies', '--files', '--treat-config-hints-as-errors'];

function knip(cwd: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [KNIP, '--no-progress', '--reporter', 'compact', ...ENFORCED], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

describe('declared dependencies (knip)', () => {
  it('reports no unused dependency, no undeclared one, no unreached file and no stale line in knip.jsonc', () => {
    expect(knip(ROOT)).toEqual({ status: 0, output: '' });
  }, 120_000);

  it('the check can fail: a copy of the repository whose package.json declares left-pad and not ws', () => {
    // A copy (knip's globs do not follow symbolic links), node_modules linked rather than copied.
    const copy = mkdtempSync(join(tmpdir(), 'rmm-knip-'));
    try {
      const skip = new Set(['.git', 'node_modules', 'dist', 'docs', 'package.json', 'package-lock.json', '.cache', '.data', 'coverage']);
      for (const name of readdirSync(ROOT)) if (!skip.has(name)) cpSync(join(ROOT, name), join(copy, name), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      delete pkg.dependencies.ws;
      pkg.dependencies['left-pad'] = '1.3.0';
      writeFileSync(join(copy, 'package.json'), JSON.stringify(pkg, null, 2));

      const r = knip(copy);
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/^Unused dependencies \(1\)\npackage\.json: left-pad$/m);
      expect(r.output).toMatch(/^Unlisted dependencies \(\d+\)$/m);
      expect(r.output).toMatch(/^apps\/\S+: ws$/m); // (each file that imports it)
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 120_000);

  // knip does not check optionalDependencies: the Bun runtimes (@oven/bun-*) are loaded by name by the agent's build.
  it('names every optional dependency in the code that loads it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
    const sources = ['apps', 'libs', 'scripts', 'bench']
      .flatMap((dir) => readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && /\.(ts|tsx|js|mjs|cjs)$/.test(e.name))
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
    const unnamed = Object.keys(pkg.optionalDependencies ?? {}).filter((name) => !sources.some((text) => text.includes(`'${name}'`)));
    expect(unnamed).toEqual([]);
  });
});
