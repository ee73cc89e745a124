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
 * the `@SubscribeMessage(type)` handler of its `type`, called with the validated message. A handler that throws
 * closes that one connection (1011, logged: CloseOnHandlerError, and here for what gets past a filter); nothing
 * a client sends reaches the process. What a handler returns (other than undefined) is sent back as JSON.
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
      // A client that goes away abruptly must not raise an unhandled 'error'.
      ws.on('error', () => ws.terminate());
      callback(ws, req, context);
    });
  }

  override bindClientDisconnect(client: WebSocket, callback: () => void): void {
    client.once('close', callback);
  }

  bindMessageHandlers(client: WebSocket, handlers: WsMessageHandler[], _transform: (data: unknown) => Observable<unknown>): void {
    const conn = connectionOf(client);
    const policy = conn?.policy;
    if (!conn || !policy) {
      // Its clients have nothing to say: what they send is ignored (never answered, never an error).
      client.on('message', () => undefined);
      return;
    }
    const byType = new Map<string, WsMessageHandler['callback']>();
    for (const h of handlers) byType.set(h.message, h.callback);
    const { perSecond } = policy.rate;
    const failed = (err: unknown): void => conn.failed(err);
    const answer = (result: unknown): void => {
      if (result !== undefined && client.readyState === WebSocket.OPEN) client.send(JSON.stringify(result));
    };
    client.on('message', (data: RawData, isBinary: boolean) => {
      // The guard: whatever one message does wrong (a bug here, or in a feature's handler) closes this connection
      // and is logged; it never reaches the process.
      if (client.readyState !== WebSocket.OPEN) return; // closing: what it still sends is not read
      try {
        if (!conn.withinRate()) {
          conn.logger.warn(`${conn.label}: connection closed, over ${perSecond} messages per second`);
          return closeSocket(client, policy.closes.flooding, 'now');
        }
        const parsed = policy.parse(isBinary ? null : data.toString());
        if (!parsed.ok) return conn.refuse(parsed.error);
        const handler = byType.get(parsed.type);
        if (!handler) throw new Error(`no @SubscribeMessage('${parsed.type}') handler for a message its schema accepts`);
        // (Nest's handler: its exception filter has handled what the handler threw; a rejection here got past it.)
        (handler(parsed.message, parsed.type) as Promise<unknown>).then(answer, failed);
      } catch (err) {
        failed(err);
      }
    });
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
