/** Thrown at once, without waiting, when every slot is taken and the queue is full. */
export class HashQueueFullError extends Error {
  constructor() {
    super('password hashing queue full');
    this.name = 'HashQueueFullError';
  }
}

/**
 * At most `concurrency` tasks run at once, at most `queueLength` wait for a turn (first come, first
 * served); beyond that `run` refuses at once. For argon2 (64 MiB and ~100 ms of a worker thread each):
 * a burst of sign-ins then costs a few refusals instead of seconds of latency for everyone.
 */
export class HashQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly queueLength: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
    if (!Number.isInteger(queueLength) || queueLength < 0) throw new RangeError('queueLength must be a non-negative integer');
  }

  /** Tasks running now, and waiting now. */
  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `task` when a slot is free; throws HashQueueFullError (synchronously, as a rejection) when none is and the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueLength) throw new HashQueueFullError();
      // The slot is handed over by the task that finishes (running stays counted), so no newcomer can jump the queue.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
