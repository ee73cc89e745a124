import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DeploymentEntity } from '@app/entities';
import type { Readable } from 'node:stream';
import { buildInstaller, psQuote, shQuote } from '../../../apps/api/src/rmm/fleet/deployments/installer';

/**
 * The installers as sh reads them and as they come from RMM_INSTALLERS_DIR (the pure parts are unit-tested beside
 * installer.ts; the service definitions they write, in installer-services.medium-spec.ts).
 */

/** Any server's public update key: base64 of 32 bytes. */
const KEY = Buffer.alloc(32, 7).toString('base64');

const deployment = (installFlags: string | null = null, arch = 'amd64'): DeploymentEntity =>
  Object.assign(new DeploymentEntity(), {
    uuid: '0b8c4a4e-8f4e-4a8e-9c0e-6d1f2a3b4c5d',
    clientId: 3,
    siteId: 4,
    arch,
    installFlags,
    expiresAt: new Date('2026-11-24T12:00:00Z'),
  });

/** A script's text, or all a native installer's stream gives. */
async function text(body: string | Readable): Promise<string> {
  if (typeof body === 'string') return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('installers', () => {
  it('the shell installer carries the server URL and the token as single-quoted words, and parses', async () => {
    const i = await buildInstaller(deployment(), 'https://rmm.example.test', 'linux', KEY);
    const body = await text(i.body);
    expect(i.filename).toBe('rmm-agent-install-linux-0b8c4a4e.sh');
    expect(body.startsWith('#!/bin/sh\n')).toBe(true);
    expect(body).toContain("\nRMM_SERVER='https://rmm.example.test'\n");
    expect(body).toContain("\nRMM_TOKEN='0b8c4a4e-8f4e-4a8e-9c0e-6d1f2a3b4c5d'\n");
    execFileSync('sh', ['-n', '-c', body]); // syntax check
  });

  it("a deployment made for a requested hostname says it registers as that name, the machine's own beside it", async () => {
    const requested = "ACME-WS-01 'x' $(touch pwned) `id`";
    const sh = await text((await buildInstaller(deployment(), 'https://rmm.example.test', 'linux', KEY, undefined, requested)).body);
    expect(sh).toContain(`\nRMM_HOSTNAME=${shQuote(requested)}\n`);
    expect(sh).toContain('say "registering as $RMM_HOSTNAME (this machine: $THIS_MACHINE)"');
    execFileSync('sh', ['-n', '-c', sh]);
    // the lines that name the device, as sh runs them (the requested name is data, never code)
    const naming = sh.split('\n').filter((l) => /^(THIS_MACHINE|RMM_HOSTNAME)=/.test(l) || l.startsWith('say() ') || l.startsWith('say "registering'));
    const out = execFileSync('sh', ['-c', naming.join('\n')], { env: { ...process.env, RMM_AGENT_HOSTNAME: 'vm' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toBe('');
    const said = execFileSync('sh', ['-c', `${naming.join('\n')} 2>&1`], { env: { ...process.env, RMM_AGENT_HOSTNAME: 'vm' }, encoding: 'utf8' });
    expect(said).toBe(`rmm-agent installer: registering as ${requested} (this machine: vm)\n`);

    const plain = await text((await buildInstaller(deployment(), 'https://rmm.example.test', 'linux', KEY)).body);
    expect(plain).toContain('\nRMM_HOSTNAME=$THIS_MACHINE\n');
    expect(plain).toContain('say "registering as $RMM_HOSTNAME"');

    const ps = await text((await buildInstaller(deployment(), 'https://rmm.example.test', 'windows', KEY, undefined, requested)).body);
    expect(ps).toContain(`$RmmHostname = ${psQuote(requested)}`);
    expect(ps).toContain('Say "registering as $RmmHostname (this machine: $ThisMachine)"');
    for (const body of [sh, ps]) expect(body.split('\n').filter((l) => l.startsWith('#')).join('\n')).not.toContain('ACME');
  });

  it('shQuote: sh reads back exactly the value, whatever its characters', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shquote-'));
    try {
      fc.assert(
        fc.property(fc.string({ unit: 'binary' }).filter((s) => !s.includes('\0')), (value) => {
          const script = join(dir, 's.sh');
          writeFileSync(script, `V=${shQuote(value)}\nprintf '%s' "$V"`);
          expect(execFileSync('sh', [script]).toString('utf8')).toBe(Buffer.from(value, 'utf8').toString('utf8'));
        }),
        { numRuns: 60 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves a native installer from RMM_INSTALLERS_DIR, named with the token, as a stream of its size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'installers-'));
    try {
      writeFileSync(join(dir, 'windows-amd64.msi'), 'MSI');
      writeFileSync(join(dir, 'darwin-arm64.pkg'), 'PKG');
      const win = await buildInstaller(deployment(), 'https://rmm.example.test', 'windows', KEY, dir);
      expect(win.filename).toBe('rmm-agent-0b8c4a4e-8f4e-4a8e-9c0e-6d1f2a3b4c5d.msi');
      expect(win.size).toBe(3);
      expect(await text(win.body)).toBe('MSI');
      expect(await text((await buildInstaller(deployment(null, 'arm64-mac'), 'https://rmm.example.test', 'darwin', KEY, dir)).body)).toBe('PKG');
      expect((await buildInstaller(deployment(), 'https://rmm.example.test', 'linux', KEY, dir)).filename).toMatch(/\.sh$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a native installer removed once opened is still sent whole; a name that is not a file is passed over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'installers-'));
    try {
      writeFileSync(join(dir, 'linux-amd64.run'), 'RUN'.repeat(100_000));
      const run = await buildInstaller(deployment(), 'https://rmm.example.test', 'linux', KEY, dir);
      unlinkSync(join(dir, 'linux-amd64.run'));
      expect(run.size).toBe(300_000);
      expect(await text(run.body)).toBe('RUN'.repeat(100_000));
      // gone: the script, as when there never was one
      expect((await buildInstaller(deployment(), 'https://rmm.example.test', 'linux', KEY, dir)).filename).toMatch(/\.sh$/);
      // a folder where windows-amd64.msi would be: the next extension, else the script
      mkdirSync(join(dir, 'windows-amd64.msi'));
      expect((await buildInstaller(deployment(), 'https://rmm.example.test', 'windows', KEY, dir)).filename).toMatch(/\.ps1$/);
      writeFileSync(join(dir, 'windows-amd64.exe'), 'EXE');
      const exe = await buildInstaller(deployment(), 'https://rmm.example.test', 'windows', KEY, dir);
      expect([exe.filename, await text(exe.body)]).toEqual(['rmm-agent-0b8c4a4e-8f4e-4a8e-9c0e-6d1f2a3b4c5d.exe', 'EXE']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
