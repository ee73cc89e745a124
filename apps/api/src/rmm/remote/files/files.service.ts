import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { FileUploadEntity } from '@app/entities';
import { Clock } from '../../../common/clock';
import { DomainError, notFound } from '../../../common/errors/domain-error';
import { Jobs } from '../../../common/jobs/jobs';
import { AuditService } from '../../access/audit/audit.service';
import { ChangeActor } from '../../access/audit/audit-change';
import { clientFilter, Principal, principalKey } from '../../common/principal';
import { AgentChannel } from '../../fleet/agent-channel/agent-channel';
import { AgentsErrorCode } from '../../fleet/agent-channel/agent-channel.errors';
import { AgentSession, AgentSessions, SessionEndedError } from '../../fleet/agent-channel/agent-sessions';
import { AgentsService } from '../../fleet/agents/agents.service';
import { filesError } from './agent-refusals';
import { agentReadOf, attachmentOf, parseRange, resolveRange } from './byte-range';
import { FileUploadsRepository } from './file-uploads.repository';
import { CHUNK_SIZE, FileListDto, StartUploadDto, UploadDto, UploadProgressDto, UploadStartedDto, toUploadDto } from './files.dto';
import { agentOffline, FilesErrorCode, UploadOffsetError } from './files.errors';

/** An agent answers a listing, or starts an upload, within this. */
const COMMAND_TIMEOUT_MS = 30_000;
/** files.upload.finish hashes the whole file (4 GiB at a few hundred MB/s): its answer may take this long. */
const FINISH_TIMEOUT_MS = 180_000;
/** A download's file.read answers (after hashing the whole file) within this. */
const OPEN_TIMEOUT_MS = 180_000;
/** An upload not finished within this expires (its temporary file removed on the agent). */
export const UPLOAD_TTL_MS = 24 * 3600_000;
/** How often expired uploads are looked for (once across the cluster). */
const EXPIRE_EVERY_SECONDS = 300;
/** The reply's buffer of a download, over the session's own window: what one download may hold in this process. */
const DOWNLOAD_BUFFER = 256 * 1024;

/** What the agent says of a file it opened for reading (session.opened of file.read). */
interface ReadInfo {
  size: number;
  sha256: string;
  mtime: string;
}

/** A download about to be answered: status, headers and the body streamed from the agent. */
export interface FileDownload {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Files on an agent (docs/files.md): listings and resumable uploads by the agent's file commands, downloads by a
 * file.read session streamed straight into the reply (the session's window and the reply's drain hold memory to a
 * few hundred KiB whatever the size). Every call first checks the agent is one the caller may see (else 404) and is
 * connected (else 409 "agent is offline"). The agent's refusals keep its own words, mapped to statuses by
 * agent-refusals.ts. Downloads and uploads are audited (`file.download`, `file.upload`) with path, size and SHA-256.
 */
@Injectable()
export class FilesService {
  private readonly logger = new Logger('files');
  /** Uploads with a PUT under way on this instance (a second one is 409). */
  private readonly busy = new Set<string>();

  constructor(
    private readonly uploads: FileUploadsRepository,
    private readonly agents: AgentsService,
    private readonly channel: AgentChannel,
    private readonly sessions: AgentSessions,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    jobs: Jobs,
  ) {
    jobs.every('files.uploads-expire', { seconds: EXPIRE_EVERY_SECONDS, mode: 'cluster-once', atStart: true }, () => this.expireUploads());
  }

  /** One page of a directory (1,000 entries, the agent's order). */
  async list(agentId: number, path: string, cursor: string | undefined, caller: Principal): Promise<FileListDto> {
    await this.reachable(agentId, caller);
    try {
      return await this.channel.request(agentId, 'files.list', { path, cursor: cursor ?? null }, COMMAND_TIMEOUT_MS);
    } catch (err) {
      throw filesError(err);
    }
  }

