import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { KeyUses } from '../../common/callers';
import { ApiKeysRepository } from './api-keys.repository';

/** How often the latest use of each key is written (one statement for all keys). */
export const LAST_USED_FLUSH_MS = 10_000;

/**
 * api_keys.last_used_at without a database write per request: uses are kept in memory and written in one
 * batch every 10 s (the job `api-keys.last-used`) and at shutdown. A crash loses at most the last 10 s of "last used" times.
 */
@Injectable()
export class ApiKeyUsage extends KeyUses implements OnApplicationShutdown {
  private readonly logger = new Logger('api-keys');
  private pending = new Map<number, Date>();
  private readonly flusher: Job;

  constructor(
    private readonly repo: ApiKeysRepository,
    jobs: Jobs,
  ) {
    super();
    // Every instance: the uses are this instance's memory.
    this.flusher = jobs.every('api-keys.last-used', { seconds: LAST_USED_FLUSH_MS / 1000, mode: 'every-instance' }, () => this.write());
  }

  touch(keyId: number, at: Date): void {
    const seen = this.pending.get(keyId);
    if (!seen || seen < at) this.pending.set(keyId, at);
  }

  /** Writes the uses noted since the last write (one statement); never throws (a failure is logged). */
  async flush(): Promise<void> {
    await this.write().catch((err: Error) => this.logger.warn(`could not record key use: ${err.message}`));
  }

  /** The write itself: the job's run, whose failure the registry counts. */
  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    await this.repo.recordLastUsed(batch);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flusher.stop();
    await this.flush();
  }
}
