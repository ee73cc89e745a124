import { HashQueue, HashQueueFullError } from './hash-queue';

/** A task that ends when told to. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('HashQueue', () => {
  it('runs at most `concurrency` tasks at once, queues up to `queueLength`, and refuses the rest at once', async () => {
    const q = new HashQueue(2, 3);
    const gates = Array.from({ length: 5 }, gate);
    let running = 0;
    let most = 0;
    const task = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await gates[i].promise;
      running--;
      return i;
    };
    const accepted = gates.map((_, i) => q.run(task(i)));
    await tick();
    expect(q.stats).toEqual({ running: 2, waiting: 3 });
    await expect(q.run(async () => 'late')).rejects.toBeInstanceOf(HashQueueFullError);

    gates.forEach((g) => g.open());
    await expect(Promise.all(accepted)).resolves.toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(q.stats).toEqual({ running: 0, waiting: 0 });
    await expect(q.run(async () => 'again')).resolves.toBe('again');
  });

  it('serves waiting tasks first come, first served; a newcomer cannot jump the queue when a slot frees', async () => {
    const q = new HashQueue(1, 2);
    const order: string[] = [];
    const first = gate();
    const a = q.run(async () => {
      await first.promise;
      order.push('a');
    });
    const b = q.run(async () => void order.push('b'));
    const c = q.run(async () => void order.push('c'));
    await tick();
    first.open();
    await a;
    const d = q.run(async () => void order.push('d'));
    await Promise.all([b, c, d]);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('frees the slot of a task that fails, and passes its error on', async () => {
    const q = new HashQueue(1, 0);
    await expect(q.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(q.stats).toEqual({ running: 0, waiting: 0 });
    await expect(q.run(async () => 1)).resolves.toBe(1);
  });

  it('with no queue, refuses as soon as every slot is busy', async () => {
    const q = new HashQueue(1, 0);
    const g = gate();
    const busy = q.run(() => g.promise);
    await expect(q.run(async () => 1)).rejects.toBeInstanceOf(HashQueueFullError);
    g.open();
    await busy;
  });

  it('refuses a configuration without a slot', () => {
    expect(() => new HashQueue(0, 1)).toThrow(RangeError);
    expect(() => new HashQueue(1, -1)).toThrow(RangeError);
  });
});
