import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { pathStartsWith } from '../errors/error-surfaces';

/**
 * The CORS headers of one surface: which paths, and the headers for a request to one of them (given its
 * `Origin` header, absent when the request has none; an empty record: no CORS headers for it).
 */
export interface CorsPolicy {
  readonly name: string;
  matches(url: string): boolean;
  headers(url: string, origin?: string): Record<string, string>;
}

/**
 * CORS for the surfaces that need it, in one place: a preflight (OPTIONS) under a policy's paths is
 * answered 200 with an empty body before routing, and every answer under them (errors included)
 * carries the policy's headers.
 */
export function registerCors(app: NestFastifyApplication, policies: CorsPolicy[]): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const policyOf = (url: string): CorsPolicy | undefined => policies.find((p) => p.matches(url));
  // Both hooks are callback-style: they run on every request, and an async hook costs a promise and a microtask.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' || !policyOf(request.url)) return done();
    void reply.code(200).send(); // answered here: the request goes no further (done is not called)
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const policy = policyOf(request.url);
    if (policy) {
      for (const [k, v] of Object.entries(policy.headers(request.url, request.headers.origin))) {
        const before = k === 'vary' ? reply.getHeader('vary') : undefined;
        reply.header(k, before ? `${String(before)}, ${v}` : v);
      }
    }
    done(null, payload);
  });
}

/** What a dashboard calling /api/v3 from a browser may send and read. */
export const RMM_CORS_HEADERS: Record<string, string> = {
  'access-control-allow-headers': 'x-api-key, content-type, x-request-id',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-expose-headers': 'X-Total-Count, Retry-After, X-Request-Id',
  'access-control-max-age': '600',
};

/**
 * CORS for /api/v3 (`RMM_CORS_ORIGINS`): only the listed origins, each echoed back (never `*`: the backend
 * takes an API key, and a key pasted into one dashboard should not be usable from any page). An origin not
 * listed gets no CORS headers, so the browser refuses the answer. With no origins the policy matches
 * nothing and /api/v3 behaves as without CORS (a preflight is a 404). No credentials mode: keys travel in
 * a header, not in cookies.
 */
export function rmmCors(origins: readonly string[]): CorsPolicy {
  const allowed = new Set(origins);
  const underApi = pathStartsWith('/api/v3');
  return {
    name: 'rmm',
    matches: (url) => allowed.size > 0 && underApi(url),
    headers: (_url, origin) =>
      origin !== undefined && allowed.has(origin)
        ? { ...RMM_CORS_HEADERS, 'access-control-allow-origin': origin, vary: 'Origin' }
        : // The answer still depends on the Origin header: caches must not reuse it for a listed origin.
          { vary: 'Origin' },
  };
}
