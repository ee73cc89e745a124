import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ApiKeyEntity } from '@app/entities';
import { RmmEvents } from '../../common/bus/rmm-events';

/** How long a verified key is trusted without reading its row again (revocation does not wait for it). */
export const API_KEY_CACHE_TTL_MS = 10_000;
/** At most this many keys are kept; the oldest entry goes first. */
export const API_KEY_CACHE_MAX = 10_000;

interface Entry {
  key: ApiKeyEntity;
  until: number;
}

/**
 * Verified keys by the SHA-256 of their secret, for API_KEY_CACHE_TTL_MS: the key guard then costs no database
 * round trip per request. Only keys found and usable are kept (a wrong secret always reaches the database).
 * Revocation takes effect at once: ApiKeysService.revoke drops the key here, and every instance drops it on
 * `apikey.revoked` (the bus carries it across instances when REDIS_URL is set) and on PostgreSQL's NOTIFY of the
 * revocation (api-key-revocations.ts: another instance without Redis, or the operator CLI). A key's expiry and revocation
 * time are checked on every use, cached or not; ensure/restore (scopes changed) clears the cache.
 */
@Injectable()
export class ApiKeyCache implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly unsubscribe: () => void;

  constructor(events: RmmEvents) {
    this.unsubscribe = events.on('apikey.revoked', ({ keyId }) => this.forget(keyId));
  }

  get(hash: string, nowMs: number): ApiKeyEntity | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.until <= nowMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.key;
  }

  set(hash: string, key: ApiKeyEntity, nowMs: number): void {
    if (this.entries.size >= API_KEY_CACHE_MAX && !this.entries.has(hash)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { key, until: nowMs + API_KEY_CACHE_TTL_MS });
  }

  /** Drops every entry of this key (revoked). */
  forget(keyId: number): void {
    for (const [hash, e] of this.entries) if (e.key.id === keyId) this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
