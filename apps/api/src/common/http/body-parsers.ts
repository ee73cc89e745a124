import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The raw text of a request's body, untouched by the framework (see `rawBodyPaths`). */
export class RawBody {
  constructor(readonly text: string) {}
}

export function rawBodyOf(request: FastifyRequest): string | undefined {
  if (request.body instanceof RawBody) return request.body.text;
  // text/plain has Fastify's own parser, which keeps the text as it is.
  return typeof request.body === 'string' ? request.body : undefined;
}

type Done = (err: Error | null, body?: unknown) => void;

/**
 * Body parsing for every route, in one place:
 * - JSON is parsed as usual; an empty JSON body is no body (supabase-js's POST /auth/v1/logout sends one),
 *   each route deciding whether it needs one;
 * - any other content type is 415 Unsupported Media Type (rendered by each surface);
 * - under `rawBodyPaths` every body, whatever its type, reaches the handler as text (a RawBody), because
 *   that route decides the order of its own checks (the enrollment function: 404 for a user without a
 *   profile even when the body is not JSON).
 */
export function registerBodyParsers(app: NestFastifyApplication, rawBodyPaths: (url: string) => boolean): void {
  const adapter = app.getHttpAdapter() as FastifyAdapter;
  const fastify = adapter.getInstance() as FastifyInstance;
  const json = fastify.getDefaultJsonParser('error', 'error');
  const bodyLimit = fastify.initialConfig.bodyLimit;
  adapter.useBodyParser('application/json', false, { bodyLimit }, (req: FastifyRequest, body: Buffer, done: Done) => {
    if (rawBodyPaths(req.url)) done(null, new RawBody(body.toString('utf8')));
    else if (body.length === 0) done(null, undefined);
    else void json(req, body.toString('utf8'), done);
  });
  adapter.useBodyParser('*', false, { bodyLimit }, (req: FastifyRequest, body: Buffer, done: Done) => {
    if (rawBodyPaths(req.url)) {
      done(null, new RawBody(body.toString('utf8')));
      return;
    }
    const err = Object.assign(new Error(`Unsupported Media Type: ${req.headers['content-type'] ?? ''}`), {
      statusCode: 415,
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    });
    done(err);
  });
}
