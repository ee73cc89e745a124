import { backoffSeconds, retryAfterSeconds, verdict } from './retry-policy';

const policy = { baseSeconds: 30, retryForSeconds: 86_400 };
const now = new Date('2026-11-26T12:00:00Z');

describe('notification retry policy', () => {
  it('backs off 30, 60, 120 s … capped at an hour, with up to 25 % jitter above', () => {
    expect([1, 2, 3, 4].map((n) => backoffSeconds(n, 30, () => 0))).toEqual([30, 60, 120, 240]);
    expect(backoffSeconds(20, 30, () => 0)).toBe(3_600);
    expect(backoffSeconds(1, 30, () => 0.999)).toBeLessThan(37.5);
    expect(backoffSeconds(1, 30, () => 0.999)).toBeGreaterThan(30);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('0', now)).toBe(1);
    expect(retryAfterSeconds(new Date(now.getTime() + 90_000).toUTCString(), now)).toBe(90);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(undefined, now)).toBeNull();
  });

  it('ends on 2xx, disables on 410, honours 429, retries others until 24 h after the first attempt', () => {
    const fresh = { attempts: 1, firstAttemptAt: now };
    expect(verdict({ status: 204 }, fresh, policy, now)).toEqual({ kind: 'delivered' });
    expect(verdict({ status: 410 }, fresh, policy, now)).toEqual({ kind: 'disable' });
    expect(verdict({ status: 429, retryAfter: '5' }, fresh, policy, now)).toEqual({ kind: 'retry', delaySeconds: 5 });
    expect(verdict({ status: 500 }, fresh, policy, now, () => 0)).toEqual({ kind: 'retry', delaySeconds: 30 });
    expect(verdict({ status: null }, fresh, policy, now, () => 0)).toEqual({ kind: 'retry', delaySeconds: 30 });
    expect(verdict({ status: 302 }, fresh, policy, now, () => 0)).toEqual({ kind: 'retry', delaySeconds: 30 });
    const old = { attempts: 30, firstAttemptAt: new Date(now.getTime() - 86_000_000) };
    expect(verdict({ status: 503 }, old, policy, now)).toEqual({ kind: 'failed' });
    expect(verdict({ status: null, final: true }, fresh, policy, now)).toEqual({ kind: 'failed' });
  });
});
