import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { SkipThrottle, Throttle, ThrottlerException } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { MemoryThrottlerStorage } from './redis-throttler.storage';
import { bucketKey, keyTracker, RmmThrottlerGuard } from './rmm-throttler.guard';

// The guard reads each route's throttler decorators once and keeps them (not a dozen metadata lookups per
// request): what it decides must stay what the stock guard decides, decorators included.
class Routes {
  plain(): void {}
  @SkipThrottle()
  skipped(): void {}
  @Throttle({ default: { limit: 2, ttl: 60_000 } })
  tight(): void {}
}
@SkipThrottle()
class SkippedClass {
  inherited(): void {}
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

async function guardWith(limit: number): Promise<RmmThrottlerGuard> {
  const guard = new RmmThrottlerGuard({ throttlers: [{ name: 'default', ttl: 60_000, limit: () => limit }], getTracker: keyTracker, generateKey: bucketKey }, new MemoryThrottlerStorage(), new Reflector());
  await guard.onModuleInit();
  return guard;
}

function call(guard: RmmThrottlerGuard, cls: new () => object, name: string, key = 'rmm_key_a') {
  const sent: Record<string, string | number> = {};
  const reply = { header: (k: string, v: string | number) => ((sent[k] = v), reply) };
  const req = { headers: { 'x-api-key': key } };
  const handler = (cls.prototype as Record<string, () => void>)[name];
  return { sent, result: guard.canActivate(new ExecutionContextHost([req, reply], cls, handler)) };
}

describe('RmmThrottlerGuard', () => {
  it("counts requests per key and answers the request over the limit with 429 and Retry-After", async () => {
    const guard = await guardWith(3);
    for (let i = 0; i < 3; i++) await expect(call(guard, Routes, 'plain').result).resolves.toBe(true);
    const over = call(guard, Routes, 'plain');
    await expect(over.result).rejects.toBeInstanceOf(ThrottlerException);
    expect(Number(over.sent['Retry-After'])).toBeGreaterThanOrEqual(1);
    await expect(call(guard, Routes, 'plain', 'rmm_key_b').result).resolves.toBe(true); // another key, another bucket
  });

  it("keeps the stock guard's X-RateLimit headers", async () => {
    const guard = await guardWith(10);
    const first = call(guard, Routes, 'plain');
    await first.result;
    expect(first.sent).toMatchObject({ 'X-RateLimit-Limit': 10, 'X-RateLimit-Remaining': 9 });
  });

  it('honours @Throttle on a route and @SkipThrottle on a route or its class, call after call', async () => {
    const guard = await guardWith(1_000);
    for (let i = 0; i < 2; i++) await expect(call(guard, Routes, 'tight').result).resolves.toBe(true);
    await expect(call(guard, Routes, 'tight').result).rejects.toBeInstanceOf(ThrottlerException);
    for (let i = 0; i < 5; i++) {
      await expect(call(guard, Routes, 'skipped').result).resolves.toBe(true);
      await expect(call(guard, SkippedClass, 'inherited').result).resolves.toBe(true);
    }
  });
});

describe('keyTracker', () => {
  it("tracks a request by its key's hash, the same whether the key guard has verified it or not", () => {
    const secret = 'rmm_some_key_0123456789';
    const unverified = keyTracker({ headers: { 'x-api-key': secret } });
    const verified = keyTracker({ headers: { 'x-api-key': secret }, principal: { kind: 'api_key', secretHash: sha(secret) } });
    expect(unverified).toBe(sha(secret).slice(0, 32));
    expect(verified).toBe(unverified);
    expect(keyTracker({ headers: { cookie: 'rmm_session=abc' } })).not.toBe(unverified); // a session: its own bucket
  });
});
