import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { KeyUses } from '../../common/callers';
import { ApiKeysRepository } from './api-keys.repository';

/** How often the latest use of each key is written (one statement for all keys). */
export const LAST_USED_FLUSH_MS = 10_000;

/**
 * api_keys.last_used_at without a database write per request: uses are kept in memory and written in one
 * batch every 10 s and at shutdown. A crash loses at most the last 10 s of "last used" times.
 */
@Injectable()
export class ApiKeyUsage extends KeyUses implements OnApplicationShutdown {
  private readonly logger = new Logger('api-keys');
  private pending = new Map<number, Date>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly repo: ApiKeysRepository) {
    super();
    this.timer = setInterval(() => void this.flush(), LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  touch(keyId: number, at: Date): void {
    const seen = this.pending.get(keyId);
    if (!seen || seen < at) this.pending.set(keyId, at);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.repo.recordLastUsed(batch);
    } catch (err) {
      this.logger.warn(`could not record key use: ${(err as Error).message}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
