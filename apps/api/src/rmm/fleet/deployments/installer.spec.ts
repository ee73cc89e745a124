import fc from 'fast-check';
import { DeploymentEntity } from '@app/entities';
import type { Readable } from 'node:stream';
import { buildInstaller, choosePlatform, psQuote } from './installer';

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

/**
 * Any code point, lone surrogates included, as fast-check's `unit: 'binary'` gives (that unit first builds a table
 * of all 1.1 million code points: 4 s of this test file), and the quotes PowerShell reads, which a uniform pick
 * almost never draws.
 */
const anyCodePoint = fc.nat({ max: 0x10ffff }).map((n) => String.fromCodePoint(n));
const PS_QUOTES = ["'", '\u2018', '\u2019', '\u201a', '\u201b'];

/** A script's text, or all a native installer's stream gives. */
async function text(body: string | Readable): Promise<string> {
  if (typeof body === 'string') return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// What needs sh or the file system: test/medium/rmm/deployment-installers.medium-spec.ts.
describe('installers', () => {
  it('install_flags are not part of any installer (nothing of the caller reaches the script)', async () => {
    const flags = "--quiet\nRMM_SERVER='http://attacker.example'";
    for (const p of ['linux', 'darwin', 'windows'] as const) expect(await text((await buildInstaller(deployment(flags), 'https://rmm.example.test', p, KEY)).body)).not.toContain('attacker');
  });

  it('the PowerShell installer carries the server URL verbatim', async () => {
    const i = await buildInstaller(deployment(), 'https://rmm.example.test', 'windows', KEY);
    expect(i.filename).toBe('rmm-agent-install-0b8c4a4e.ps1');
    expect(await text(i.body)).toContain("$RmmServer = 'https://rmm.example.test'");
  });

  it("psQuote doubles every quote PowerShell ends a verbatim string with (', ‘ ’ ‚ ‛)", () => {
    expect(psQuote("a'b")).toBe("'a''b'");
    expect(psQuote('x\u2019y')).toBe("'x\u2019\u2019y'");
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(anyCodePoint, fc.constantFrom(...PS_QUOTES)) }), (value) => {
        const inner = psQuote(value).slice(1, -1);
        // every run of quote characters has even length: none can end the string
        for (const run of inner.match(/['\u2018-\u201b]+/g) ?? []) expect(run.length % 2).toBe(0);
      }),
    );
  });

  it('chooses the platform from the User-Agent when none is given', () => {
    expect(choosePlatform(undefined, 'Mozilla/5.0 (Windows NT; Windows NT 10.0) WindowsPowerShell/5.1.19041')).toBe('windows');
    expect(choosePlatform(undefined, 'curl/8.5.0')).toBe('linux');
    expect(choosePlatform(undefined, null)).toBe('linux');
    expect(choosePlatform('darwin', 'PowerShell/7.4')).toBe('darwin');
  });
});
