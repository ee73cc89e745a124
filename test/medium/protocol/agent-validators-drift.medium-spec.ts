import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The agent's validators are generated ahead of time from the schemas (libs/protocol/src/generated/agent-validators.ts,
 * by scripts/protocol-validators.js, which reads the schemas through esbuild): the committed file must be what the
 * schemas make now. (That its verdicts are the compiled schemas' is libs/protocol/src/agent-validators.spec.ts.)
 */
const ROOT = join(__dirname, '..', '..', '..');
const GENERATED = join(ROOT, 'libs', 'protocol', 'src', 'generated', 'agent-validators.ts');
const generator = require(join(ROOT, 'scripts', 'protocol-validators.js')) as {
  generateValidators(protocol: object): string;
  loadProtocol(): Record<string, unknown>;
  staleness(committed: string, generated: string): string | null;
};

describe('the generated agent validators (libs/protocol/src/generated/agent-validators.ts)', () => {
  it('are what `npm run protocol:validators` makes from the schemas now', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'protocol-validators.js'), '--stdout'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(generator.staleness(readFileSync(GENERATED, 'utf8'), r.stdout)).toBeNull();
  });

  it('go stale when a schema changes: the check says at which line, and the command that fixes it', () => {
    const protocol = generator.loadProtocol();
    const messages = structuredClone(protocol.SERVER_MESSAGES) as Record<string, { properties: Record<string, Record<string, unknown>> }>;
    messages.hello.properties.heartbeat_seconds.maximum = 3_600;
    const message = generator.staleness(readFileSync(GENERATED, 'utf8'), generator.generateValidators({ ...protocol, SERVER_MESSAGES: messages }));
    expect(message).toMatch(/^libs\/protocol\/src\/generated\/agent-validators\.ts is stale from line \d+ \(".*86400.*" where the schemas make ".*3600.*"\): run `npm run protocol:validators`$/);
  });
});
