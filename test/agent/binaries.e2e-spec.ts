import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { executableFormat } from '../utils/executable-formats';
import { CS_ADHOC, checkCodeSignature } from '../utils/macho';
import { ROOT, exec } from '../utils/processes';

/**
 * The single-file agents as `node scripts/build-agent.js --binaries` makes them: all five targets built once
 * into a temporary folder with --version 9.9.9, then checked by reading their headers (macOS and Windows
 * binaries cannot run here) and by running the linux-amd64 one without Node.js.
 * The Bun runtimes of the other platforms come from the npm registry the first time (then .cache/agent-runtimes/).
 */
const BUILD = join(ROOT, 'scripts/build-agent.js');
const TARGETS = ['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64', 'windows-amd64'] as const;
type Target = (typeof TARGETS)[number];
const FILE: Record<Target, string> = {
  'linux-amd64': 'rmm-agent-linux-amd64',
  'linux-arm64': 'rmm-agent-linux-arm64',
  'darwin-amd64': 'rmm-agent-darwin-amd64',
  'darwin-arm64': 'rmm-agent-darwin-arm64',
  'windows-amd64': 'rmm-agent-windows-amd64.exe',
};

interface Manifest {
  version: string;
  bun: string;
  targets: Record<string, { file: string; size: number; sha256: string; gzip: { file: string; size: number } }>;
}

// Fetched before the tests are declared, so that a machine without the registry skips them saying why.
const fetched = spawnSync(process.execPath, [join(ROOT, 'scripts/agent-runtimes.js'), '--fetch'], { cwd: ROOT, encoding: 'utf8', timeout: 10 * 60_000 });
const unreachable = fetched.status !== 0 && /cannot fetch/.test(fetched.stderr) ? fetched.stderr.trim().split('\n').pop() : undefined;
if (unreachable) process.stderr.write(`test/agent/binaries.e2e-spec.ts skipped: the Bun runtimes cannot be fetched (${unreachable})\n`);

const sha256 = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');
const build = (args: string[]) => exec(process.execPath, [BUILD, '--binaries', ...args], { env: process.env, cwd: ROOT, timeoutMs: 10 * 60_000 });

