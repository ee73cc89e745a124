import { ValidationError, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { Clock } from './common/clock';
import { FieldError, invalid } from './common/errors/domain-error';
import { GlobalExceptionFilter } from './common/errors/global-exception.filter';
import { createLogger, NestPinoLogger, registerSecret } from './common/logging/logger';
import { setupSwagger } from './common/http/swagger';
import { AppConfig } from './config/app-config';
import { RuntimeConfig } from './config/runtime-config';
import { OpenDatabase, openDatabase } from './database/database';
import { registerBodyParsers } from './common/http/body-parsers';
import { registerCors } from './common/http/cors';
import { functionCors, isFunctionPath, registerFunctionMethodCheck } from './enroll/enroll-http';
import { platformCors, registerGoTrueVersionHeader } from './platform/platform-http';
import { ERROR_SURFACES } from './error-surfaces';

export { ERROR_SURFACES };

export interface ServerOptions {
  logger?: Logger;
  clock?: Clock;
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
  const logger = options.logger ?? createLogger(config.logLevel);
  for (const s of [config.jwtSecret, config.dataAnonKey, config.dataServiceRoleKey, config.rmmApiKey, config.rmmAdminApiKey]) {
    registerSecret(s);
  }
  const pgLog = logger.child({ context: 'postgres' });
  const db = await openDatabase(config, { log: (line) => pgLog.debug(line) });
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
      await app.listen(port, host);
      const address = app.getHttpServer().address() as { port: number };
      runtime.internalUrl = `http://127.0.0.1:${address.port}`;
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

async function buildApp(config: AppConfig, databaseUrl: string, logger: Logger, clock?: Clock): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // One line per request is written by our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, databaseUrl, clock), adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });

  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    logger.info(
      {
        reqId: request.id,
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  registerBodyParsers(app, isFunctionPath);
  registerCors(app, [functionCors, platformCors]);
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
  setupSwagger(app);
  await app.init();
  return app;
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}
