import type { WsMessageHandler } from '@nestjs/common';
import { AbstractWsAdapter } from '@nestjs/websockets';
import type { IncomingMessage, Server } from 'node:http';
import type { Observable } from 'rxjs';
import { RawData, WebSocket } from 'ws';
import { GatewayOptions, GatewayServer } from './gateway-server';
import { closeSocket, connectionOf, trackConnection } from './ws-connection';

/**
 * The one WebSocket adapter of the app (`app.useWebSocketAdapter(new GatewayWsAdapter(httpServer))` before
 * `init`): every `@WebSocketGateway({path, …ws options})` is served on the HTTP server's one upgrade router
 * (common/http/upgrade-router.ts: 404 for a path no gateway serves), at a path that may hold parameters
 * (`/rmm/{agent_id}/`), and authenticated by its gateway before any WebSocket exists (GatewayServer).
 *
 * Messages: a gateway with a message policy (GatewayServer.serve) gets each of its clients' frames checked here,
 * in this order, before a handler sees it: the connection's rate (token bucket: over it, closed at once), the
 * gateway's schemas (`parse`: an invalid message is answered and counted; too many close the connection), then
 * the gateway's `@SubscribeMessage(type)` method of its `type`, called (client, message, type) as Nest calls it,
 * bound once per gateway rather than once per client as Nest's own dispatch does (GatewayServer.handlerOf; the
 * bench measured Nest's per-client handlers at 20,000 connections, docs/decisions.md). A handler that throws or
 * rejects closes that one connection (1011, logged); nothing a client sends reaches the process. What a handler
 * returns (other than undefined) is sent back as JSON.
 * A gateway without a policy reads and ignores what its clients send.
 */
export class GatewayWsAdapter extends AbstractWsAdapter<GatewayServer, any, GatewayOptions> {
  constructor(private readonly server: Server) {
    super(server);
  }

  create(port: number, options?: GatewayOptions & { namespace?: string }): GatewayServer {
    if (port !== 0) throw new Error('GatewayWsAdapter: gateways are served on the HTTP server (no port of their own)');
    if (!options?.path) throw new Error('GatewayWsAdapter: a gateway needs a path');
    if (options.namespace) throw new Error('GatewayWsAdapter: namespaces are not supported');
    const { namespace: _namespace, ...rest } = options;
    return new GatewayServer(this.server, rest);
  }

  /** Nest's connection handler: called with (ws, request, context) for each accepted connection. */
  override bindClientConnect(server: GatewayServer, callback: (ws: WebSocket, req: IncomingMessage, context: unknown) => void): void {
    server.wss.on('connection', (ws: WebSocket, req: IncomingMessage, context: unknown) => {
      trackConnection(server.connection(ws, context));
      ws.on('error', terminate);
      callback(ws, req, context);
    });
  }

  override bindClientDisconnect(client: WebSocket, callback: () => void): void {
    client.on('close', callback); // (emitted once)
  }

  bindMessageHandlers(client: WebSocket, handlers: WsMessageHandler[], _transform: (data: unknown) => Observable<unknown>): void {
    const conn = connectionOf(client);
    if (!conn?.policy) {
      client.on('message', ignore);
      return;
    }
    // Nest's list of handlers, bound to this client, is not kept: the gateway's server calls the same
    // @SubscribeMessage methods, bound once per gateway (GatewayServer.handlerOf), so a connection costs no
    // handler of its own. The two lists are the same, or the gateway is wired wrong.
    const owner = conn.owner as GatewayServer;
    if (handlers.length !== owner.handledTypes().length || handlers.some((h) => !owner.handlerOf(h.message))) {
      throw new Error(`GatewayWsAdapter: the handlers of ${owner.path} are not the gateway's @SubscribeMessage methods (is serve({gateway}) given?)`);
    }
    client.on('message', onMessage);
  }
  override async close(server: GatewayServer): Promise<void> {
    await server.close();
  }

  /**
   * The routes stay on the upgrade router until the HTTP server closes (Nest disposes the adapter before it):
   * an upgrade arriving meanwhile on a connection opened before is answered 503 "retry", never 404 or left hanging.
   */
  override async dispose(): Promise<void> {
    /* nothing to release: the routes go with the HTTP server */
  }
}

/** A client that goes away abruptly must not raise an unhandled 'error'. (Listeners shared by every connection.) */
function terminate(this: WebSocket): void {
  this.terminate();
}

/** A gateway without a message policy: its clients have nothing to say, what they send is ignored (never answered). */
function ignore(): void {}

/**
 * Every frame of a connection of a gateway with a message policy. The guard: whatever one message does wrong (a
 * bug here, or in a feature's handler) closes this connection and is logged; it never reaches the process.
 */
function onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
  if (this.readyState !== WebSocket.OPEN) return; // closing: what it still sends is not read
  const conn = connectionOf(this);
  if (!conn) return;
  try {
    const policy = conn.policy!;
    if (isBinary && policy.binary) {
      const refused = policy.binary(this, Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data));
      if (refused !== undefined) conn.refuse(refused);
      return;
    }
    const text = isBinary ? null : data.toString();
    if (!(text !== null && policy.unmetered?.(this, text)) && !conn.withinRate()) {
      conn.logger.warn(`${conn.label}: connection closed, over ${policy.rate.perSecond} messages per second`);
      return closeSocket(this, policy.closes.flooding, 'now');
    }
    const parsed = policy.parse(text);
    if (!parsed.ok) return conn.refuse(parsed.error);
    const handler = conn.owner.handlerOf(parsed.type);
    if (!handler) throw new Error(`no @SubscribeMessage('${parsed.type}') handler for a message its schema accepts`);
    const result = handler(this, parsed.message, parsed.type);
    if (result instanceof Promise) {
      result.then(
        (value) => conn.answer(value),
        (err: unknown) => conn.failed(err),
      );
    } else conn.answer(result);
  } catch (err) {
    conn.failed(err);
  }
}
