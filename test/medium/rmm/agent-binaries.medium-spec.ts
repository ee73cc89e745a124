import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { AgentTarget } from '@app/entities';
import { CommonErrorCode, DomainError } from '../../../apps/api/src/common/errors/domain-error';
import { RuntimeConfig } from '../../../apps/api/src/config/runtime-config';
import { AgentBinariesErrorCode } from '../../../apps/api/src/rmm/fleet/agent-binaries/agent-binaries.errors';
import { AgentBinaries } from '../../../apps/api/src/rmm/fleet/agent-binaries/agent-binaries.service';
import { AgentBinaryBuilder } from '../../../apps/api/src/rmm/fleet/agent-binaries/agent-binary-builder';
import { binaryFilename } from '../../../apps/api/src/rmm/fleet/agent-binaries/agent-download';

/** Writes what scripts/build-agent.js leaves: the binary, its .gz and manifest.json (merged). */
function writeBinary(dir: string, target: AgentTarget, version: string, bytes: Buffer): void {
  const file = binaryFilename(target);
  writeFileSync(join(dir, file), bytes);
  const gz = gzipSync(bytes);
  writeFileSync(join(dir, `${file}.gz`), gz);
  let manifest: { version: string; targets: Record<string, unknown> } = { version, targets: {} };
  try {
    const old = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as typeof manifest;
    if (old.version === version) manifest = old;
  } catch {
    /* none yet */
  }
  manifest.targets[target] = { file, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), gzip: { file: `${file}.gz`, size: gz.length } };
  // Replaced in one rename, as the build script does: a concurrent reader (another target's find()) never sees
  // a half-written manifest.
  writeFileSync(join(dir, 'manifest.json.tmp'), JSON.stringify(manifest));
  renameSync(join(dir, 'manifest.json.tmp'), join(dir, 'manifest.json'));
}

/** A builder that writes a binary as the build script would, counting its builds; or fails when told. */
class FakeBuilder extends AgentBinaryBuilder {
  builds: string[] = [];
  fail = false;
  constructor() {
    super(new RuntimeConfig());
  }
  override async build(target: AgentTarget, version: string, outDir: string): Promise<void> {
    this.builds.push(`${target}@${version}`);
    await new Promise((r) => setTimeout(r, 20));
    if (this.fail) throw new Error('bun: no runtime for this target');
    writeBinary(outDir, target, version, Buffer.from(`binary ${target} ${version}`));
  }
}

async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

// The service on a real folder of binaries (the download headers are unit-tested in agent-download.spec.ts).
describe('AgentBinaries', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));
  let dir: string;
  let builder: FakeBuilder;
  let binaries: AgentBinaries;
  const config = (version: string): RuntimeConfig => Object.assign(new RuntimeConfig(), { agentVersion: version, agentBinDir: dir, agentBuild: true });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rmm-bins-'));
    builder = new FakeBuilder();
    binaries = new AgentBinaries(config('0.2.0'), builder);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves a binary the manifest names, of this version and size, without building', async () => {
    writeBinary(dir, 'linux-amd64', '0.2.0', Buffer.from('ELF…'));
    const b = await binaries.get('linux-amd64');
    expect(b).toMatchObject({ target: 'linux-amd64', version: '0.2.0', path: join(dir, 'rmm-agent-linux-amd64'), size: Buffer.from('ELF…').length });
    expect(b.sha256).toBe(createHash('sha256').update('ELF…').digest('hex'));
    expect(b.gzip?.path).toBe(join(dir, 'rmm-agent-linux-amd64.gz'));
    expect(builder.builds).toEqual([]);
  });

  it('builds a missing binary once for concurrent requests, and each target apart', async () => {
    const all = await Promise.all([binaries.get('linux-arm64'), binaries.get('linux-arm64'), binaries.get('linux-arm64'), binaries.get('windows-amd64')]);
    expect(builder.builds.sort()).toEqual(['linux-arm64@0.2.0', 'windows-amd64@0.2.0']);
    expect(new Set(all.slice(0, 3).map((b) => b.sha256)).size).toBe(1);
    expect(all[3].path).toBe(join(dir, 'rmm-agent-windows-amd64.exe'));
    await binaries.get('linux-arm64');
    expect(builder.builds).toHaveLength(2);
  });

  it('rebuilds a binary of another version, or one whose size is not the manifest’s', async () => {
    writeBinary(dir, 'darwin-arm64', '0.1.0', Buffer.from('old'));
    expect((await binaries.get('darwin-arm64')).version).toBe('0.2.0');
    writeFileSync(join(dir, 'rmm-agent-darwin-arm64'), 'truncat');
    await binaries.get('darwin-arm64');
    expect(builder.builds).toEqual(['darwin-arm64@0.2.0', 'darwin-arm64@0.2.0']);
  });

  it('a failed build is Unavailable (and the next request tries again)', async () => {
    builder.fail = true;
    const err = (await binaries.get('darwin-amd64').catch((e: unknown) => e)) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect(err.code).toBe(CommonErrorCode.Unavailable);
    expect(err.message).toBe('the agent binary for darwin-amd64 could not be built on this server (its log says why)');
    builder.fail = false;
    expect((await binaries.get('darwin-amd64')).target).toBe('darwin-amd64');
    expect(builder.builds).toHaveLength(2);
  });

  it('with builds turned off (the tests\' app): a missing binary is Unavailable, nothing built', async () => {
    binaries = new AgentBinaries(Object.assign(config('0.2.0'), { agentBuild: false }), builder);
    await expect(binaries.get('linux-arm64')).rejects.toMatchObject({ code: CommonErrorCode.Unavailable, message: 'the agent binary for linux-arm64 is not built on this server' });
    expect(builder.builds).toEqual([]);
  });

  it('a manifest that is not JSON, or points outside its folder, is as none: built', async () => {
    writeFileSync(join(dir, 'manifest.json'), '{not json');
    await binaries.get('linux-amd64');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: '0.2.0', targets: { 'linux-amd64': { file: '../../etc/passwd', size: 1, sha256: 'a'.repeat(64) } } }));
    expect((await binaries.get('linux-amd64')).path).toBe(join(dir, 'rmm-agent-linux-amd64'));
    expect(builder.builds).toHaveLength(2);
  });

  it('opens the binary or its gzip, exactly the bytes the manifest describes', async () => {
    writeBinary(dir, 'linux-amd64', '0.2.0', Buffer.from('x'.repeat(70_000)));
    const b = await binaries.get('linux-amd64');
    const plain = await binaries.open(b, false);
    expect(plain).toMatchObject({ encoding: 'identity', size: 70_000 });
    expect((await read(plain.stream)).toString()).toBe('x'.repeat(70_000));
    const gz = await binaries.open(b, true);
    expect(gz.encoding).toBe('gzip');
    expect(gz.size).toBe(b.gzip!.size);
    expect(gunzipSync(await read(gz.stream)).toString()).toBe('x'.repeat(70_000));
  });

  it('names the targets; any other name is UnknownTarget', () => {
    expect(binaries.targets).toEqual(['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64', 'windows-amd64']);
    expect(binaries.target('darwin-arm64')).toBe('darwin-arm64');
    expect(() => binaries.target('linux-x64')).toThrow(expect.objectContaining({ code: AgentBinariesErrorCode.UnknownTarget, message: 'unknown target: linux-x64' }));
  });
});
