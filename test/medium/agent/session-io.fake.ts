import type { SessionIo } from '../../../apps/agent/src/sessions/kind';

/**
 * The session's seam, recording what a kind sends back (the session manager is the lead's: apps/agent/src/sessions/
 * manager.ts). `hold()` keeps each write pending until `release()`, as a full window does.
 */
export class RecordingIo implements SessionIo {
  readonly chunks: Uint8Array[] = [];
  readonly logs: string[] = [];
  openedInfo: Record<string, unknown> | undefined;
  ended: { reason: string; extra?: { code?: number | null; error?: boolean; received?: number } } | undefined;
  writesBeforeOpened = 0;
  private held: Array<() => void> | undefined;
  private readonly waiters: Array<() => void> = [];

  write(bytes: Uint8Array): Promise<void> {
    if (this.ended) return Promise.reject(new Error('session ended'));
    if (!this.openedInfo) this.writesBeforeOpened++;
    // A copy: the kind may reuse its buffer once the write resolved.
    this.chunks.push(Uint8Array.from(bytes));
    this.notify();
    if (this.held) return new Promise((resolve) => this.held!.push(resolve));
    return Promise.resolve();
  }
  opened(info: Record<string, unknown>): void {
    this.openedInfo = info;
    this.notify();
  }
  end(reason: string, extra?: { code?: number | null; error?: boolean; received?: number }): void {
    this.ended = { reason, extra };
    this.notify();
  }
  log(line: string): void {
    this.logs.push(line);
  }

  /** Every byte written so far. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.bytes().toString('utf8');
  }
  hold(): void {
    this.held = [];
  }
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const r of held) r();
  }

  /** Resolves once `probe` is true (checked at each write, opened and end). */
  async until(what: string, probe: () => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!probe()) {
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; output so far: ${JSON.stringify(this.text().slice(-500))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
