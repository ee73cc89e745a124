import { ValidationError, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, STATUS_CODES, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { Clock } from './common/clock';
import { FieldError, invalid } from './common/errors/domain-error';
import { GlobalExceptionFilter } from './common/errors/global-exception.filter';
import { createLogger, NestPinoLogger, registerSecret, requestLineWriter } from './common/logging/logger';
import { loggedPath } from './common/logging/logged-path';
import { setupSwagger } from './openapi/swagger';
import { AppConfig } from './config/app-config';
import { RuntimeConfig } from './config/runtime-config';
import { OpenDatabase, openDatabase } from './database/database';
import { BodyLimit, registerBodyLimits } from './common/http/body-limits';
import { registerBodyParsers } from './common/http/body-parsers';
import { registerSecurityHeaders } from './common/http/security-headers';
import { pathStartsWith } from './common/errors/error-surfaces';
import { renderError, sendError } from './common/errors/global-exception.filter';
import { registerCors, rmmCors } from './common/http/cors';
import { GatewayWsAdapter } from './common/ws/gateway-ws-adapter';
import { CONSOLE_CSP, isConsolePath } from './console/console-http';
import { functionCors, isFunctionPath, registerFunctionMethodCheck } from './enroll/enroll-http';
import { platformCors, registerGoTrueVersionHeader } from './platform/platform-http';
import { ERROR_SURFACES } from './error-surfaces';

export { ERROR_SURFACES };

export interface ServerOptions {
  logger?: Logger;
  clock?: Clock;
  /** The embedded PostgreSQL died and could not be restarted: the process should close and exit non-zero. */
  onDatabaseLost?: (reason: string) => void;
}

export interface RunningServer {
  app: NestFastifyApplication;
  runtime: RuntimeConfig;
  db: OpenDatabase;
  logger: Logger;
  /** Starts listening; resolves to the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Closes the app, then the embedded PostgreSQL if this server started it. */
  close(): Promise<void>;
}

/** Builds the whole server: database (embedded or external), migrations, generated secrets, HTTP app. */
export async function createServer(config: AppConfig, options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel, undefined, config.logFormat);
  for (const s of [config.jwtSecret, config.dataAnonKey, config.dataServiceRoleKey, config.rmmApiKey, config.rmmAdminApiKey]) {
    registerSecret(s);
  }
  const pgLog = logger.child({ context: 'postgres' });
  const db = await openDatabase(config, {
    log: (line) => pgLog.debug(line),
    notice: (line) => pgLog.info(line),
    restartAttempts: config.embeddedPgRestartAttempts,
  });
  // Supervision of the embedded PostgreSQL: while it is down every request answers 503 in its surface's
  // format (see normalizeError); it is restarted with back-off; if it cannot come back the process exits.
  db.embedded?.events.on('exit', ({ code, signal }) => pgLog.error({ code, signal }, 'embedded PostgreSQL exited unexpectedly; restarting it'));
  db.embedded?.events.on('restarted', ({ attempt }) => pgLog.warn({ attempt }, 'embedded PostgreSQL is running again'));
  db.embedded?.events.on('gave-up', ({ attempts, reason }) => {
    pgLog.fatal({ attempts, reason }, `embedded PostgreSQL could not be restarted after ${attempts} attempts`);
    options.onDatabaseLost?.(reason);
  });
  if (db.migrated.length > 0) logger.info({ context: 'database', migrations: db.migrated }, 'migrations applied');

  let app: NestFastifyApplication;
  try {
    app = await buildApp(config, db.url, logger, options.clock);
  } catch (err) {
    await db.stop();
    throw err;
  }
  const runtime = app.get(RuntimeConfig);
  for (const s of [runtime.jwtSecret, runtime.dataAnonKey, runtime.dataServiceRoleKey, runtime.rmmApiKey]) registerSecret(s);

  let closed = false;
  return {
    app,
    runtime,
    db,
    logger,
    listen: async (port = config.port, host = config.host) => {
      await app.listen({ port, host, backlog: LISTEN_BACKLOG });
      const address = app.getHttpServer().address() as { port: number };
      runtime.internalUrl = `http://127.0.0.1:${address.port}`;
      runtime.listenPort = address.port;
      return runtime.internalUrl;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await app.close();
      } finally {
        await db.stop();
      }
    },
  };
}

/**
 * The listen backlog: thousands of agents reconnect at once after a restart, and Node's default (511) drops the
 * connection attempts beyond it (the client then waits for a SYN retransmission, seconds). The kernel caps it at
 * net.core.somaxconn (4096 on current Linux; raise that sysctl for more).
 */
const LISTEN_BACKLOG = 65_535;

/** The largest body each surface takes; anything else (no route takes a body there) at most 16 KiB. */
export const BODY_LIMITS: BodyLimit[] = [
  { name: 'function', matches: pathStartsWith('/functions/v1'), maxBytes: 16 * 1024 },
  { name: 'auth', matches: pathStartsWith('/auth/v1'), maxBytes: 64 * 1024 },
  { name: 'rest', matches: pathStartsWith('/rest/v1'), maxBytes: 256 * 1024 },
  // Scripts are up to 1 MiB of text, which JSON escaping can grow.
  { name: 'rmm', matches: pathStartsWith('/api/v3'), maxBytes: 2 * 1024 * 1024 },
];
const DEFAULT_BODY_LIMIT = 16 * 1024;
const CORS_POLICIES = [functionCors, platformCors];

/** TRUST_PROXY as a hop count: the nearest `hops` proxies are believed, whatever their address. */
const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

