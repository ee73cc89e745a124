import { BatchLoader } from './batch-loader';

describe('BatchLoader (many reads by key as few queries)', () => {
  const recording = (fail?: (keys: number[]) => boolean) => {
    const calls: number[][] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const loader = new BatchLoader<number, string>(async (keys) => {
      calls.push(keys);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (fail?.(keys)) throw new Error('database down');
      return new Map(keys.filter((k) => k % 10 !== 0).map((k) => [k, `agent ${k}`]));
    }, 100);
    return { loader, calls, maxInFlight: () => maxInFlight };
  };

  it('reads the keys asked for in one turn together, in batches of at most maxBatch, one query at a time', async () => {
    const { loader, calls, maxInFlight } = recording();
    const keys = Array.from({ length: 250 }, (_, i) => i + 1);
    const values = await Promise.all(keys.map((k) => loader.load(k)));
    expect(values).toEqual(keys.map((k) => (k % 10 === 0 ? undefined : `agent ${k}`)));
    expect(calls.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(calls.flat()).toEqual(keys);
    expect(maxInFlight()).toBe(1);
  });

  it('shares one read between loads of the same key, and reads again for a key asked after its read', async () => {
    const { loader, calls } = recording();
    const [a, b] = await Promise.all([loader.load(7), loader.load(7)]);
    expect([a, b]).toEqual(['agent 7', 'agent 7']);
    expect(await loader.load(7)).toBe('agent 7');
    expect(calls).toEqual([[7], [7]]);
  });

  it('takes keys asked while a batch is being read into the next batch', async () => {
    const { loader, calls } = recording();
    const first = loader.load(1);
    await new Promise((r) => setImmediate(r)); // the first batch is being read now
    const second = Promise.all([loader.load(2), loader.load(3)]);
    expect(await first).toBe('agent 1');
    expect(await second).toEqual(['agent 2', 'agent 3']);
    expect(calls).toEqual([[1], [2, 3]]);
  });

  it('rejects the loads of a failed batch only; later loads read again', async () => {
    const { loader, calls } = recording((keys) => keys.includes(1));
    const results = await Promise.allSettled(Array.from({ length: 150 }, (_, i) => loader.load(i + 1)));
    expect(results.slice(0, 100).every((r) => r.status === 'rejected')).toBe(true);
    expect(results.slice(100).map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual(
      Array.from({ length: 50 }, (_, i) => ((i + 101) % 10 === 0 ? undefined : `agent ${i + 101}`)),
    );
    expect(await loader.load(2)).toBe('agent 2');
    expect(calls.map((c) => c.length)).toEqual([100, 50, 1]);
  });
});
