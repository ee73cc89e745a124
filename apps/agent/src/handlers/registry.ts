import { LogBudget, SERVER_MESSAGE_TYPES } from '@app/protocol/agent';
import { errorText, parseServerMessage } from '../inbound';
import { Connection, Handler, Log } from './handler';

/** Refusals logged per minute (each is answered all the same); past it they are counted. */
export const REFUSALS_LOGGED_PER_MINUTE = 20;

/**
 * The agent's capabilities by message type: every frame from the server is checked against its type's schema
 * (inbound.ts) before any handler sees it. One that is not a message of the protocol (not JSON, a binary frame,
 * an unknown type, a wrong shape) is answered `{type: "error", message}` saying why and logged (one line, never
 * the message itself); the agent goes on. Every type the server may send has exactly one handler.
 */
export class HandlerRegistry {
  private readonly byType = new Map<string, Handler>();
  private readonly refusals: LogBudget;

  constructor(
    handlers: Handler[],
    private readonly log: Log,
  ) {
    for (const h of handlers) {
      if (this.byType.has(h.type)) throw new Error(`two handlers of ${h.type}`);
      this.byType.set(h.type, h);
    }
    const missing = SERVER_MESSAGE_TYPES.filter((type) => !this.byType.has(type));
    if (missing.length > 0) throw new Error(`no handler of ${missing.join(', ')} (apps/agent/src/handlers/index.ts)`);
    // A type of SERVER_MESSAGES newer than libs/protocol's generated validators would be refused as unknown.
    const unchecked = [...this.byType.keys()].filter((type) => !(SERVER_MESSAGE_TYPES as readonly string[]).includes(type));
    if (unchecked.length > 0) throw new Error(`no validator of ${unchecked.join(', ')}: libs/protocol's generated validators are stale (npm run protocol:validators)`);
    this.refusals = new LogBudget(log, {
      max: REFUSALS_LOGGED_PER_MINUTE,
      windowMs: 60_000,
      dropped: (count) => `refused ${count} more message(s) of the server within a minute (not logged one by one)`,
    });
  }

  /** The message types handled, in the order the handlers were given. */
  get types(): string[] {
    return [...this.byType.keys()];
  }

  /** A binary frame from the server: a session's bytes (the handler that takes them), else refused like any frame. */
  receiveBinary(bytes: Uint8Array, connection: Connection): void {
    const taker = [...this.byType.values()].find((h) => h.binary);
    if (!taker) return this.receive(null, connection);
    let why: string | undefined;
    try {
      why = taker.binary!(bytes, connection);
    } catch (err) {
      return this.failed('a binary frame', err);
    }
    if (why !== undefined) {
      const message = errorText(why);
      this.refusals.line(`refused a message of the server: ${message}`);
      connection.send({ type: 'error', message });
    }
  }

  /** One frame from the server (null: a binary one), on `connection`. */
  receive(text: string | null, connection: Connection): void {
    const parsed = parseServerMessage(text);
    if (!parsed.ok) {
      const message = errorText(parsed.error);
      this.refusals.line(`refused a message of the server: ${message}`);
      connection.send({ type: 'error', message });
      return;
    }
    const handler = this.byType.get(parsed.type)!;
    // A handler that fails (a bug) costs that message, never the agent.
    try {
      void Promise.resolve(handler.handle(parsed.message, connection)).catch((err: unknown) => this.failed(parsed.type, err));
    } catch (err) {
      this.failed(parsed.type, err);
    }
  }

  /** The connection dropped. */
  disconnected(): void {
    for (const h of this.byType.values()) h.disconnected?.();
  }

  /** The agent is stopping. */
  stop(): void {
    for (const h of this.byType.values()) h.stop?.();
    this.refusals.flush();
  }

  private failed(type: string, err: unknown): void {
    this.log(`handling ${type} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
