import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/** The CORS headers of one surface: which paths, and the headers for a path (null: none for it). */
export interface CorsPolicy {
  readonly name: string;
  matches(url: string): boolean;
  headers(url: string): Record<string, string>;
}

/**
 * CORS for the surfaces that need it, in one place: a preflight (OPTIONS) under a policy's paths is
 * answered 200 with an empty body before routing, and every answer under them (errors included)
 * carries the policy's headers.
 */
export function registerCors(app: NestFastifyApplication, policies: CorsPolicy[]): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const policyOf = (url: string): CorsPolicy | undefined => policies.find((p) => p.matches(url));
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' || !policyOf(request.url)) return;
    await reply.code(200).send();
    return reply;
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    const policy = policyOf(request.url);
    if (policy) for (const [k, v] of Object.entries(policy.headers(request.url))) reply.header(k, v);
    return payload;
  });
}