async function buildApp(config: AppConfig, databaseUrl: string, logger: Logger, clock?: Clock): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    // Fastify's own info lines ("Server listening at …" once per interface) are left out: the server
    // writes one line of its own when it listens, and one per request.
    loggerInstance: logger.child({}, { level: logger.isLevelEnabled('warn') ? 'warn' : logger.level }),
    // One line per request is written by our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 100 },
    requestIdHeader: 'x-request-id',
    // TRUST_PROXY: behind a proxy (docs/deploy.md), request.ip is the client's address from X-Forwarded-For.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    genReqId: () => randomUUID(),
    bodyLimit: Math.max(...BODY_LIMITS.map((l) => l.maxBytes)),
    // A client that trickles its request is cut off (408) within a second of its limit; idle keep-alive
    // sockets are closed. Node checks these limits every connectionsCheckingInterval (30 s by default).
    serverFactory: (handler: RequestListener) => {
      const server = createHttpServer(
        {
          requestTimeout: config.httpRequestTimeoutMs,
          headersTimeout: Math.min(config.httpRequestTimeoutMs, 10_000),
          connectionsCheckingInterval: 1_000,
        },
        handler,
      );
      server.keepAliveTimeout = config.httpKeepAliveTimeoutMs;
      return server;
    },
    // Errors Node's HTTP parser raises before Fastify sees a request (headers or URL over 16 KiB: 431; a
    // request not received within HTTP_REQUEST_TIMEOUT_MS: 408; unreadable HTTP: 400), in the surface's format.
    clientErrorHandler: (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => answerClientError(err, socket, logger),
    // Errors Fastify raises before routing (a malformed URL, an over-long path parameter) get each surface's body too.
    // (Those answers skip the onSend hooks, so the request id and the surface's CORS headers are set here.)
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('x-request-id', request.id);
      const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
      const policies = [...CORS_POLICIES, rmmCors(config.rmmCorsOrigins)];
      for (const [k, v] of Object.entries(policies.find((p) => p.matches(request.url))?.headers(request.url, origin) ?? {})) reply.header(k, v);
      sendError(ERROR_SURFACES, logger, error, request, reply);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, databaseUrl, clock), adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });

  // The WebSocket gateways (the agent channel, the events WebSocket) on the HTTP server's one upgrade router.
  // Set before init: a gateway without an adapter makes Nest look for socket.io and exit the process.
  app.useWebSocketAdapter(new GatewayWsAdapter(app.getHttpServer()));

  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  // Both hooks are callback-style (no promise per request) and do as little as they can: the request id
  // header, and one log line per request (the path without its query string and with a credential in it cut
  // short: loggedPath).
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  // (The line is the one logger.info({reqId, method, path, status, ms}, 'request') writes, built directly.)
  const logRequest = requestLineWriter(logger);
  fastify.addHook('onResponse', (request, reply, done) => {
    if (logRequest) {
      logRequest({ reqId: String(request.id), method: request.method, path: loggedPath(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) });
    }
    done();
  });

  registerBodyLimits(fastify, BODY_LIMITS, DEFAULT_BODY_LIMIT);
  registerBodyParsers(app, isFunctionPath, BODY_LIMITS);
  registerSecurityHeaders(fastify, {
    exempt: isFunctionPath,
    noStore: pathStartsWith('/auth/v1', '/api/v3/keys', '/deploy'),
    csp: (url) => (isConsolePath(url) ? CONSOLE_CSP : undefined),
  });
  registerCors(app, [...CORS_POLICIES, rmmCors(config.rmmCorsOrigins)]);
  registerFunctionMethodCheck(app);
  registerGoTrueVersionHeader(app);
  app.useGlobalFilters(new GlobalExceptionFilter(ERROR_SURFACES, logger));
  app.useGlobalPipes(
    new ValidationPipe({
      transform: true,
      whitelist: true,
      exceptionFactory: (errors) => invalid('validation error', flattenValidationErrors(errors)),
    }),
  );
  setupSwagger(app, ERROR_SURFACES);
  try {
    await app.init();
  } catch (err) {
    // A start that fails half-way (a bootstrap hook threw) leaves nothing running: what did start (the key
    // revocation listener, timers, pools) is closed before the error goes up.
    await app.close().catch(() => undefined);
    throw err;
  }
  return app;
}

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request Header Fields Too Large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Request Timeout' },
};

/** Writes the surface's answer to a request Node could not parse, on the raw socket, and closes it. */
function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket, logger: Logger): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const { status, message } = CLIENT_ERRORS[err.code ?? ''] ?? { status: 400, message: 'Bad Request' };
  // The request line, when the packet still holds it, says which surface answers.
  const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
  const requestLine = packet?.toString('latin1', 0, Math.min(packet.length, 4096)).split('\r\n')[0] ?? '';
  const url = /^[A-Z]+ (\/\S*) HTTP\/1\.[01]$/.exec(requestLine)?.[1] ?? '/';
  const rendered = renderError(ERROR_SURFACES, logger, Object.assign(new Error(message), { statusCode: status, code: err.code }), url, {});
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    connection: 'close',
    ...(CORS_POLICIES.find((p) => p.matches(url))?.headers(url) ?? {}),
    ...(rendered.headers ?? {}),
  };
  const body = JSON.stringify(rendered.body);
  headers['content-length'] = String(Buffer.byteLength(body));
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n');
  socket.end(`HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? 'Error'}\r\n${head}\r\n\r\n${body}`);
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const messages = Object.values(e.constraints ?? {});
    // A null that a field refuses fails its type checks too: say the one thing that is wrong.
    const own = (e.value === null && messages.length > 0 ? [`${field} must not be null`] : messages).map((message) => ({ field, message }));
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}
