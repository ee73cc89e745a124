/**
 * How each end logs what the other refused (the server an agent's `error`, the agent the server's invalid
 * messages): at most `max` lines a window, so that a misbehaving peer (or a whole fleet refusing the same new
 * message) cannot flood the log; past it lines are counted, and the count is written when the window ends.
 */
export class LogBudget {
  private windowEnds = 0;
  private written = 0;
  private dropped = 0;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly write: (line: string) => void,
    private readonly options: { max: number; windowMs: number; dropped: (count: number) => string },
  ) {}

  line(text: string): void {
    const now = Date.now();
    if (now >= this.windowEnds) {
      this.flush();
      this.windowEnds = now + this.options.windowMs;
      this.written = 0;
    }
    if (this.written < this.options.max) {
      this.written++;
      this.write(text);
      return;
    }
    this.dropped++;
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.windowEnds - now);
      // (never what keeps a process alive)
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  /** Writes the count of the lines not written (at the end of their window, or when the process stops). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dropped === 0) return;
    const count = this.dropped;
    this.dropped = 0;
    this.write(this.options.dropped(count));
  }
}
