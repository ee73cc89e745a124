import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { CommonErrorCode, DomainError, FieldError } from './domain-error';
import { loggedPath } from '../logging/logged-path';
import { defaultErrorSurface, ErrorSurface, NormalizedError, RenderedError } from './error-surfaces';

/**
 * The one place where errors become HTTP answers. Stack traces and SQL never reach a client:
 * anything unexpected is logged with the request id and answered as the surface's 500.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly surfaces: ErrorSurface[],
    private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendError(this.surfaces, this.logger, exception, request, reply);
  }
}

/** Shared by the Nest filter and Fastify's own error and not-found handlers. */
export function sendError(
  surfaces: readonly ErrorSurface[],
  logger: Logger,
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const rendered = renderError(surfaces, logger, exception, request.url, request.headers, request.id);
  if (reply.sent) return;
  for (const [k, v] of Object.entries(rendered.headers ?? {})) reply.header(k, v);
  if (rendered.body === undefined) {
    void reply.code(rendered.status).send();
  } else {
    void reply.code(rendered.status).type('application/json; charset=utf-8').send(JSON.stringify(rendered.body));
  }
}

/**
 * What the client sees for `exception` on `url`: the matching surface's status (from its code table for a
 * DomainError) and body. Faults are logged here, with the request id, never shown.
 */
export function renderError(
  surfaces: readonly ErrorSurface[],
  logger: Logger,
  exception: unknown,
  url: string,
  headers: Record<string, string | string[] | undefined>,
  reqId?: string,
): RenderedError {
  const path = url.split('?')[0];
  const surface = surfaces.find((s) => s.matches(path)) ?? defaultErrorSurface;
  const normalized = { ...normalizeError(exception), origin: exception };
  if (normalized.source === 'domain') {
    const status = surface.statusOf(normalized.code!);
    if (status === undefined) {
      // A code this surface has no row for: a programming error, answered as the surface's 500.
      logger.error({ reqId, path: loggedPath(path), surface: surface.name, code: normalized.code }, 'error code without a status on this surface');
      Object.assign(normalized, { status: 500, source: 'fault' });
    } else {
      normalized.status = status;
    }
  }
  if (normalized.source === 'fault' || (normalized.status >= 500 && normalized.source !== 'domain')) {
    logger.error({ reqId, path: loggedPath(path), err: describe(exception) }, 'request failed');
  } else if (normalized.status >= 500) {
    // An expected refusal (an upstream said no, the pool is full): one line, no stack.
    logger.warn({ reqId, path: loggedPath(path), code: normalized.code, status: normalized.status, message: normalized.message }, 'request refused');
  }
  let rendered: RenderedError;
  try {
    rendered = surface.render(normalized, path, headers);
  } catch (err) {
    logger.error({ reqId, err: describe(err) }, 'error surface failed');
    rendered = defaultErrorSurface.render({ ...normalized, status: 500 }, path, headers);
  }
  return { ...rendered, headers: { ...normalized.headers, ...(rendered.headers ?? {}) } };
}

export function normalizeError(exception: unknown): NormalizedError {
  if (exception instanceof DomainError) {
    return { status: 0, message: exception.message, code: exception.code, fields: exception.fields, headers: { ...exception.headers }, source: 'domain' };
  }
  if (exception instanceof ThrottlerException) {
    return { status: 429, message: 'rate limited', code: CommonErrorCode.RateLimited, fields: [], headers: {}, source: 'http' };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const raw = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
    const message = Array.isArray(raw) ? raw.join('; ') : String(raw ?? exception.message);
    return { status, message, fields: [], headers: {}, source: 'http' };
  }
  if (isDatabaseDown(exception)) {
    // PostgreSQL is not answering (stopped, restarting): nothing this request did; retry shortly.
    return { status: 503, message: 'the database is not available, retry shortly', code: CommonErrorCode.Unavailable, fields: [], headers: { 'retry-after': '2' }, source: 'domain' };
  }
  const dataError = dataExceptionOf(exception);
  if (dataError) {
    // A value PostgreSQL cannot store (a NUL character, text too long, a number out of range): the input's fault.
    return { status: 0, message: dataError, code: CommonErrorCode.Validation, fields: [], headers: {}, source: 'domain' };
  }
  if (isPoolExhausted(exception)) {
    // Every connection busy for DB_POOL_ACQUIRE_TIMEOUT_MS: an overload, not a fault of this request.
    return { status: 503, message: 'the database is busy, retry shortly', code: CommonErrorCode.Unavailable, fields: [], headers: { 'retry-after': '1' }, source: 'domain' };
  }
  // Errors raised by Fastify itself before a handler runs (bad JSON, wrong content type, too large).
  const e = exception as { statusCode?: unknown; message?: unknown; code?: unknown };
  if (e?.code === 'FST_ERR_BAD_URL') {
    // A path that cannot be decoded names nothing.
    return { status: 404, message: 'Not found', fields: [], headers: {}, source: 'http' };
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    const frameworkCode = typeof e.code === 'string' ? e.code : undefined;
    return { status: e.statusCode, message: fastifyMessage(e), fields: [], headers: {}, source: 'framework', frameworkCode };
  }
  return { status: 500, message: 'server error', fields: [], headers: {}, source: 'fault' };
}

/** PostgreSQL's data exceptions (SQLSTATE class 22) name a value the client sent that cannot be stored. */
function dataExceptionOf(err: unknown): string | null {
  const e = (err as { driverError?: { code?: unknown; message?: unknown } })?.driverError ?? (err as { code?: unknown; message?: unknown });
  if (typeof e?.code !== 'string' || !/^22[0-9A-Z]{3}$/.test(e.code)) return null;
  return `a value cannot be stored: ${typeof e.message === 'string' ? e.message.slice(0, 200) : e.code}`;
}

/** The database refused or dropped the connection, or is shutting down or starting up. */
function isDatabaseDown(err: unknown): boolean {
  const e = (err as { driverError?: { code?: unknown; message?: unknown } })?.driverError ?? (err as { code?: unknown; message?: unknown });
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ECONNRESET' || e?.code === '57P01' || e?.code === '57P02' || e?.code === '57P03') return true;
  return typeof e?.message === 'string' && /Connection terminated unexpectedly|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)/.test(e.message);
}

/** node-postgres' pool gave up waiting for a free connection (connectionTimeoutMillis). */
function isPoolExhausted(err: unknown): boolean {
  const message = (err as { message?: unknown })?.message;
  return typeof message === 'string' && /timeout exceeded when trying to connect|Connection terminated due to connection timeout/.test(message);
}

function fastifyMessage(e: { message?: unknown; code?: unknown }): string {
  switch (e.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'URI Too Long';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Media Type';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Body cannot be empty when content-type is set to application/json';
    default:
      return typeof e.message === 'string' ? e.message : 'Bad request';
  }
}

function describe(err: unknown): { type: string; message: string; stack?: string } {
  if (err instanceof Error) return { type: err.name, message: err.message, stack: err.stack };
  return { type: typeof err, message: String(err) };
}

export type { FieldError };