  /**
   * The file's bytes (one Range, or all), streamed from the agent. The agent hashes the whole file before it sends
   * (X-Checksum-Sha256 is that of the whole file, also for a range). A suffix range (`-n`) asks the agent twice: once
   * for the size, once for the bytes.
   */
  async download(agentId: number, path: string, rangeHeader: string | undefined, caller: Principal, actor: ChangeActor): Promise<FileDownload> {
    await this.reachable(agentId, caller);
    const spec = parseRange(rangeHeader);
    const target = `/api/v3/agents/${agentId}/files/content`;
    let session: AgentSession;
    let info: ReadInfo;
    try {
      ({ session, info } = await this.openRead(agentId, path, agentReadOf(spec)));
      if (spec?.kind === 'suffix') {
        const first = resolveRange(spec, info.size);
        session.close('closed');
        if (first) ({ session, info } = await this.openRead(agentId, path, { offset: first.start, length: first.end - first.start + 1 }));
      }
    } catch (err) {
      const mapped = filesError(err);
      this.auditFile(actor, 'file.download', target, `refused: ${(mapped as Error).message}`, { path, size: null, sha256: null });
      throw mapped;
    }
    const range = spec ? resolveRange(spec, info.size) : { start: 0, end: info.size - 1 };
    if (range === null) {
      session.close('closed');
      throw new DomainError(FilesErrorCode.RangeNotSatisfiable, `range not satisfiable: the file has ${info.size} bytes`, [], { 'content-range': `bytes */${info.size}` });
    }
    const length = info.size === 0 ? 0 : range.end - range.start + 1;
    const headers: Record<string, string> = {
      'content-type': 'application/octet-stream',
      'content-length': String(length),
      'content-disposition': attachmentOf(path),
      'accept-ranges': 'bytes',
      'x-checksum-sha256': info.sha256,
      'last-modified': new Date(info.mtime).toUTCString(),
      'cache-control': 'no-store',
    };
    if (spec) headers['content-range'] = `bytes ${range.start}-${range.end}/${info.size}`;
    const details = { path, size: info.size, sha256: info.sha256, ...(spec ? { range: `${range.start}-${range.end}` } : {}) };
    const body = this.streamOf(session, length, (outcome) => this.auditFile(actor, 'file.download', target, outcome, details));
    return { status: spec ? 206 : 200, headers, body };
  }

  /** Starts an upload: the agent checks the target and makes its temporary file; the row keeps the rest. */
  async startUpload(agentId: number, body: StartUploadDto, caller: Principal): Promise<UploadStartedDto> {
    await this.reachable(agentId, caller);
    const id = randomUUID();
    const overwrite = body.overwrite === true;
    let received: number;
    try {
      ({ received } = await this.channel.request(agentId, 'files.upload.begin', { upload: id, path: body.path, size: body.size, overwrite }, COMMAND_TIMEOUT_MS));
    } catch (err) {
      throw filesError(err);
    }
    const now = this.clock.now();
    await this.uploads.insert({
      id,
      agentId,
      path: body.path,
      size: body.size,
      sha256: body.sha256.toLowerCase(),
      overwrite,
      received,
      createdBy: caller.name,
      caller: principalKey(caller),
      expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
    });
    return { upload_id: id, chunk_size: CHUNK_SIZE, received };
  }

  async getUpload(agentId: number, uploadId: string, caller: Principal): Promise<UploadDto> {
    if (!(await this.agents.exists(agentId, clientFilter(caller)))) throw notFound();
    return toUploadDto(await this.uploadOf(agentId, uploadId, caller));
  }

  /**
   * One chunk of an upload, at `offset` (which must be the upload's `received`): streamed to the agent's temporary
   * file through a file.write session, with back-pressure. Whatever the agent wrote is kept, also when the caller
   * hangs up half way (the next PUT resumes from `received`). Once every byte is there, the agent checks the SHA-256
   * and puts the file in place (done), or removes it (422, failed).
   */
  async putChunk(
    agentId: number,
    uploadId: string,
    offset: number,
    chunk: { stream: Readable; declaredLength: number | undefined },
    caller: Principal,
    actor: ChangeActor,
  ): Promise<UploadProgressDto> {
    if (!(await this.agents.exists(agentId, clientFilter(caller)))) throw notFound();
    await this.uploadOf(agentId, uploadId, caller);
    if (chunk.declaredLength !== undefined && chunk.declaredLength > CHUNK_SIZE) throw tooLarge();
    if (this.busy.has(uploadId)) throw new DomainError(FilesErrorCode.UploadBusy, 'another PUT of this upload is under way');
    this.busy.add(uploadId);
    try {
      // Read again under the lock: a PUT that just ended has moved `received`.
      const upload = (await this.uploads.find(uploadId, agentId))!;
      if (upload.status !== 'open') throw new UploadOffsetError(`upload is ${upload.status}`, upload.received);
      if (offset !== upload.received) throw new UploadOffsetError(`offset must be ${upload.received}: the bytes the agent has`, upload.received);
      if (chunk.declaredLength !== undefined && offset + chunk.declaredLength > upload.size) throw pastSize(upload.size);
      if (!(await this.channel.isOnline(agentId))) throw agentOffline();
      let received = upload.received;
      if (received < upload.size) {
        received = await this.writeChunk(upload, offset, chunk.stream);
        await this.uploads.setReceived(upload.id, received);
      }
      if (received < upload.size) return { received, status: 'open' };
      return await this.finishUpload(upload, actor);
    } finally {
      this.busy.delete(uploadId);
    }
  }

