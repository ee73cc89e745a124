// The agent's end of sessions (docs/agent-protocol.md, "Sessions"): the server opens one (session.open) of a kind
// (terminal, file.read, file.write); the kind (sessions/*.ts, files/*.ts) gets the server's bytes in order and
// writes its own through the window; acknowledgements, control messages and the end go as JSON. A session lives on
// the connection it was opened on: when that drops, every session ends (a terminal's shell is killed).
import { AckBatcher, decodeSessionFrame, encodeSessionFrame, ReceiveWindow, SendWindow, SESSION_FRAME_MAX, SESSION_REASON_MAX } from '@app/protocol/agent';
import type { SessionKind, SessionOpenMessage } from '@app/protocol/agent';
import type { Connection, Log } from '../handlers/handler';
import type { SessionHandler, SessionIo, SessionOpener } from './kind';

/** The most sessions one agent holds at once (3 terminals per agent on the server's side, and file transfers). */
export const MAX_SESSIONS = 32;

class AgentSideSession {
  private readonly sending = new SendWindow();
  private readonly receiving = new ReceiveWindow();
  private readonly queue: Array<{ seq: number; payload: Uint8Array }> = [];
  private draining = false;
  handler?: SessionHandler;
  ended = false;

  constructor(
    readonly id: string,
    private readonly connection: Connection,
    private readonly forget: () => void,
    private readonly log: Log,
  ) {}

  readonly io: SessionIo = {
    write: async (bytes) => {
      for (let offset = 0; offset < bytes.length; offset += SESSION_FRAME_MAX) {
        if (this.ended) throw new Error('session ended');
        const part = bytes.subarray(offset, Math.min(bytes.length, offset + SESSION_FRAME_MAX));
        await this.sending.room(part.length);
        if (this.ended) throw new Error('session ended');
        const seq = this.sending.sent(part.length);
        if (!this.connection.sendBinary(encodeSessionFrame(this.id, seq, part))) {
          this.ended = true;
          this.forget();
          throw new Error('connection closed');
        }
      }
    },
    opened: (info) => {
      if (!this.ended) this.connection.send({ type: 'session.opened', session: this.id, info });
    },
    end: (reason, extra = {}) => {
      if (this.ended) return;
      this.ended = true;
      this.sending.release();
      this.forget();
      this.connection.send({ type: 'session.close', session: this.id, reason: shorten(reason), ...extra });
    },
    log: (line) => this.log(`session ${this.id}: ${line}`),
  };

  /** A frame from the server: undefined when acceptable, else why not (the session is ended). */
  frame(seq: number, payload: Uint8Array): string | undefined {
    const wrong = this.receiving.accept(seq, payload.length);
    if (wrong) {
      void this.close('protocol', true);
      return wrong;
    }
    this.queue.push({ seq, payload });
    void this.drain();
    return undefined;
  }

  acked(seq: number): void {
    this.sending.acked(seq);
  }

  private async drain(): Promise<void> {
    if (this.draining || !this.handler) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.ended) {
        const { seq, payload } = this.queue.shift()!;
        try {
          await this.handler.data?.(payload);
        } catch (err) {
          this.io.end((err as Error).message || 'write failed', { error: true });
          return;
        }
        this.receiving.consumed(payload.length);
        this.acks.consumed(seq, payload.length, this.queue.length > 0);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Acks every SESSION_ACK_EVERY bytes written, and on the next turn once nothing is left to write. */
  private readonly acks = new AckBatcher((seq) => {
    if (!this.ended) this.connection.send({ type: 'session.ack', session: this.id, seq });
  });

  /** The handler is ready: frames that came meanwhile are handed to it. */
  ready(handler: SessionHandler): void {
    this.handler = handler;
    void this.drain();
  }

  /**
   * The server ended it (`end`: after every byte it sent, which are written first) or the connection dropped. The
   * kind releases what it holds; when the server ended it, the agent answers session.close with what the kind says.
   */
  async close(reason: string, tell: boolean): Promise<void> {
    if (this.ended) return;
    if (reason === 'end') while ((this.queue.length > 0 || this.draining) && !this.ended) await new Promise((r) => setTimeout(r, 5));
    if (this.ended) return;
    this.ended = true;
    this.sending.release();
    this.forget();
    let result: { received?: number } | void = undefined;
    try {
      result = await this.handler?.close(reason);
    } catch (err) {
      this.log(`session ${this.id}: closing failed: ${(err as Error).message}`);
    }
    if (tell) this.connection.send({ type: 'session.close', session: this.id, reason: reason === 'end' ? 'end' : 'closed', ...(result ?? {}) });
  }
}

const shorten = (reason: string): string => (reason.length > SESSION_REASON_MAX ? `${reason.slice(0, SESSION_REASON_MAX - 1)}…` : reason) || 'closed';

/** Every session of the agent, by id; the kinds it can open. */
export class SessionManager {
  private readonly sessions = new Map<string, AgentSideSession>();

  constructor(
    private readonly openers: Record<SessionKind, SessionOpener>,
    private readonly log: Log,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  async open(message: SessionOpenMessage, connection: Connection): Promise<void> {
    const { session: id, kind, params } = message;
    const refuse = (reason: string): void => void connection.send({ type: 'session.close', session: id, reason: shorten(reason), error: true });
    if (this.sessions.has(id)) return refuse('session already open');
    if (this.sessions.size >= MAX_SESSIONS) return refuse(`too many sessions (${MAX_SESSIONS})`);
    const session = new AgentSideSession(id, connection, () => this.sessions.get(id) === session && this.sessions.delete(id), this.log);
    this.sessions.set(id, session);
    try {
      const handler = await this.openers[kind](params, session.io);
      if (session.ended) {
        await handler.close('closed');
        return;
      }
      session.ready(handler);
    } catch (err) {
      this.sessions.delete(id);
      if (!session.ended) {
        session.ended = true;
        refuse((err as Error).message || 'could not open the session');
      }
    }
  }

  /** A binary frame from the server: undefined when it was a frame of an open session, else why not (refused). */
  frame(bytes: Uint8Array): string | undefined {
    const decoded = decodeSessionFrame(bytes);
    if (!decoded.ok) return decoded.error;
    const session = this.sessions.get(decoded.frame.session);
    if (!session) return undefined; // (ended here while the server was still sending: dropped)
    return session.frame(decoded.frame.seq, decoded.frame.payload);
  }

  ack(id: string, seq: number): void {
    this.sessions.get(id)?.acked(seq);
  }

  control(id: string, control: Record<string, unknown>): void {
    const session = this.sessions.get(id);
    try {
      session?.handler?.control?.(control);
    } catch (err) {
      this.log(`session ${id}: control failed: ${(err as Error).message}`);
    }
  }

  /**
   * The server ended the session. `end`: after every byte it sent, and it awaits the agent's session.close (with
   * file.write's `received`); any other reason: it has forgotten the session, nothing is answered.
   */
  close(id: string, reason: string): Promise<void> {
    return this.sessions.get(id)?.close(reason, reason === 'end') ?? Promise.resolve();
  }

  /** The connection dropped, or the agent stops: every session ends, its kind releasing what it holds. */
  closeAll(reason: string): Promise<void> {
    return Promise.all([...this.sessions.values()].map((s) => s.close(reason, false))).then(() => undefined);
  }
}
