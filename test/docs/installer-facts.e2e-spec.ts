import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeploymentEntity } from '@app/entities';
import { AGENT_TARGETS } from '@app/protocol';
import { INSTALLER_FACTS, INSTALLER_REQUIREMENTS } from '../../apps/console/src/facts/installer-facts';
import { buildInstaller } from '../../apps/api/src/rmm/fleet/deployments/installer';
import { section } from '../utils/markdown';

/**
 * The console's text about installers (apps/console/src/facts/installer-facts.ts, shown on the Deployments page)
 * says what docs/enrolling.md and the README say, and what the installer the server serves really needs (issue
 * #29, point 2: the page claimed "Node.js 20 or later on the device" for every installer).
 */
const ROOT = join(__dirname, '..', '..');
/** Markdown as a reader sees it: no emphasis or code marks, one space between words. */
const plain = (file: string): string =>
  readFileSync(join(ROOT, file), 'utf8')
    .replace(/[`*]/g, '')
    .replace(/\s+/g, ' ');

describe('the installer facts the console shows', () => {
  const enrolling = plain('docs/enrolling.md');

  it('are each stated in docs/enrolling.md, step 3 (the device’s requirements)', () => {
    for (const phrase of [INSTALLER_FACTS.noNode, INSTALLER_FACTS.tools, INSTALLER_FACTS.windows, INSTALLER_FACTS.fallback]) {
      expect({ phrase, found: enrolling.includes(phrase) }).toEqual({ phrase, found: true });
    }
  });

  it('name the binary machines the README names, and the server’s binary targets', () => {
    const readme = section(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## Enrolling a device').replace(/\s+/g, ' ');
    expect(readme).toContain('The installer needs no Node.js on Linux and macOS (x86_64, arm64) nor on 64-bit Windows');
    expect(INSTALLER_FACTS.binaryMachines).toBe('Linux and macOS (x86_64, arm64) and 64-bit Windows');
    expect([...INSTALLER_FACTS.binaryTargets]).toEqual([...AGENT_TARGETS]);
  });

  it('match what the served shell installer asks of the device: Node.js only for the fallback', async () => {
    const deployment = { uuid: '0123456789abcdef0123456789abcdef', arch: 'amd64', expiresAt: new Date('2026-12-01T00:00:00Z') } as DeploymentEntity;
    const installer = await buildInstaller(deployment, 'http://127.0.0.1:3000', 'linux', 'KEY');
    const script = (installer.body as string).replace(/\n# /g, ' ');
    expect(script).toContain('curl or wget, and sha256sum, shasum or openssl, nothing else');
    expect(script).toContain('On another machine it installs the Node.js agent,');
  });

  it('never say that Node.js is needed on the default path', () => {
    expect(INSTALLER_REQUIREMENTS).not.toMatch(/need(s)? Node\.js 20 or later on the device/);
    expect(INSTALLER_REQUIREMENTS).toContain('no Node.js needed');
    expect(INSTALLER_REQUIREMENTS).toContain(`Another machine (32-bit, riscv64, …) ${INSTALLER_FACTS.fallback}`);
  });
});
