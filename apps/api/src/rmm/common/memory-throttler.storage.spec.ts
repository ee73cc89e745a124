import { MemoryThrottlerStorage } from './redis-throttler.storage';

// The counters read Date.now(): Jest's fake clock moves it, so the windows and blocks pass without being waited for.
const sleep = (ms: number) => jest.advanceTimersByTimeAsync(ms);

describe('MemoryThrottlerStorage (the in-memory rate counters, counted like the Redis ones)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('counts hits per key in a window, blocks past the limit for the block duration, then counts afresh', async () => {
    const s = new MemoryThrottlerStorage();
    const hit = (key = 'k') => s.increment(key, 200, 3, 2_000, 'default');
    for (let i = 1; i <= 3; i++) expect(await hit()).toMatchObject({ totalHits: i, isBlocked: false, timeToBlockExpire: 0 });
    const over = await hit();
    expect(over).toMatchObject({ totalHits: 4, isBlocked: true });
    expect(over.timeToBlockExpire).toBe(2); // seconds, rounded up (Retry-After)
    expect(await hit('other')).toMatchObject({ totalHits: 1, isBlocked: false }); // one bucket per key

    await sleep(300); // the window (200 ms) is over, the block (2 s) is not
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: true });
    await sleep(2_000);
    expect(await hit()).toMatchObject({ isBlocked: false });
  });

  it('costs the same at any number of hits in the window (a counter, not a list of hits)', async () => {
    const s = new MemoryThrottlerStorage();
    for (let i = 0; i < 100_000; i++) await s.increment('busy', 60_000, 1_000_000, 60_000, 'default');
    expect(await s.increment('busy', 60_000, 1_000_000, 60_000, 'default')).toMatchObject({ totalHits: 100_001, isBlocked: false });
  });
});