if (unreachable) {
  describe('single-file agent binaries', () => {
    it.skip(`build for five targets (needs the npm registry for the Bun runtimes: ${unreachable})`, () => undefined);
  });
} else {
  describe('single-file agent binaries (scripts/build-agent.js --binaries)', () => {
    let out: string;
    let built: { code: number | null; stderr: string };
    const manifest = (): Manifest => JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;

    beforeAll(async () => {
      out = mkdtempSync(join(tmpdir(), 'rmm-agent-bin-'));
      built = await build(['--version', '9.9.9', '--out', out]);
    }, 15 * 60_000);
    afterAll(() => rmSync(out, { recursive: true, force: true }));

    it('builds all five: exit 0, each binary 0755 beside its .gz, manifest.json with the version, sizes and SHA-256, nothing else left', () => {
      expect(built).toMatchObject({ code: 0 });
      const m = manifest();
      expect(m).toMatchObject({ version: '9.9.9', bun: '1.4.5' });
      expect(Object.keys(m.targets)).toEqual([...TARGETS]);
      for (const target of TARGETS) {
        const bin = readFileSync(join(out, FILE[target]));
        expect(m.targets[target]).toEqual({
          file: FILE[target],
          size: bin.length,
          sha256: sha256(bin),
          gzip: { file: `${FILE[target]}.gz`, size: statSync(join(out, `${FILE[target]}.gz`)).size },
        });
        expect(statSync(join(out, FILE[target])).mode & 0o777).toBe(0o755);
        expect(sha256(gunzipSync(readFileSync(join(out, `${FILE[target]}.gz`))))).toBe(m.targets[target].sha256);
      }
      expect(readdirSync(out).sort()).toEqual(['manifest.json', ...TARGETS.flatMap((t) => [FILE[t], `${FILE[t]}.gz`])].sort());
      expect(readdirSync(ROOT).filter((f) => f.endsWith('.bun-build'))).toEqual([]); // (Bun's temporary files went to the build's own folder)
    });

    it('makes the right kind of executable for each target, read from its headers', () => {
      const format = (t: Target) => executableFormat(readFileSync(join(out, FILE[t])));
      expect(format('linux-amd64')).toEqual({ format: 'ELF', bits: 64, machine: 'x86-64', type: 'EXEC' });
      expect(format('linux-arm64')).toEqual({ format: 'ELF', bits: 64, machine: 'aarch64', type: 'EXEC' });
      expect(format('darwin-amd64')).toEqual({ format: 'Mach-O', cpu: 'x86_64', filetype: 'execute' });
      expect(format('darwin-arm64')).toEqual({ format: 'Mach-O', cpu: 'arm64', filetype: 'execute' });
      expect(format('windows-amd64')).toEqual({ format: 'PE', optionalHeader: 'PE32+', machine: 'x86-64', subsystem: 'console' });
    });

    it('signs both macOS binaries ad hoc, validly: every page SHA-256 is its slot, up to the signature (arm64 by Bun, x86_64 by us)', () => {
      for (const [target, identifier] of [['darwin-arm64', 'a.out'], ['darwin-amd64', 'rmm-agent']] as const) {
        const bin = readFileSync(join(out, FILE[target]));
        const cd = checkCodeSignature(bin);
        expect({ target, ...cd }).toMatchObject({ target, identifier, hashType: 2, pageSize: 4096, nSpecialSlots: 0, badPages: [] });
        expect(cd.flags & CS_ADHOC).toBe(CS_ADHOC);
        expect(cd.codeLimit).toBe(cd.dataoff);
        expect(cd.nCodeSlots).toBe(Math.ceil(cd.codeLimit / 4096));
      }
    });

    it("our signer, given Bun's signed darwin-arm64 binary and Bun's identifier, writes Bun's bytes back exactly", () => {
      const { adhocSign } = require(join(ROOT, 'scripts/macho-adhoc-sign.js')) as { adhocSign(buf: Buffer, o?: { identifier?: string }): Buffer };
      const bun = readFileSync(join(out, FILE['darwin-arm64']));
      expect(adhocSign(bun, { identifier: 'a.out' }).equals(bun)).toBe(true);
    });

    it('the linux-amd64 binary prints 9.9.9 and runs its commands with no node on PATH', async () => {
      const bin = mkdtempSync(join(tmpdir(), 'rmm-no-node-'));
      try {
        symlinkSync('/bin/sh', join(bin, 'sh'));
        const env = { PATH: bin, HOME: bin };
        expect(spawnSync('/bin/sh', ['-c', 'command -v node'], { env }).status).not.toBe(0);
        const agent = join(out, FILE['linux-amd64']);
        expect(await exec(agent, ['--version'], { env, cwd: bin })).toEqual({ code: 0, stdout: '9.9.9\n', stderr: '' });
        mkdirSync(join(bin, 'prefix'));
        const status = await exec(agent, ['status', '--prefix', join(bin, 'prefix')], { env, cwd: bin });
        expect(status).toMatchObject({ code: 1, stdout: '' });
        expect(status.stderr).toMatch(/cannot read .*state\.json.*run `register` first/);
      } finally {
        rmSync(bin, { recursive: true, force: true });
      }
    });

    // qemu-user runs the arm64 binary here (its user-mode emulation of x86-64 does not enforce a CPU model's
    // features, so it cannot show what the x64 binary needs: docs/decisions.md).
    const qemuAarch64 = spawnSync('/bin/sh', ['-c', 'command -v qemu-aarch64'], { encoding: 'utf8' }).stdout.trim();
    const hasArm = Boolean(qemuAarch64) && spawnSync('test', ['-e', '/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1']).status === 0;
    (hasArm ? it : it.skip)('the linux-arm64 binary prints 9.9.9 (under qemu-aarch64; needs Debian packages qemu-user and libc6-arm64-cross)', async () => {
      const r = await exec(qemuAarch64, ['-L', '/usr/aarch64-linux-gnu', join(out, FILE['linux-arm64']), '--version'], { env: {}, cwd: out });
      expect(r).toMatchObject({ code: 0, stdout: '9.9.9\n' });
    });

    it('--if-stale builds nothing the second time: every file and the manifest untouched', async () => {
      const before = readdirSync(out).map((f) => [f, statSync(join(out, f)).mtimeMs, statSync(join(out, f)).ino]);
      const again = await build(['--version', '9.9.9', '--out', out, '--if-stale']);
      expect(again).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(readdirSync(out).map((f) => [f, statSync(join(out, f)).mtimeMs, statSync(join(out, f)).ino])).toEqual(before);
    });

    it('two processes building other targets of another version into the same folder at once: both succeed, the manifest holds both', async () => {
      const [amd, arm] = await Promise.all([
        build(['--target', 'linux-amd64', '--version', '9.9.10', '--out', out, '--if-stale']),
        build(['--target=linux-arm64', '--version=9.9.10', `--out=${out}`, '--if-stale']),
      ]);
      expect(amd).toMatchObject({ code: 0 });
      expect(arm).toMatchObject({ code: 0 });
      const m = manifest();
      expect(m.version).toBe('9.9.10');
      expect(Object.keys(m.targets)).toEqual(['linux-amd64', 'linux-arm64']); // (the 9.9.9 entries are gone)
      for (const target of ['linux-amd64', 'linux-arm64'] as const) expect(sha256(readFileSync(join(out, FILE[target])))).toBe(m.targets[target].sha256);
      expect((await exec(join(out, FILE['linux-amd64']), ['--version'], { env: {}, cwd: out })).stdout).toBe('9.9.10\n');
      expect(readdirSync(out).filter((f) => f.startsWith('.') || f.endsWith('.tmp'))).toEqual([]);
    }, 10 * 60_000);

    it('refuses bad arguments with exit 2 and a message, building nothing', async () => {
      const unknown = await build(['--target', 'linux-amd64,plan9-mips', '--out', out]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('unknown target: plan9-mips (targets: linux-amd64, linux-arm64, darwin-amd64, darwin-arm64, windows-amd64)');
      const version = await build(['--version', '1.2', '--out', out]);
      expect(version.code).toBe(2);
      expect(version.stderr).toContain('--version must be a semantic version such as 0.1.0 (got "1.2")');
      const flag = await build(['--outdir', out]);
      expect(flag.code).toBe(2);
      expect(flag.stderr).toContain('unknown argument: --outdir');
    });
  });
}
