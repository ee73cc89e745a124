import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The committed OpenAPI document passes both linters an operator's tooling is likely to run: Redocly's
 * recommended rules and Spectral's spectral:oas, with the exceptions their committed rulesets justify
 * (.redocly.yaml, .spectral.yaml). Both run from node_modules, offline.
 */
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');

function run(bin: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(join(BIN, bin), args, {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    // Offline: no telemetry, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

describe('docs/openapi.json (linted)', () => {
  it('has no finding under redocly lint (recommended rules, .redocly.yaml)', () => {
    const r = run('redocly', ['lint', '--config', '.redocly.yaml', '--format', 'json', 'docs/openapi.json']);
    const json = r.out.slice(r.out.indexOf('{'), r.out.lastIndexOf('}') + 1);
    const report = JSON.parse(json) as { totals: { errors: number; warnings: number; ignored: number }; problems: Array<{ ruleId: string; message: string }> };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(r.status).toBe(0);
  }, 60_000);

  it('has no finding under spectral lint (spectral:oas, .spectral.yaml), warnings and hints included', () => {
    const r = run('spectral', ['lint', '--ruleset', '.spectral.yaml', '--format', 'json', '--fail-severity', 'hint', 'docs/openapi.json']);
    const json = r.out.slice(r.out.indexOf('['), r.out.lastIndexOf(']') + 1);
    const findings = JSON.parse(json) as Array<{ code: string; message: string; path: string[] }>;
    expect(findings.map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`)).toEqual([]);
    expect(r.status).toBe(0);
  }, 60_000);
});
