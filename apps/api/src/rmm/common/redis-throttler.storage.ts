import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { Logger } from '@nestjs/common';
import Redis from 'ioredis';

/**
 * Counts in Redis, so several instances share one budget per key. One round trip per request: a Lua script
 * increments the hit counter of the window and, past the limit, sets a block for blockDuration.
 */
const SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
local blocked = redis.call('PTTL', KEYS[2])
if blocked <= 0 and hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  blocked = tonumber(ARGV[3])
end
return {hits, ttl, blocked}
`;

export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('throttler');
  private warned = 0;

  constructor(private readonly redis: Redis) {
    redis.defineCommand('rmmThrottle', { numberOfKeys: 2, lua: SCRIPT });
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, _name: string): Promise<ThrottlerStorageRecord> {
    const run = (this.redis as unknown as { rmmThrottle(...a: (string | number)[]): Promise<[number, number, number]> }).rmmThrottle;
    let hits: number, ttlMs: number, blockMs: number;
    try {
      [hits, ttlMs, blockMs] = await run.call(this.redis, `${key}:hits`, `${key}:blocked`, ttl, limit, blockDuration || ttl);
    } catch (err) {
      // Redis away: let requests through rather than fail them all; say so (at most once a minute).
      if (Date.now() - this.warned > 60_000) {
        this.warned = Date.now();
        this.logger.warn(`rate limiting suspended, Redis unavailable: ${(err as Error).message}`);
      }
      return { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };
    }
    const isBlocked = blockMs > 0;
    return {
      totalHits: hits,
      timeToExpire: Math.ceil(Math.max(ttlMs, 0) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil(blockMs / 1000) : 0,
    };
  }
}

/**
 * The same counting as RedisThrottlerStorage (a counter per window, a block past the limit), in this process's
 * memory: O(1) per request. (The throttler's stock ThrottlerStorageService keeps one timestamp per hit and
 * filters the whole list on every request: with a high limit that cost grows with the traffic; see
 * docs/performance.md.) Expired counters are swept once a window.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly counters = new Map<string, { hits: number; resetAt: number; blockedUntil: number }>();
  private lastSweep = Date.now();

  increment(key: string, ttl: number, limit: number, blockDuration: number, _name: string): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    if (now - this.lastSweep >= Math.max(ttl, 1_000)) this.sweep(now);
    let c = this.counters.get(key);
    if (!c || (c.resetAt <= now && c.blockedUntil <= now)) {
      c = { hits: 0, resetAt: now + ttl, blockedUntil: 0 };
      this.counters.set(key, c);
    } else if (c.resetAt <= now) {
      c.hits = 0;
      c.resetAt = now + ttl;
    }
    c.hits += 1;
    if (c.blockedUntil <= now && c.hits > limit) c.blockedUntil = now + (blockDuration || ttl);
    const isBlocked = c.blockedUntil > now;
    return Promise.resolve({
      totalHits: c.hits,
      timeToExpire: Math.ceil((c.resetAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((c.blockedUntil - now) / 1000) : 0,
    });
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [k, c] of this.counters) if (c.resetAt <= now && c.blockedUntil <= now) this.counters.delete(k);
  }
}
