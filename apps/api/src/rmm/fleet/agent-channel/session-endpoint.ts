import { AckBatcher, ReceiveWindow, SendWindow, SESSION_FRAME_MAX, SessionKind } from '@app/protocol';

/** How a session ended: the end's reason (`exit`, `end`, `closed`, `agent_offline`, `protocol`, or the agent's words), and what came with it. */
export interface SessionEnd {
  reason: string;
  /** A terminal's exit code. */
  code?: number | null;
  /** True when the session failed (the agent could not open it, or broke off). */
  error?: boolean;
  /** file.write: the bytes the agent has written. */
  received?: number;
}

/**
 * How long the agent has to show the session is alive (its session.opened, an ack or a frame) by default: an agent
 * that does not know sessions answers session.open with `error` only. A kind that works before it answers (file.read
 * hashes the whole file first) asks for longer (AgentSessions.open's `openTimeoutMs`).
 */
export const OPEN_TIMEOUT_MS = 30_000;

/** The session ended before the agent opened it, or before a write went: why (SessionEnd). */
export class SessionEndedError extends Error {
  constructor(readonly end: SessionEnd) {
    super(end.reason);
  }
}

/** One session as the feature that opened it sees it (AgentSessions.open). */
export interface AgentSession {
  readonly id: string;
  readonly agentId: number;
  readonly kind: SessionKind;
  /** The agent's session.opened info; rejects with SessionEndedError when the session ends first (the agent refused it). */
  readonly opened: Promise<Record<string, unknown>>;
  /** Resolves once, when the session ended (either end), after every byte the agent sent was consumed. */
  readonly ended: Promise<SessionEnd>;
  /** Bytes from the agent, consumed so far. */
  readonly bytesFromAgent: number;
  /** Bytes to the agent, sent so far. */
  readonly bytesToAgent: number;
  /** Date.now() of the last byte either way. */
  readonly lastActivity: number;
  /**
   * Sends bytes to the agent (cut into frames of at most 32 KiB, held to the 256 KiB window): resolves when all of
   * them went; awaiting it is the back-pressure. Writes are sent in the order they were called. Rejects with
   * SessionEndedError once the session ended.
   */
  write(bytes: Uint8Array): Promise<void>;
  /** A control message of the kind (terminal: {type: "resize", cols, rows}). */
  control(control: { type: string } & Record<string, unknown>): void;
  /** Ends the session from the server's side; `ended` resolves with this reason at once (bytes not yet consumed are dropped). */
  close(reason: string): void;
  /**
   * Every byte written is the last (file.write): the agent is told `end` once they went, and answers with its own
   * session.close (file.write: `received`), with which this resolves (`ended` too).
   */
  endWrites(): Promise<SessionEnd>;
  /**
   * The consumer of the agent's bytes (one, set once): called in order; the next frame waits until what it returns
   * resolves, and only then is the frame acknowledged, so a slow consumer slows the agent (bounded memory).
   */
  onData(consumer: (bytes: Uint8Array) => void | Promise<void>): void;
}

/** How an endpoint reaches the agent's side: over the agent's socket on this instance, or through the instance holding it. */
export interface SessionLink {
  /** False when it could not go (the agent's connection is gone). */
  frame(seq: number, payload: Uint8Array): boolean;
  ack(seq: number): void;
  control(control: Record<string, unknown>): void;
  close(end: SessionEnd): void;
  /** Tells the agent every byte was sent (session.close `end`), and keeps listening for its answer. */
  endWrites(): void;
}

/**
 * The server's end of one session (the instance where the feature opened it): the window of what it sends, the
 * window and queue of what the agent sends, and the session's end. The link carries it to the agent.
 */
