import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { CorsPolicy } from '../common/http/cors';
import { pathStartsWith } from '../common/errors/error-surfaces';
import { EnrollError, EnrollErrorCode } from './enroll.errors';

export const FUNCTIONS_PREFIX = '/functions/v1';
export const ENROLL_PATH = `${FUNCTIONS_PREFIX}/enroll-rmm`;
export const ENROLL_STATUS_PATH = `${ENROLL_PATH}/status`;

export const isFunctionPath = pathStartsWith(FUNCTIONS_PREFIX);
const pathOf = (url: string): string => url.split('?')[0].replace(/\/+$/, '') || '/';

/** The three CORS headers of the spec, on every answer of the function (errors and 405 included). */
export const FUNCTION_CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
};

/** The status endpoint is ours, not the spec's: it is read with GET. */
const STATUS_CORS_HEADERS = { ...FUNCTION_CORS_HEADERS, 'access-control-allow-methods': 'GET, OPTIONS' };

export const functionCors: CorsPolicy = {
  name: 'function',
  matches: isFunctionPath,
  headers: (url) => (pathOf(url) === ENROLL_STATUS_PATH ? STATUS_CORS_HEADERS : FUNCTION_CORS_HEADERS),
};

/**
 * The function's method rule comes first in its processing order (405 before the token is looked at),
 * so it runs before routing. Preflights are answered by the CORS policy; bodies reach the function raw
 * (common/http/body-parsers.ts).
 */
export function registerFunctionMethodCheck(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  // Callback-style: every request passes here, and an async hook costs a promise and a microtask each time.
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!isFunctionPath(request.url) || request.method === 'OPTIONS') return done();
    const path = pathOf(request.url);
    if (path === ENROLL_PATH && request.method !== 'POST') return done(new EnrollError(EnrollErrorCode.MethodNotAllowed));
    if (path === ENROLL_STATUS_PATH && request.method !== 'GET' && request.method !== 'HEAD') {
      return done(new EnrollError(EnrollErrorCode.MethodNotAllowed));
    }
    done();
  });
}
