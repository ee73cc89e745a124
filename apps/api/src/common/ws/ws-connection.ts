import { Logger } from '@nestjs/common';
import { WebSocket } from 'ws';

/** A close code and its reason, as a client reads them. */
export interface CloseHow {
  code: number;
  reason: string;
}

/** One message from a client, parsed and validated by its gateway's schemas; else why it is not one. */
export type ParsedMessage = { ok: true; type: string; message: unknown } | { ok: false; error: string };

/**
 * How a gateway's clients may talk to it (GatewayServer.serve): what a message is (`parse`, the gateway's
 * compiled schemas), how fast they may send, how many invalid messages they may send, what an invalid one is
 * answered, and the codes its connections are closed with.
 */
export interface WsMessagePolicy<C = unknown> {
  /** Every text frame (null: a binary frame, when the policy has no `binary`), before anything reads it. */
  parse(text: string | null): ParsedMessage;
  /**
   * Binary frames, when the gateway takes them (the agent channel's session bytes): not held to the message rate
   * (a session's window bounds them); what it returns, when not undefined, is refused as an invalid message.
   */
  binary?(ws: WebSocket, data: Buffer): string | undefined;
  /** The token bucket: messages per second, and the burst above it (this many seconds' worth). */
  rate: { perSecond: number; burstSeconds: number };
  /**
   * A text frame the rate does not count, decided before it is parsed (the agent channel: a session's ack of a frame
   * the server sent, which the server's own sending bounds; counting them capped a transfer at the rate's frames).
   */
  unmetered?(ws: WebSocket, text: string): boolean;
  /** More than `max` invalid messages within `windowMs` closes the connection (closes.invalid). */
  invalid: { max: number; windowMs: number };
  /** The answer to an invalid message (the connection stays open). */
  reply(conn: WsConnection<C>, why: string): void;
  closes: { flooding: CloseHow; invalid: CloseHow; internal: CloseHow };
}

/** How long a connection being closed may take to answer the close before it is dropped (its buffers freed). */
export const CLOSE_GRACE_MS = 1_000;

/** What a connection needs of its gateway: its label, its logger, its message policy and handlers' index. */
export interface ConnectionOwner<C> {
  /** The label of a connection in log lines ("agent 12"). */
  label(context: C): string;
  /** The gateway's logger: the lines about its connections are its own. */
  readonly logger: Logger;
  /** How its clients may send messages; without it, what they send is read and ignored. */
  readonly messages?: WsMessagePolicy<C>;
  /** The gateway's `@SubscribeMessage` handler of a message type (bound to the gateway once, not per client). */
  handlerOf(type: string): MessageHandler | undefined;
}

/** A gateway's `@SubscribeMessage` method, called with (client, message, type) as Nest calls it. */
export type MessageHandler = (client: WebSocket, message: unknown, type: string) => unknown;

/**
 * What the adapter keeps per connection (20,000 of them on one server: kept small, no closure of its own): the
 * gateway's context for it (what its admission returned: the agent's id, a key), its owner (the gateway's
 * server), and what holds it to its gateway's limits.
 */
export class WsConnection<C = unknown> {
  /** Times (ms) of its invalid messages within the window (made at the first). */
  private invalid?: number[];
  /** Token bucket of the message rate: tokens left, and when it was last filled. */
  private tokens: number;
  private filledAt = Date.now();

  constructor(
    readonly ws: WebSocket,
    readonly context: C,
    readonly owner: ConnectionOwner<C>,
  ) {
    const rate = owner.messages?.rate;
    this.tokens = rate ? rate.perSecond * rate.burstSeconds : 0;
  }

  get policy(): WsMessagePolicy<C> | undefined {
    return this.owner.messages;
  }

  get logger(): Logger {
    return this.owner.logger;
  }

  /** For log lines ("agent 12"). */
  get label(): string {
    return this.owner.label(this.context);
  }

  /** The message rate's token bucket: false when the connection has spent its burst and its rate. */
  withinRate(): boolean {
    const { perSecond, burstSeconds } = this.owner.messages!.rate;
    const now = Date.now();
    this.tokens = Math.min(perSecond * burstSeconds, this.tokens + ((now - this.filledAt) * perSecond) / 1000);
    this.filledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /**
   * An invalid message: answered (policy.reply) and otherwise ignored (nothing changes); more than
   * policy.invalid.max within policy.invalid.windowMs closes the connection (closes.invalid).
   */
  refuse(why: string): void {
    const policy = this.owner.messages!;
    const invalid = (this.invalid ??= []);
    const now = Date.now();
    while (invalid.length > 0 && invalid[0] <= now - policy.invalid.windowMs) invalid.shift();
    invalid.push(now);
    if (invalid.length > policy.invalid.max) {
      this.logger.warn(`${this.label}: connection closed after ${invalid.length} invalid messages within a minute (last: ${why})`);
      return closeSocket(this.ws, policy.closes.invalid);
    }
    policy.reply(this, why);
  }

  /** What a handler returned, other than undefined, goes back to the client as JSON. */
  answer(result: unknown): void {
    if (result !== undefined && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(result));
  }

  /** A handler failed (a bug): this connection is closed (closes.internal) and the failure logged; nothing else is. */
  failed(err: unknown): void {
    const internal = this.owner.messages?.closes.internal ?? { code: 1011, reason: 'server error' };
    this.logger.error(`${this.label}: a message could not be handled (connection closed ${internal.code}): ${(err as Error)?.stack ?? String(err)}`);
    closeSocket(this.ws, internal);
  }
}

const connections = new WeakMap<WebSocket, WsConnection<any>>();

/** Called by the adapter when a client is accepted. */
export function trackConnection<C>(conn: WsConnection<C>): void {
  connections.set(conn.ws, conn);
}

/** The adapter's record of a connection (undefined for a socket the adapter did not accept). */
export function connectionOf<C>(ws: WebSocket): WsConnection<C> | undefined {
  return connections.get(ws);
}

/** The context its gateway's admission gave a connection (the agent's id, …). */
export function contextOf<C>(ws: WebSocket): C {
  const conn = connections.get(ws);
  if (!conn) throw new Error('not a connection of a gateway served by GatewayWsAdapter');
  return conn.context as C;
}

/**
 * An invalid message found by a handler (an answer that does not fit its request): counted and answered as the
 * adapter does with a message its schema refuses.
 */
export function refuseMessage(ws: WebSocket, why: string): void {
  const conn = connections.get(ws);
  if (!conn?.policy) throw new Error('refuseMessage: the connection has no message policy');
  conn.refuse(why);
}

/**
 * Closes a connection with a code and a reason. `now`: its buffers are freed at once (a client that does not
 * read would otherwise hold them through the close handshake); else it has CLOSE_GRACE_MS to answer the close
 * before it is dropped.
 */
export function closeSocket(ws: WebSocket, how: CloseHow, when: 'now' | 'grace' = 'grace'): void {
  if (ws.readyState === WebSocket.OPEN) ws.close(how.code, how.reason);
  if (when === 'now') ws.terminate();
  else if (ws.readyState !== WebSocket.CLOSED) setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}
