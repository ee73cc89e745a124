import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { pathStartsWith } from '../common/errors/error-surfaces';
import { AUTH_PREFIX, GOTRUE_API_VERSION } from './auth/auth-error.surface';
import { REST_PREFIX } from './rest/rest-error.surface';

const isPlatformPath = pathStartsWith(AUTH_PREFIX, REST_PREFIX);
const isAuthPath = pathStartsWith(AUTH_PREFIX);

/** What a browser running supabase-js may send and read. */
export const PLATFORM_CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers':
    'authorization, x-client-info, apikey, content-type, prefer, accept-profile, content-profile, range, range-unit, x-supabase-api-version, x-request-id',
  'access-control-allow-methods': 'GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS',
  'access-control-expose-headers': 'content-range, x-supabase-api-version, x-request-id',
};

/** CORS for /auth/v1 and /rest/v1 (preflight answered before routing), and GoTrue's API version header. */
export function registerPlatformHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' || !isPlatformPath(request.url)) return;
    await reply.code(200).send();
    return reply;
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!isPlatformPath(request.url)) return payload;
    for (const [k, v] of Object.entries(PLATFORM_CORS_HEADERS)) reply.header(k, v);
    if (isAuthPath(request.url)) reply.header('x-supabase-api-version', GOTRUE_API_VERSION);
    return payload;
  });
}