  /** Marks open uploads past their 24 hours expired, and tells their agents to remove the temporary files. */
  async expireUploads(): Promise<number> {
    const expired = await this.uploads.expire(this.clock.now());
    for (const u of expired) {
      if (!(await this.channel.isOnline(u.agentId))) continue; // (its temporary file stays: the agent's own to clean)
      await this.channel
        .request(u.agentId, 'files.upload.abort', { upload: u.id, path: u.path }, COMMAND_TIMEOUT_MS)
        .catch((err: Error) => this.logger.warn(`upload ${u.id}: abort on agent ${u.agentId} failed: ${err.message}`));
    }
    return expired.length;
  }

  // ---- the steps ----

  /** 404 for an agent the caller may not see (or none), 409 when it is not connected. */
  private async reachable(agentId: number, caller: Principal): Promise<void> {
    if (!(await this.agents.exists(agentId, clientFilter(caller)))) throw notFound();
    if (!(await this.channel.isOnline(agentId))) throw agentOffline();
  }

  /** The upload, only for the caller who started it (404 otherwise, as for an id that does not exist). */
  private async uploadOf(agentId: number, uploadId: string, caller: Principal): Promise<FileUploadEntity> {
    const upload = UUID.test(uploadId) ? await this.uploads.find(uploadId, agentId) : null;
    if (!upload || upload.caller !== principalKey(caller)) throw notFound();
    return upload;
  }

