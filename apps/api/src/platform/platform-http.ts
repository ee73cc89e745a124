import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { CorsPolicy } from '../common/http/cors';
import { pathStartsWith } from '../common/errors/error-surfaces';
import { AUTH_PREFIX, GOTRUE_API_VERSION } from './auth/auth-error.surface';
import { REST_PREFIX } from './rest/rest-error.surface';

const isAuthPath = pathStartsWith(AUTH_PREFIX);

/** What a browser running supabase-js may send and read. */
export const PLATFORM_CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers':
    'authorization, x-client-info, apikey, content-type, prefer, accept-profile, content-profile, range, range-unit, x-supabase-api-version, x-request-id',
  'access-control-allow-methods': 'GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS',
  'access-control-expose-headers': 'content-range, x-supabase-api-version, x-request-id',
};

/** CORS for /auth/v1 and /rest/v1. */
export const platformCors: CorsPolicy = {
  name: 'platform',
  matches: pathStartsWith(AUTH_PREFIX, REST_PREFIX),
  headers: () => PLATFORM_CORS_HEADERS,
};

/** GoTrue's API version header on every /auth/v1 answer. */
export function registerGoTrueVersionHeader(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (isAuthPath(request.url)) reply.header('x-supabase-api-version', GOTRUE_API_VERSION);
    done(null, payload);
  });
}
