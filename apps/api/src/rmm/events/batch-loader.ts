/**
 * Reads by key, many at once: the keys asked for in one turn of the event loop (20,000 agents announced by one
 * heartbeat flush) are read together, at most `maxBatch` per query and one query at a time, so that a storm of
 * events costs a few indexed reads rather than one per event, and never takes the whole connection pool. A key
 * asked for twice before its read shares that read. What a read does not find resolves undefined; a read that
 * fails rejects the loads of its batch only.
 */
export class BatchLoader<K, V> {
  private pending = new Map<K, Array<{ resolve: (value: V | undefined) => void; reject: (err: unknown) => void }>>();
  private scheduled = false;
  private running = false;

  constructor(
    private readonly read: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxBatch: number,
  ) {}

  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      if (!this.scheduled && !this.running) {
        this.scheduled = true;
        setImmediate(() => void this.run());
      }
    });
  }

  /** Batch after batch until nothing is asked for (what is asked meanwhile goes in a later batch). */
  private async run(): Promise<void> {
    this.scheduled = false;
    this.running = true;
    try {
      while (this.pending.size > 0) {
        const batch: Array<[K, Array<{ resolve: (value: V | undefined) => void; reject: (err: unknown) => void }>]> = [];
        for (const entry of this.pending) {
          batch.push(entry);
          if (batch.length === this.maxBatch) break;
        }
        for (const [key] of batch) this.pending.delete(key);
        try {
          const found = await this.read(batch.map(([key]) => key));
          for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
        } catch (err) {
          for (const [, waiters] of batch) for (const w of waiters) w.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
