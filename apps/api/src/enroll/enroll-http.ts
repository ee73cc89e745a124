import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorSurface, pathStartsWith } from '../common/errors/error-surfaces';
import { EnrollError, EnrollErrorCode } from './enroll.errors';

export const FUNCTIONS_PREFIX = '/functions/v1';
export const ENROLL_PATH = `${FUNCTIONS_PREFIX}/enroll-rmm`;
export const ENROLL_STATUS_PATH = `${ENROLL_PATH}/status`;

const isFunctionPath = pathStartsWith(FUNCTIONS_PREFIX);
const pathOf = (url: string): string => url.split('?')[0].replace(/\/+$/, '') || '/';

/** The three CORS headers of the spec, on every answer of the function (errors and 405 included). */
export const FUNCTION_CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
};

/** The status endpoint is ours, not the spec's: it is read with GET. */
const STATUS_CORS_HEADERS = { ...FUNCTION_CORS_HEADERS, 'access-control-allow-methods': 'GET, OPTIONS' };

/** `{error: message}` for everything under /functions/v1 (the spec's error body). */
export const functionErrorSurface: ErrorSurface = {
  name: 'function',
  matches: isFunctionPath,
  render: (e) => {
    if (e.source === 'fault') return { status: 500, body: { error: 'Internal server error' } };
    if (e.source === 'http' && e.status === 404) return { status: 404, body: { error: 'Function not found' } };
    return { status: e.status, body: { error: e.message } };
  },
};

/** The raw text of a function request's body, untouched by the framework. */
export class RawBody {
  constructor(readonly text: string) {}
}

export function rawBodyOf(request: FastifyRequest): string | undefined {
  if (request.body instanceof RawBody) return request.body.text;
  // text/plain has Fastify's own parser, which keeps the text as it is.
  return typeof request.body === 'string' ? request.body : undefined;
}

/**
 * The function decides the order of its own checks (a user with no profile gets 404 even when the
 * body is not JSON), so the framework must not parse or reject its body first: under /functions/v1
 * every body, whatever its content type, reaches the handler as text. Elsewhere JSON is parsed as usual.
 */
export function registerFunctionHttp(app: NestFastifyApplication): void {
  const adapter = app.getHttpAdapter() as FastifyAdapter;
  const fastify = adapter.getInstance() as FastifyInstance;
  const json = fastify.getDefaultJsonParser('error', 'error');
  const bodyLimit = fastify.initialConfig.bodyLimit;
  adapter.useBodyParser('application/json', false, { bodyLimit }, (req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
    if (isFunctionPath(req.url)) done(null, new RawBody(body.toString('utf8')));
    // An empty body is no body (supabase-js's POST /auth/v1/logout sends one); each route decides if it needs one.
    else if (body.length === 0) done(null, undefined);
    else json(req, body.toString('utf8'), done);
  });
  adapter.useBodyParser('*', false, { bodyLimit }, (req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
    if (isFunctionPath(req.url)) {
      done(null, new RawBody(body.toString('utf8')));
      return;
    }
    const err = Object.assign(new Error(`Unsupported Media Type: ${req.headers['content-type'] ?? ''}`), {
      statusCode: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    });
    done(err);
  });

  fastify.addHook('onRequest', async (request, reply) => {
    if (!isFunctionPath(request.url)) return;
    const path = pathOf(request.url);
    if (request.method === 'OPTIONS') {
      // Preflight: 200, empty body, CORS headers (onSend adds them).
      await reply.code(200).send();
      return reply;
    }
    if (path === ENROLL_PATH && request.method !== 'POST') throw new EnrollError(EnrollErrorCode.MethodNotAllowed);
    if (path === ENROLL_STATUS_PATH && request.method !== 'GET' && request.method !== 'HEAD') {
      throw new EnrollError(EnrollErrorCode.MethodNotAllowed);
    }
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!isFunctionPath(request.url)) return payload;
    const headers = pathOf(request.url) === ENROLL_STATUS_PATH ? STATUS_CORS_HEADERS : FUNCTION_CORS_HEADERS;
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    return payload;
  });
}
