import { Global, Logger, Module } from '@nestjs/common';
import type Redis from 'ioredis';
import { Jobs } from '../jobs/jobs';
import { RedisConnections } from '../redis/redis.module';

/** The state of one bucket after a hit or a look. */
export interface BucketState {
  /** Hits counted in the current window. */
  count: number;
  /** False once `count` exceeds the limit. */
  allowed: boolean;
  /** Seconds until the window ends (at least 1 when refused). */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters by bucket name, for the budgets that are not per route of /api/v3 (those are
 * @nestjs/throttler's): requests per user, failed sign-ins per account and per address. In Redis when
 * REDIS_URL is set (shared by every instance), else in this process.
 */
export abstract class RateLimiter {
  /** Counts one hit in `bucket`'s window of `windowMs` and says whether it is within `limit`. */
  abstract hit(bucket: string, limit: number, windowMs: number): Promise<BucketState>;
  /** The bucket as it stands, counting nothing. */
  abstract peek(bucket: string, limit: number): Promise<BucketState>;
  /** Forgets a bucket (a successful sign-in clears the account's failures). */
  abstract reset(bucket: string): Promise<void>;
}

const state = (count: number, limit: number, ttlMs: number): BucketState => ({
  count,
  allowed: count <= limit,
  retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
});

/** One instance: a Map swept of expired windows once a minute (the job `rate-limit.sweep`, when `jobs` is given). */
export class MemoryRateLimiter extends RateLimiter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(jobs?: Jobs) {
    super();
    jobs?.every('rate-limit.sweep', { seconds: 60, mode: 'every-instance' }, () => this.sweep());
  }

  async hit(bucket: string, limit: number, windowMs: number): Promise<BucketState> {
    const now = Date.now();
    let w = this.windows.get(bucket);
    if (!w || w.endsAt <= now) {
      w = { count: 0, endsAt: now + windowMs };
      this.windows.set(bucket, w);
    }
    w.count += 1;
    return state(w.count, limit, w.endsAt - now);
  }

  async peek(bucket: string, limit: number): Promise<BucketState> {
    const now = Date.now();
    const w = this.windows.get(bucket);
    return w && w.endsAt > now ? state(w.count, limit, w.endsAt - now) : state(0, limit, 0);
  }

  async reset(bucket: string): Promise<void> {
    this.windows.delete(bucket);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
  }
}

const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;

/** Several instances: INCR + PEXPIRE in one script. Redis away: allow, and say so (at most once a minute). */
export class RedisRateLimiter extends RateLimiter {
  private readonly logger = new Logger('rate-limit');
  private warned = 0;

  constructor(private readonly redis: Redis) {
    super();
  }

  async hit(bucket: string, limit: number, windowMs: number): Promise<BucketState> {
    try {
      const [n, ttl] = (await this.redis.eval(HIT, 1, `rl:${bucket}`, windowMs)) as [number, number];
      return state(n, limit, Math.max(ttl, 0));
    } catch (err) {
      return this.failOpen(err);
    }
  }

  async peek(bucket: string, limit: number): Promise<BucketState> {
    try {
      const [n, ttl] = await Promise.all([this.redis.get(`rl:${bucket}`), this.redis.pttl(`rl:${bucket}`)]);
      return state(Number(n ?? 0), limit, Math.max(ttl, 0));
    } catch (err) {
      return this.failOpen(err);
    }
  }

  async reset(bucket: string): Promise<void> {
    await this.redis.del(`rl:${bucket}`).catch(() => undefined);
  }

  private failOpen(err: unknown): BucketState {
    if (Date.now() - this.warned > 60_000) {
      this.warned = Date.now();
      this.logger.warn(`rate limits suspended, Redis unavailable: ${(err as Error).message}`);
    }
    return { count: 0, allowed: true, retryAfterSeconds: 0 };
  }
}

@Global()
@Module({
  providers: [
    {
      provide: RateLimiter,
      inject: [RedisConnections, Jobs],
      useFactory: (redis: RedisConnections, jobs: Jobs): RateLimiter => (redis.enabled ? new RedisRateLimiter(redis.shared()) : new MemoryRateLimiter(jobs)),
    },
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}
