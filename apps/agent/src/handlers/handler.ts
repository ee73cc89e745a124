// What a capability of the agent is: the server message type it handles, and what it does with one. The channel
// (channel.ts) holds the connection; HandlerRegistry checks each message against its schema and hands it on.
import type { AgentMessage, AgentTarget, HelloMessage, ServerMessageOf, ServerMessageType, UpdateAvailableMessage } from '@app/protocol/agent';

export type Log = (line: string) => void;

/** Sends on the current connection; false when there is none open (the message is not sent). */
export type SendCurrent = (message: AgentMessage) => boolean;

/** The connection a message came on, as its handler sees it. */
export interface Connection {
  /** Sends on this connection (an answer goes where its request came from); false once it is closed (not sent). */
  send(message: AgentMessage | string): boolean;
  /** Sends a binary frame (a session's bytes) on this connection; false once it is closed (not sent). */
  sendBinary(bytes: Uint8Array): boolean;
  /** The server greeted this connection (hello): it is up, and its heartbeats start. */
  greet(hello: HelloMessage): void;
}

/** One capability: the message type it handles, and what it does with one (valid against its type's schema). */
export interface Handler<K extends ServerMessageType = ServerMessageType> {
  readonly type: K;
  handle(message: ServerMessageOf<K>, connection: Connection): void | Promise<void>;
  /** The server's binary frames (one handler takes them: sessions): undefined when taken, else why it is refused. */
  binary?(bytes: Uint8Array, connection: Connection): string | undefined;
  /** The connection dropped: what lives only while connected stops. */
  disconnected?(): void;
  /** The agent is stopping. */
  stop?(): void;
}

/** What `run` adds to the channel: self-update and uninstall (main.ts, update.ts). */
export interface ChannelHooks {
  /** Sent as the heartbeat fact update_target (docs/agent-protocol.md). */
  updateTarget?: AgentTarget;
  /** After each hello, once the first heartbeat is sent. */
  onHello?: (send: SendCurrent) => void;
  onUpdateAvailable?: (msg: UpdateAvailableMessage, send: SendCurrent) => void;
  onUninstall?: () => void;
}

/** What the handlers are made with. */
export interface HandlerDeps {
  log: Log;
  sendCurrent: SendCurrent;
  hooks: ChannelHooks;
}

/** A handler, typed by the message type it declares. */
export const handler = <K extends ServerMessageType>(h: Handler<K>): Handler<K> => h;
