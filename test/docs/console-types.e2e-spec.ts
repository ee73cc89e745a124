import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The console's API types (apps/console/src/api/openapi.d.ts) are generated from the committed docs/openapi.json
 * by scripts/openapi-types.js (openapi-typescript), which `npm run openapi` runs after writing the document. An API
 * changed without them regenerated fails here, and the console does not build against a stale copy.
 */
const ROOT = join(__dirname, '..', '..');
const TYPES = 'apps/console/src/api/openapi.d.ts';
const FIX = 'run `npm run openapi` (it writes docs/openapi.json, then the console types)';

/** What the generator makes from a document (the committed one by default). */
function generate(doc?: string): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'openapi-types.js'), '--stdout', ...(doc ? [doc] : [])], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  return r.stdout;
}

/** The first line where the committed file and the generated one differ, said so that the reader knows what to do. */
function staleness(committed: string, generated: string): string | null {
  if (committed === generated) return null;
  const a = committed.split('\n');
  const b = generated.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const line = i === -1 ? a.length : i;
  return `${TYPES} is stale from line ${line + 1} (${JSON.stringify(a[line]?.trim() ?? '')} where the document makes ${JSON.stringify(b[line]?.trim() ?? '')}): ${FIX}`;
}

describe(`the console's API types (${TYPES})`, () => {
  it('are what the generator makes from the committed docs/openapi.json (else: run `npm run openapi`)', () => {
    expect(staleness(readFileSync(join(ROOT, TYPES), 'utf8'), generate())).toBeNull();
  });

  it('go stale when the document changes: a field renamed in the API is reported at its line, with the command that fixes it', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));
    const agent = doc.components.schemas.AgentDto;
    agent.properties = Object.fromEntries(Object.entries(agent.properties).map(([k, v]) => [k === 'hostname' ? 'host_name' : k, v]));
    agent.required = agent.required.map((k: string) => (k === 'hostname' ? 'host_name' : k));
    const dir = mkdtempSync(join(tmpdir(), 'console-types-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
      const message = staleness(readFileSync(join(ROOT, TYPES), 'utf8'), generate(join(dir, 'openapi.json')));
      expect(message).toMatch(/is stale from line \d+ \("hostname: string;" where the document makes "host_name: string;"\): run `npm run openapi`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
