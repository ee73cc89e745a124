import type { Logger } from '@nestjs/common';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServerOptions, WebSocket, WebSocketServer } from 'ws';
import { refuseUpgrade, upgradeRouterOf } from '../http/upgrade-router';
import { PathMatcher, pathMatcher } from './path-pattern';
import { CloseHow, ConnectionOwner, MessageHandler, WsConnection, WsMessagePolicy } from './ws-connection';

/** A plain HTTP answer to an upgrade request, given before any WebSocket exists. */
export interface UpgradeRefusal {
  status: number;
  detail: string;
  headers?: Record<string, string>;
}

/** What a gateway's admission decides: refuse (401, 403, 404, …) or accept with a context for the connection. */
export type UpgradeDecision<C> = { refuse: UpgradeRefusal } | { accept: C };

/**
 * How a gateway serves its path (GatewayServer.serve, from the gateway's `afterInit`): who may connect, and how
 * its clients may talk.
 */
export interface GatewayService<C> {
  /** For log lines ("agent upgrade failed: …"). */
  name: string;
  /** The gateway's logger: the lines about its upgrades and connections are its own. */
  logger: Logger;
  /** The label of a connection in log lines ("agent 12"). */
  label(context: C): string;
  /** How its clients may send messages; without it, what they send is read and ignored. */
  messages?: WsMessagePolicy<C>;
  /** The gateway itself: its `@SubscribeMessage(type)` methods handle its clients' messages (with `messages`). */
  gateway?: object;
  /**
   * Checked first, before `admit` costs anything: a close to refuse every new connection with for now (the
   * WebSocket is opened and closed at once with it: a client that understands it retries later), or undefined.
   */
  busy?(): CloseHow | undefined;
  /** Authenticates an upgrade request (its path's parameters given): runs before any WebSocket exists. */
  admit(req: IncomingMessage, params: Record<string, string>): Promise<UpgradeDecision<C>>;
  /**
   * The last check, in the same turn as the upgrade (the connection is handed to the gateway synchronously after
   * it): what upgrades in flight together must not all pass (a count of open connections).
   */
  confirm?(context: C): UpgradeRefusal | undefined;
  /** The answer when `admit` fails (the database is down). */
  unavailable: UpgradeRefusal;
  /** The close a client hears when it was admitted while the server began to shut down. */
  shuttingDown: CloseHow;
}

/** The options of `@WebSocketGateway({...})` this adapter takes: the path (a pattern) and ws's own options. */
export type GatewayOptions = Omit<ServerOptions, 'noServer' | 'port' | 'server' | 'path'> & { path: string; closeTimeout?: number };

const SHUTTING_DOWN: UpgradeRefusal = { status: 503, detail: 'the server is shutting down, retry shortly' };

/**
 * One gateway's WebSocket endpoint on the HTTP server (what GatewayWsAdapter.create returns, and what the gateway
 * gets in `afterInit` and `@WebSocketServer()`): its path on the server's one upgrade router
 * (common/http/upgrade-router.ts), the gateway's admission before the upgrade completes, and the `ws` server that
 * completes it. Accepted connections are emitted as `connection` (ws, request, context) to Nest.
 */
export class GatewayServer<C = unknown> implements ConnectionOwner<C> {
  readonly wss: WebSocketServer;
  readonly path: string;
  private readonly match: PathMatcher;
  private service?: GatewayService<C>;
  /**
   * Set at shutdown (stopAccepting). By then the server no longer accepts connections
   * (common/http/stop-accepting.ts); an upgrade still arriving on a connection opened before is told to retry
   * (503), never 404.
   */
  private closing = false;
  /** Upgrades being authenticated: awaited at shutdown, so that each ends in the gateway's close rather than a 503. */
  private readonly upgrading = new Set<Promise<void>>();
  /** The gateway's `@SubscribeMessage` methods by message type, bound to it (made at serve). */
  private handlers = new Map<string, MessageHandler>();

  constructor(httpServer: Server, options: GatewayOptions) {
    const { path, ...wsOptions } = options;
    this.path = path;
    this.match = pathMatcher(path);
    this.wss = new WebSocketServer({ ...wsOptions, noServer: true } as ServerOptions);
    // (kept until the HTTP server closes: at shutdown a client is answered 503 "retry", never 404)
    upgradeRouterOf(httpServer).register({ name: path, match: this.match, handle: this.onUpgrade, literal: !path.includes('{') });
  }

