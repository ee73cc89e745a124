import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AuditChanges, AuditLogEntity } from '@app/entities';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { Page } from '../../common/pagination.dto';
import { AuditedChange, ChangeActor, changeEntry } from './audit-change';
import { AuditEntry } from './audit-entry';
import { AuditFilter, AuditRepository } from './audit.repository';

/** How often queued rows are written (one INSERT for all of them). */
export const AUDIT_FLUSH_MS = 500;
/** Rows per INSERT; a full batch is written at once, without waiting for the timer. */
export const AUDIT_BATCH_SIZE = 200;
/** Rows kept in memory while the database does not take them; past this, new rows are dropped (and logged). */
export const AUDIT_MAX_QUEUED = 10_000;

/**
 * A row still to be written. `keyHash`: the SHA-256 of an X-API-KEY the guard refused (401/403), so the row
 * can name the key (revoked and expired ones too) without the secret ever being kept; resolved at write time.
 */
export type PendingAuditEntry = AuditEntry & { keyHash?: string };

/**
 * Writes the audit log without slowing requests: the HTTP hook queues a row after the answer is sent, and
 * the queue is written in one INSERT every AUDIT_FLUSH_MS (the job `audit.flush`; or when a batch is full, or at shutdown). A write
 * that fails is logged at error level with its rows (they hold no secret), never thrown.
 */
@Injectable()
export class AuditService implements OnApplicationShutdown {
  private readonly logger = new Logger('audit');
  private queue: PendingAuditEntry[] = [];
  private writing: Promise<unknown> = Promise.resolve();
  private dropped = 0;
  private readonly changes = new Map<string, AuditChanges>();
  private readonly flusher: Job;

  constructor(
    private readonly repo: AuditRepository,
    jobs: Jobs,
  ) {
    // Every instance: the queue is this instance's memory.
    this.flusher = jobs.every('audit.flush', { seconds: AUDIT_FLUSH_MS / 1000, mode: 'every-instance' }, async () => {
      const lost = await this.flush();
      if (lost > 0) throw new Error(`${lost} audit rows not written (logged with their content)`);
    });
  }

  /**
   * Keeps what a request changed (before and after) for its audit row, which the HTTP hook writes once the answer
   * is sent (takeChanges). Only after the change committed. Bounded: a request whose answer never came is forgotten.
   */
  noteChanges(requestId: string, changes: AuditChanges): void {
    if (this.changes.size >= AUDIT_MAX_QUEUED) this.changes.delete(this.changes.keys().next().value!);
    this.changes.set(requestId, changes);
  }

  /** The changes noted for this request (once), or null. */
  takeChanges(requestId: string): AuditChanges | null {
    const c = this.changes.get(requestId);
    if (c === undefined) return null;
    this.changes.delete(requestId);
    return c;
  }

  /** Queues a row; never throws and never waits. */
  enqueue(entry: PendingAuditEntry): void {
    if (this.queue.length >= AUDIT_MAX_QUEUED) {
      this.dropped++;
      return;
    }
    this.queue.push(entry);
    if (this.queue.length >= AUDIT_BATCH_SIZE) void this.flush();
  }

  /** Queues one change row per resource changed (audit-change.ts), all dated `at`; never throws. */
  changed(actor: ChangeActor, changes: readonly AuditedChange[], at: Date): void {
    for (const change of changes) this.enqueue(changeEntry(actor, change, at));
  }

  /** Writes everything queued so far (after any write under way); resolves when done (to the rows it could not write), never rejects. */
  flush(): Promise<number> {
    const run = this.writing.then(() => this.writeQueued());
    this.writing = run;
    return run;
  }

  /** Writes one row now (the CLI, which exits right after); throws when the database refuses it. */
  async recordNow(entry: AuditEntry): Promise<void> {
    await this.repo.insertMany([entry]);
  }

  /** Newest first; what this instance has queued is written first, so a caller sees its own earlier calls. */
  async list(filter: AuditFilter, page: Page): Promise<[AuditLogEntity[], number]> {
    await this.flush();
    return this.repo.list(filter, page);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flusher.stop();
    await this.flush();
  }

  private async writeQueued(): Promise<number> {
    let lost = 0;
    if (this.dropped > 0) {
      this.logger.error(`audit queue full: ${this.dropped} audit rows were dropped`);
      this.dropped = 0;
    }
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, AUDIT_BATCH_SIZE);
      try {
        await this.repo.insertMany(await this.withKeys(batch));
      } catch (err) {
        const rows = batch.map(({ keyHash: _hash, ...row }) => row);
        this.logger.error({ msg: 'audit_log insert failed', err: (err as Error).message, rows });
        lost += rows.length;
      }
    }
    return lost;
  }

  /** Names the keys of refused requests (one query per batch); an unknown secret stays anonymous. */
  private async withKeys(batch: PendingAuditEntry[]): Promise<AuditEntry[]> {
    const hashes = [...new Set(batch.flatMap((e) => (e.keyHash ? [e.keyHash] : [])))];
    const keys = await this.repo.keysByHash(hashes);
    return batch.map(({ keyHash, ...row }) => {
      const key = keyHash ? keys.get(keyHash) : undefined;
      return key ? { ...row, actorKind: 'api_key', actorId: String(key.id), actorName: key.name } : row;
    });
  }
}
