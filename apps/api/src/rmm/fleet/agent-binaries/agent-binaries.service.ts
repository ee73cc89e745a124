import { open, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { AGENT_TARGETS, AgentTarget } from '@app/entities';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentBinariesErrorCode } from './agent-binaries.errors';
import { AgentBinaryBuilder } from './agent-binary-builder';

/** One target's binary of the offered version, as manifest.json describes it and as it is on disk. */
export interface AgentBinary {
  target: AgentTarget;
  version: string;
  path: string;
  size: number;
  /** Of the binary (hex): what X-Checksum-Sha256 and the ETag carry, and what an update offer is signed over. */
  sha256: string;
  /** Its gzip beside it, when the build made one. */
  gzip?: { path: string; size: number };
}

/** An open file of a binary, read from disk as it is sent. */
export interface OpenBinary {
  encoding: 'gzip' | 'identity';
  size: number;
  stream: Readable;
}

/** manifest.json's entry of one target (scripts/build-agent.js writes it). */
interface ManifestEntry {
  file: string;
  size: number;
  sha256: string;
  gzip?: { file: string; size: number };
}

const isSize = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** A file name in the bin folder itself (no path: a manifest never points elsewhere). */
const isFileName = (v: unknown): v is string => typeof v === 'string' && v !== '' && basename(v) === v && v !== '.' && v !== '..';

/**
 * The agent's single-file binaries of the version this server offers (RMM_AGENT_VERSION), in RMM_AGENT_BIN_DIR.
 * A target whose binary is missing, of another version or not the size its manifest says is built on first use
 * (one build per target at a time in this process; requests meanwhile wait for it). The manifest is read at each
 * use (a few hundred bytes), so a build by another process or instance is seen at once.
 */
@Injectable()
export class AgentBinaries {
  readonly targets: readonly AgentTarget[] = AGENT_TARGETS;
  private readonly logger = new Logger('agent-binaries');
  private readonly building = new Map<AgentTarget, Promise<AgentBinary>>();
  /** Why each target's last build failed (the build's own words), until one succeeds. */
  private readonly failures = new Map<AgentTarget, string>();

  constructor(
    private readonly config: RuntimeConfig,
    private readonly builder: AgentBinaryBuilder,
  ) {}

  /** The version this server offers: every binary it serves is of it. */
  get version(): string {
    return this.config.agentVersion;
  }

  /** Why the last build of `target` failed, if it did (for the agent_build_failed alert). */
  lastFailure(target: AgentTarget): string | undefined {
    return this.failures.get(target);
  }

  /** `name` as a target; a DomainError (404, the body listing the targets) for any other text. */
  target(name: string): AgentTarget {
    const target = this.targets.find((t) => t === name);
    if (!target) throw new DomainError(AgentBinariesErrorCode.UnknownTarget, `unknown target: ${name.slice(0, 100)}`);
    return target;
  }

  /** The target's binary, built first if needed; DomainError Unavailable when it cannot be built. */
  async get(target: AgentTarget): Promise<AgentBinary> {
    const ready = await this.find(target);
    if (ready) return ready;
    let build = this.building.get(target);
    if (!build) {
      build = this.build(target).finally(() => this.building.delete(target));
      this.building.set(target, build);
    }
    return build;
  }

  /**
   * The binary's file (or its gzip) opened, checked to be the size the manifest says (a file replaced since by a
   * build is looked up again, once), and streamed from disk exactly to that size.
   */
  async open(binary: AgentBinary, gzip: boolean): Promise<OpenBinary> {
    for (let attempt = 0; ; attempt++) {
      const want = gzip && binary.gzip ? { path: binary.gzip.path, size: binary.gzip.size, encoding: 'gzip' as const } : { path: binary.path, size: binary.size, encoding: 'identity' as const };
      const file = await open(want.path, 'r').catch(() => null);
      const size = file ? (await file.stat().catch(() => null))?.size : undefined;
      if (file && size === want.size) {
        const stream = size === 0 ? Readable.from([]) : file.createReadStream({ start: 0, end: size - 1 });
        if (size === 0) await file.close();
        return { encoding: want.encoding, size, stream };
      }
      await file?.close().catch(() => undefined);
      if (attempt > 0) throw unavailable(`the agent binary for ${binary.target} changed while it was being sent; try again`);
      binary = await this.get(binary.target);
    }
  }

  private async build(target: AgentTarget): Promise<AgentBinary> {
    // A build that ended between find() and here (in this process or another) needs no other.
    const ready = await this.find(target);
    if (ready) return ready;
    const dir = this.config.agentBinDir;
    if (!this.config.agentBuild) {
      this.failures.set(target, 'this server does not build agent binaries');
      throw unavailable(`the agent binary for ${target} is not built on this server`);
    }
    this.logger.log(`building the agent binary for ${target} (version ${this.version}) into ${dir}`);
    try {
      await this.builder.build(target, this.version, dir);
    } catch (err) {
      this.failures.set(target, (err as Error).message.slice(0, 500));
      this.logger.error(`the agent binary for ${target} could not be built: ${(err as Error).message}`);
      throw unavailable(`the agent binary for ${target} could not be built on this server (its log says why)`);
    }
    const built = await this.find(target);
    if (!built) {
      this.failures.set(target, `the build ended without a binary of version ${this.version} in its manifest`);
      this.logger.error(`the agent build for ${target} ended without a binary of version ${this.version} in ${dir}/manifest.json`);
      throw unavailable(`the agent binary for ${target} could not be built on this server (its log says why)`);
    }
    this.failures.delete(target);
    this.logger.log(`built the agent binary for ${target}: ${built.size} bytes, sha256 ${built.sha256}`);
    return built;
  }

  /** The manifest's entry for `target` when it is of the offered version and the file on disk has its size; else null. */
  private async find(target: AgentTarget): Promise<AgentBinary | null> {
    const dir = this.config.agentBinDir;
    const entry = await readEntry(join(dir, 'manifest.json'), this.version, target);
    if (!entry) return null;
    const path = join(dir, entry.file);
    if (!(await isFileOfSize(path, entry.size))) return null;
    const gzipPath = entry.gzip ? join(dir, entry.gzip.file) : undefined;
    const gzip = entry.gzip && gzipPath && (await isFileOfSize(gzipPath, entry.gzip.size)) ? { path: gzipPath, size: entry.gzip.size } : undefined;
    return { target, version: this.version, path, size: entry.size, sha256: entry.sha256, ...(gzip ? { gzip } : {}) };
  }
}

const unavailable = (message: string): DomainError => new DomainError(CommonErrorCode.Unavailable, message);

async function isFileOfSize(path: string, size: number): Promise<boolean> {
  const s = await stat(path).catch(() => null);
  return s !== null && s.isFile() && s.size === size;
}

/** `manifest.targets[target]` when the manifest is of `version` and the entry well formed; null for anything else (then it is built). */
async function readEntry(file: string, version: string, target: AgentTarget): Promise<ManifestEntry | null> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
  const m = manifest as { version?: unknown; targets?: Record<string, unknown> } | null;
  if (!m || m.version !== version || typeof m.targets !== 'object' || m.targets === null) return null;
  const e = m.targets[target] as Partial<ManifestEntry> | undefined;
  if (!e || !isFileName(e.file) || !isSize(e.size) || typeof e.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(e.sha256)) return null;
  const gzip = e.gzip && isFileName(e.gzip.file) && isSize(e.gzip.size) ? { file: e.gzip.file, size: e.gzip.size } : undefined;
  return { file: e.file, size: e.size, sha256: e.sha256, ...(gzip ? { gzip } : {}) };
}