  /** Called by the gateway (afterInit): until then every upgrade to this path is refused (503), never accepted unchecked. */
  serve(service: GatewayService<C>): void {
    this.service = service;
    this.handlers = service.gateway ? messageHandlersOf(service.gateway) : new Map();
  }

  handlerOf(type: string): MessageHandler | undefined {
    return this.handlers.get(type);
  }

  /** The message types its gateway handles (the adapter checks them against Nest's list). */
  handledTypes(): string[] {
    return [...this.handlers.keys()];
  }

  /** Listens to the ws server (Nest's BaseWsInstance). */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  on(event: string, listener: Function): void {
    this.wss.on(event, listener as (...args: unknown[]) => void);
  }

  /** The message policy of this gateway's connections (the adapter reads it per message). */
  get messages(): WsMessagePolicy<C> | undefined {
    return this.service?.messages;
  }

  get logger(): Logger {
    return this.service!.logger;
  }

  label(context: C): string {
    return this.service!.label(context);
  }

  /**
   * The first step of the gateway's shutdown: new upgrades are answered 503, and those being authenticated
   * complete (each then hears `shuttingDown`) before this resolves.
   */
  async stopAccepting(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.upgrading]);
  }

  /** The adapter's close (after the gateways' shutdown hooks): no more upgrades, the ws server closed. */
  async close(): Promise<void> {
    this.closing = true;
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, params: Record<string, string>): void => {
    const service = this.service;
    if (this.closing) return refuseUpgrade(socket, SHUTTING_DOWN.status, SHUTTING_DOWN.detail);
    if (!service) return refuseUpgrade(socket, 503, 'not ready, retry shortly');
    const busy = service.busy?.();
    if (busy) {
      this.wss.handleUpgrade(req, socket, head, (ws) => ws.close(busy.code, busy.reason));
      return;
    }
    const upgrade = service
      .admit(req, params)
      .then(
        (decision) => {
          if ('refuse' in decision) return refuseUpgrade(socket, decision.refuse.status, decision.refuse.detail, decision.refuse.headers);
          if (socket.destroyed) return;
          const context = decision.accept;
          const refused = service.confirm?.(context);
          if (refused) return refuseUpgrade(socket, refused.status, refused.detail, refused.headers);
          // Admitted while the server began to shut down: the client hears the gateway's close like the others.
          this.wss.handleUpgrade(req, socket, head, (ws) => {
            if (this.closing) return ws.close(service.shuttingDown.code, service.shuttingDown.reason);
            try {
              this.wss.emit('connection', ws, req, context);
            } catch (err) {
              // A bug in the gateway's handleConnection (or its wiring) closes this connection, never the process.
              service.logger.error(`${service.label(context)}: the connection could not be set up (closed 1011): ${(err as Error)?.stack ?? String(err)}`);
              ws.close(1011, 'server error');
            }
          });
        },
        (err: Error) => {
          service.logger.warn(`${service.name} upgrade failed: ${err.message}`);
          refuseUpgrade(socket, service.unavailable.status, service.unavailable.detail, service.unavailable.headers);
        },
      )
      .finally(() => this.upgrading.delete(upgrade));
    this.upgrading.add(upgrade);
  };

  /** The adapter's record of an accepted connection. */
  connection(ws: WebSocket, context: C): WsConnection<C> {
    return new WsConnection(ws, context, this);
  }
}

/**
 * A gateway's `@SubscribeMessage(type)` methods, read from the decorators' metadata (as Nest's
 * GatewayMetadataExplorer reads it: `websockets:message_mapping` marks a handler, `message` holds its type),
 * each bound to the gateway once.
 */
function messageHandlersOf(gateway: object): Map<string, MessageHandler> {
  const handlers = new Map<string, MessageHandler>();
  for (let proto = Object.getPrototypeOf(gateway) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (name === 'constructor' || typeof method !== 'function') continue;
      if (Reflect.getMetadata('websockets:message_mapping', method) === undefined) continue;
      const type = Reflect.getMetadata('message', method) as unknown;
      if (typeof type === 'string' && !handlers.has(type)) handlers.set(type, (method as MessageHandler).bind(gateway));
    }
  }
  return handlers;
}