  private async openRead(agentId: number, path: string, read: { offset: number; length?: number }): Promise<{ session: AgentSession; info: ReadInfo }> {
    const session = await this.sessions.open(agentId, 'file.read', { path, ...read }, { openTimeoutMs: OPEN_TIMEOUT_MS + 5_000 });
    // The agent hashes the whole file before it answers: a few seconds a GiB; past the bound, 504.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        session.close('closed');
        reject(new DomainError(AgentsErrorCode.NoAnswer, `agent did not answer within ${OPEN_TIMEOUT_MS / 1000} s`));
      }, OPEN_TIMEOUT_MS);
    });
    try {
      const info = (await Promise.race([session.opened, late])) as unknown as ReadInfo;
      return { session, info };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A Readable fed by the session's consumer: the consumer's promise resolves once the reply has taken the bytes
   * (read() called again), so a slow client slows the agent and nothing piles up here. The reply going away
   * (destroy) closes the session; the agent's end, or fewer bytes than announced, ends or breaks the stream.
   */
  private streamOf(session: AgentSession, length: number, done: (outcome: string) => void): Readable {
    let wake: (() => void) | undefined;
    let pushed = 0;
    let finished = false;
    const finish = (outcome: string): void => {
      if (finished) return;
      finished = true;
      done(outcome);
    };
    const stream = new Readable({
      highWaterMark: DOWNLOAD_BUFFER,
      read() {
        const w = wake;
        wake = undefined;
        w?.();
      },
      destroy(err, callback) {
        session.close('closed');
        const w = wake;
        wake = undefined;
        w?.();
        finish(pushed === length ? 'ok' : `closed after ${pushed} of ${length} bytes`);
        callback(err);
      },
    });
    session.onData((bytes) => {
      if (stream.destroyed) throw new Error('the reply is gone');
      pushed += bytes.length;
      if (stream.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) return;
      return new Promise<void>((resolve) => (wake = resolve));
    });
    void session.ended.then((end) => {
      if (stream.destroyed) return;
      if (end.error || pushed !== length) {
        finish(`failed after ${pushed} of ${length} bytes: ${end.reason}`);
        stream.destroy(new Error(`download ended: ${end.reason}`));
        return;
      }
      finish('ok');
      stream.push(null);
    });
    return stream;
  }

  /** The request's bytes to the agent's temporary file from `offset`; what the agent then has (its `received`). */
  private async writeChunk(upload: FileUploadEntity, offset: number, body: Readable): Promise<number> {
    // (file.write sends no session.opened: a refusal is its session's failed end, which the first write, or
    // endWrites, meets.)
    let session: AgentSession;
    try {
      session = await this.sessions.open(upload.agentId, 'file.write', { upload: upload.id, path: upload.path, offset });
    } catch (err) {
      throw filesError(err);
    }
    let sent = 0;
    let refusal: DomainError | undefined;
    try {
      for await (const part of body as AsyncIterable<Buffer>) {
        sent += part.length;
        if (sent > CHUNK_SIZE) {
          refusal = tooLarge();
          break;
        }
        if (offset + sent > upload.size) {
          refusal = pastSize(upload.size);
          break;
        }
        await session.write(part);
      }
    } catch (err) {
      // The agent went: nothing more to learn from it now (the next begin or PUT says what it has).
      if (err instanceof SessionEndedError) throw filesError(err);
      // Else the caller hung up half way: what went to the agent is kept, and counted below.
    }
    const end = await session.endWrites();
    if (end.error) throw filesError(new SessionEndedError(end));
    const received = end.received ?? offset;
    if (refusal) {
      await this.uploads.setReceived(upload.id, received);
      throw refusal;
    }
    return received;
  }

  /** Every byte is there: the agent checks the SHA-256 and puts the file in place (done), or removes it (failed). */
  private async finishUpload(upload: FileUploadEntity, actor: ChangeActor): Promise<UploadProgressDto> {
    const target = `/api/v3/agents/${upload.agentId}/files/uploads/${upload.id}`;
    const details = { path: upload.path, size: upload.size, sha256: upload.sha256 };
    try {
      const placed = await this.channel.request(
        upload.agentId,
        'files.upload.finish',
        { upload: upload.id, path: upload.path, size: upload.size, sha256: upload.sha256, overwrite: upload.overwrite },
        FINISH_TIMEOUT_MS,
      );
      await this.uploads.finish(upload.id, 'done', upload.size, this.clock.now());
      this.auditFile(actor, 'file.upload', target, 'done', details);
      return { received: upload.size, status: 'done', sha256: placed.sha256 };
    } catch (err) {
      const mapped = filesError(err);
      // The agent removed its temporary file (a mismatch, or a file that appeared at the target): the upload is over.
      if (mapped instanceof DomainError && (mapped.code === FilesErrorCode.ChecksumMismatch || mapped.code === FilesErrorCode.FileExists)) {
        await this.uploads.finish(upload.id, 'failed', upload.size, this.clock.now());
        this.auditFile(actor, 'file.upload', target, `failed: ${mapped.message}`, details);
      }
      throw mapped;
    }
  }

  /** One audit row of a file operation: `changes.after` carries path, size and SHA-256 (docs/files.md, "Audit"). */
  private auditFile(actor: ChangeActor, action: 'file.download' | 'file.upload', target: string, outcome: string, details: Record<string, unknown>): void {
    this.audit.enqueue({
      at: this.clock.now(),
      actorKind: actor.kind,
      actorId: actor.id,
      actorName: actor.name,
      method: actor.method,
      action,
      target,
      clientAddress: actor.address,
      status: null,
      outcome: outcome.slice(0, 500),
      requestId: actor.requestId,
      changes: { before: null, after: details },
    });
  }
}

const tooLarge = (): DomainError => new DomainError(FilesErrorCode.ChunkTooLarge, `a chunk is at most ${CHUNK_SIZE} bytes`);
const pastSize = (size: number): DomainError => new DomainError(FilesErrorCode.ChunkTooLarge, `the chunk goes past the upload's size (${size} bytes)`);
