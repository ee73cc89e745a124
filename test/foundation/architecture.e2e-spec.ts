import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const config = join(root, '.dependency-cruiser.cjs');

/** depcruise with the project's rules over `cwd`'s apps/api/src: its exit code and what it printed. */
async function cruise(cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [depcruise, '--config', config, 'apps/api/src'], { cwd, encoding: 'utf8' });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

/** A scratch tree of TypeScript files (path → source) under a temporary folder, with a tsconfig as the project's. */
function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rmm-arch-'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'es2022', strict: true } }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tree = (files: Record<string, string>): string => {
  const d = scratch(files);
  dirs.push(d);
  return d;
};

describe('the import rules (docs/architecture.md; npm run lint runs them)', () => {
  it('hold on the server as it is: no cycle between folders or files, every layer in its place', async () => {
    const { code, out } = await cruise(root);
    expect(out).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it('refuse a cycle between two folders, even one made of different files', async () => {
    const d = tree({
      'apps/api/src/rmm/fleet/agents/a.ts': "import { b } from '../presence/b';\nexport const a = (): number => b;\n",
      'apps/api/src/rmm/fleet/presence/b.ts': 'export const b = 1;\n',
      'apps/api/src/rmm/fleet/presence/c.ts': "import { a } from '../agents/a';\nexport const c = (): number => a();\n",
    });
    const { code, out } = await cruise(d);
    expect(code).not.toBe(0);
    expect(out).toMatch(/error no-folder-cycle: apps\/api\/src\/rmm\/fleet\/(agents|presence)/);
  });

  it('refuse a ground layer importing a feature, and say where the code should go', async () => {
    const d = tree({
      'apps/api/src/common/values.ts': "import { RMM_STATUS } from '../rmm/rmm-error.surface';\nexport const n = RMM_STATUS;\n",
      'apps/api/src/rmm/rmm-error.surface.ts': 'export const RMM_STATUS = 1;\n',
    });
    const { code, out } = await cruise(d);
    expect(code).not.toBe(0);
    expect(out).toContain('error ground-imports-no-feature: apps/api/src/common/values.ts → apps/api/src/rmm/rmm-error.surface.ts');
  });

  it('refuse common/ importing the job registry (it registers its loops through the port common/jobs/jobs.ts), and the registry importing a feature', async () => {
    const d = tree({
      'apps/api/src/common/rate-limit/limiter.ts': "import { JobRegistry } from '../../jobs/job-registry';\nexport const r = JobRegistry;\n",
      'apps/api/src/jobs/job-registry.ts': "import { n } from '../rmm/fleet/presence/p';\nexport const JobRegistry = n;\n",
      'apps/api/src/rmm/fleet/presence/p.ts': 'export const n = 1;\n',
    });
    const { code, out } = await cruise(d);
    expect(code).not.toBe(0);
    expect(out).toContain('error common-below-jobs: apps/api/src/common/rate-limit/limiter.ts → apps/api/src/jobs/job-registry.ts');
    expect(out).toContain('error ground-imports-no-feature: apps/api/src/jobs/job-registry.ts → apps/api/src/rmm/fleet/presence/p.ts');
  });

  it("refuse rmm's ground importing an area, and an area importing a higher one (type-only imports too)", async () => {
    const d = tree({
      'apps/api/src/rmm/common/principal.ts': "import type { Agent } from '../fleet/agents/agent';\nexport type P = Agent;\n",
      'apps/api/src/rmm/fleet/agents/agent.ts': "import { run } from '../../automation/script-runs/run';\nexport interface Agent { id: number }\nexport const go = run;\n",
      'apps/api/src/rmm/automation/script-runs/run.ts': 'export const run = 1;\n',
    });
    const { code, out } = await cruise(d);
    expect(code).not.toBe(0);
    expect(out).toContain('error rmm-ground-imports-no-feature: apps/api/src/rmm/common/principal.ts → apps/api/src/rmm/fleet/agents/agent.ts');
    expect(out).toContain('error layer-fleet: apps/api/src/rmm/fleet/agents/agent.ts → apps/api/src/rmm/automation/script-runs/run.ts');
  });

  it('keep the module graphs of docs/architecture.md current (npm run graph rewrites them)', async () => {
    const { stdout } = await run(process.execPath, [join(root, 'scripts', 'architecture-graph.js'), '--check'], { cwd: root, encoding: 'utf8' });
    expect(stdout).toContain('the module graphs are current');
  });
});