export class SessionEndpoint implements AgentSession {
  readonly opened: Promise<Record<string, unknown>>;
  readonly ended: Promise<SessionEnd>;
  bytesFromAgent = 0;
  bytesToAgent = 0;
  lastActivity = Date.now();
  private resolveOpened!: (info: Record<string, unknown>) => void;
  private rejectOpened!: (err: Error) => void;
  private resolveEnded!: (end: SessionEnd) => void;
  private readonly sending = new SendWindow();
  private readonly receiving = new ReceiveWindow();
  private readonly queue: Array<{ seq: number; payload: Uint8Array }> = [];
  private consumer?: (bytes: Uint8Array) => void | Promise<void>;
  private draining = false;
  /** The agent's end, held until its bytes were consumed. */
  private agentEnd?: SessionEnd;
  private end?: SessionEnd;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly agentId: number,
    readonly kind: SessionKind,
    private readonly link: SessionLink,
    private readonly forget: () => void,
    openTimeoutMs = OPEN_TIMEOUT_MS,
  ) {
    this.opened = new Promise((resolve, reject) => {
      this.resolveOpened = resolve;
      this.rejectOpened = reject;
    });
    this.opened.catch(() => undefined); // (a feature that never awaits it must not see an unhandled rejection)
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.openTimer = setTimeout(() => {
      if (this.end || this.agentEnd) return;
      this.link.close({ reason: 'closed' });
      this.finish({ reason: `the agent did not open the session within ${Math.round(openTimeoutMs / 1000)} s (an agent older than sessions?)`, error: true });
    }, openTimeoutMs);
    this.openTimer.unref();
  }

  private readonly openTimer: NodeJS.Timeout;

  get isEnded(): boolean {
    return this.end !== undefined;
  }

  write(bytes: Uint8Array): Promise<void> {
    const next = this.writes.then(() => this.send(bytes));
    this.writes = next.catch(() => undefined);
    return next;
  }

  private async send(bytes: Uint8Array): Promise<void> {
    for (let offset = 0; offset < bytes.length; offset += SESSION_FRAME_MAX) {
      const before = this.end ?? this.agentEnd;
      if (before) throw new SessionEndedError(before);
      const part = bytes.subarray(offset, Math.min(bytes.length, offset + SESSION_FRAME_MAX));
      await this.sending.room(part.length);
      const after = this.end ?? this.agentEnd;
      if (after) throw new SessionEndedError(after);
      const seq = this.sending.sent(part.length);
      this.bytesToAgent += part.length;
      this.lastActivity = Date.now();
      if (!this.link.frame(seq, part)) {
        this.finish({ reason: 'agent_offline', error: true });
        throw new SessionEndedError(this.end!);
      }
    }
  }

  control(control: { type: string } & Record<string, unknown>): void {
    if (!this.end) this.link.control(control);
  }

  close(reason: string): void {
    if (this.end) return;
    this.link.close({ reason });
    this.finish({ reason });
  }

  async endWrites(): Promise<SessionEnd> {
    await this.writes;
    if (!this.end && !this.agentEnd) this.link.endWrites();
    return this.ended;
  }

  onData(consumer: (bytes: Uint8Array) => void | Promise<void>): void {
    if (this.consumer) throw new Error('a session has one consumer');
    this.consumer = consumer;
    void this.drain();
  }

  // ---- from the agent's side (the link's owner calls these) ----

  /** A data frame from the agent: null when acceptable, else the protocol error (the caller ends the session). */
  receiveFrame(seq: number, payload: Uint8Array): string | null {
    if (this.end || this.agentEnd) return null; // (in flight when the session ended: dropped)
    const wrong = this.receiving.accept(seq, payload.length);
    if (wrong) {
      this.link.close({ reason: 'protocol', error: true });
      this.finish({ reason: 'protocol', error: true });
      return wrong;
    }
    this.queue.push({ seq, payload });
    void this.drain();
    return null;
  }

  receiveAck(seq: number): void {
    clearTimeout(this.openTimer); // (alive: file.write acks without a session.opened)
    if (!this.end) this.sending.acked(seq);
  }

  receiveOpened(info: Record<string, unknown>): void {
    clearTimeout(this.openTimer);
    this.resolveOpened(info);
  }

  /** The agent ended the session (or its connection is gone): `ended` resolves once what it sent before was consumed. */
  receiveClose(end: SessionEnd): void {
    if (this.end || this.agentEnd) return;
    this.agentEnd = end;
    this.rejectOpened(new SessionEndedError(end));
    this.sending.release();
    if (end.error || (this.queue.length === 0 && !this.draining)) this.finish(end);
  }

  private async drain(): Promise<void> {
    if (this.draining || !this.consumer) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.end) {
        const { seq, payload } = this.queue.shift()!;
        this.bytesFromAgent += payload.length;
        this.lastActivity = Date.now();
        try {
          await this.consumer(payload);
        } catch {
          // The consumer is gone (the caller's socket or response closed): the session ends.
          this.close('closed');
          return;
        }
        this.receiving.consumed(payload.length);
        this.acks.consumed(seq, payload.length, this.queue.length > 0);
      }
    } finally {
      this.draining = false;
    }
    if (this.agentEnd && this.queue.length === 0) this.finish(this.agentEnd);
  }

  /** Acks every SESSION_ACK_EVERY bytes consumed, and on the next turn once nothing is left to consume. */
  private readonly acks = new AckBatcher((seq) => {
    if (!this.agentEnd && !this.end) this.link.ack(seq);
  });

  /** Ended: once. */
  finish(end: SessionEnd): void {
    if (this.end) return;
    this.end = end;
    clearTimeout(this.openTimer);
    this.queue.length = 0;
    this.rejectOpened(new SessionEndedError(end));
    this.sending.release();
    this.forget();
    this.resolveEnded(end);
  }
}
