import { Injectable, Logger, Module, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/**
 * The first step of a shutdown: the server stops accepting connections, before anything else closes.
 *
 * Every `onModuleDestroy` runs before any `beforeApplicationShutdown`, so the listening socket is closed before
 * the agent channel tells its agents 1001 "server shutting down". An agent (or any client) that retries while
 * this instance drains is then refused at the TCP level: behind nginx it goes to another replica at once, and a
 * lone server's agents simply retry until the new process listens, instead of being answered 503 by a server on
 * its way out (docs/decisions.md, "Shutdown: stop accepting first"). Requests already received are answered;
 * idle keep-alive connections are closed (Node's `server.close()`); open WebSockets are closed by their owners.
 */
@Injectable()
export class StopAcceptingOnShutdown implements OnModuleDestroy {
  private readonly logger = new Logger('shutdown');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleDestroy(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    // No callback: Fastify's own close (later in the shutdown) waits for the connections to end.
    server.close();
    this.logger.log('stopped accepting connections');
  }
}

@Module({ providers: [StopAcceptingOnShutdown] })
export class StopAcceptingModule {}
