import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** What a route does with an upgrade request whose path it matched (it must answer: accept or refuse). */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, params: Record<string, string>) => void;

export interface UpgradeRoute {
  /** For log lines and tests. */
  name: string;
  /** The route's parameters when it serves this path (query string removed), else null. */
  match(path: string): Record<string, string> | null;
  /**
   * A path without parameters (`/rmm/fleet/`): tried before every route with parameters, whatever the order they
   * were registered in, so that `/rmm/{agent_id}/` does not take it.
   */
  literal?: boolean;
  handle: UpgradeHandler;
}

/**
 * The one 'upgrade' listener of an HTTP server: every WebSocket endpoint (the agent channel /agent/v1/ws, the
 * events WebSockets /rmm/{agent_id}/ and /rmm/fleet/) registers a route here, and an upgrade request no route serves is answered
 * 404 at once rather than left hanging. One router per HTTP server (several apps in one process, as in the tests,
 * each have theirs).
 */
export class UpgradeRouter {
  private readonly routes: UpgradeRoute[] = [];

  constructor(private readonly server: Server) {}

  /** Adds a route; returns the function that removes it. The listener is on the server while any route is. */
  register(route: UpgradeRoute): () => void {
    if (this.routes.length === 0) this.server.on('upgrade', this.onUpgrade);
    const firstWithParameters = this.routes.findIndex((r) => !r.literal);
    if (route.literal && firstWithParameters >= 0) this.routes.splice(firstWithParameters, 0, route);
    else this.routes.push(route);
    return () => {
      const at = this.routes.indexOf(route);
      if (at < 0) return;
      this.routes.splice(at, 1);
      if (this.routes.length === 0) this.server.off('upgrade', this.onUpgrade);
    };
  }

  /** The names of the routes registered now. */
  names(): string[] {
    return this.routes.map((r) => r.name);
  }

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // A client that goes away mid-answer must not raise an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    const path = upgradePath(req.url);
    for (const route of this.routes) {
      const params = route.match(path);
      if (params) return route.handle(req, socket, head, params);
    }
    refuseUpgrade(socket, 404, 'Not found');
  };
}

const routers = new WeakMap<Server, UpgradeRouter>();

/** The router of this HTTP server (created at the first call). */
export function upgradeRouterOf(server: Server): UpgradeRouter {
  let router = routers.get(server);
  if (!router) routers.set(server, (router = new UpgradeRouter(server)));
  return router;
}

/** The request's path without its query string (the query may hold a credential: never log the raw URL). */
export function upgradePath(url: string | undefined): string {
  const raw = url ?? '';
  const q = raw.indexOf('?');
  return q < 0 ? raw : raw.slice(0, q);
}

/**
 * Ends an upgrade request with a plain HTTP answer, before any WebSocket exists, in the /api/v3 error format
 * `{detail}` (both WebSocket surfaces are the management backend's).
 */
export function refuseUpgrade(socket: Duplex, status: number, detail: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ detail });
  const head = Object.entries({
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    ...headers,
    Connection: 'close',
  })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n\r\n${body}`);
}
