import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer carries, except the enrollment function's (its headers are the spec's):
 * no MIME sniffing, no framing (clickjacking), and `Cache-Control: no-store` where an answer can carry a
 * token or a new secret (`noStore` paths: the auth API, key administration, installer downloads). The
 * Content-Security-Policy is `frame-ancestors 'none'`, or the page's own where `csp` gives one (the console).
 */
export function registerSecurityHeaders(
  fastify: FastifyInstance,
  options: { exempt: (url: string) => boolean; noStore: (url: string) => boolean; csp?: (url: string) => string | undefined },
): void {
  // Callback-style: it runs on every answer, and an async hook costs a promise and a microtask each time.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!options.exempt(request.url)) {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('content-security-policy', options.csp?.(request.url) ?? "frame-ancestors 'none'");
      if (options.noStore(request.url)) reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}
