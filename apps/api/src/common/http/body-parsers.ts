import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BodyLimit, BodyRefused, jsonDepthExceeds, limitFor, MAX_JSON_DEPTH } from './body-limits';

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
 * - every body is cut at its surface's limit (413), and JSON nested deeper than MAX_JSON_DEPTH is 400 before
 *   it is parsed;
 * - JSON is parsed as usual; an empty JSON body is no body (supabase-js's POST /auth/v1/logout sends one),
 *   each route deciding whether it needs one;
 * - any other content type is 415 Unsupported Media Type (rendered by each surface);
 * - under `rawBodyPaths` every body, whatever its type, reaches the handler as text (a RawBody), because
 *   that route decides the order of its own checks (the enrollment function: 404 for a user without a
 *   profile even when the body is not JSON).
 */
export function registerBodyParsers(app: NestFastifyApplication, rawBodyPaths: (url: string) => boolean, limits: BodyLimit[] = []): void {
  const adapter = app.getHttpAdapter() as FastifyAdapter;
  const fastify = adapter.getInstance() as FastifyInstance;
  const json = fastify.getDefaultJsonParser('error', 'error');
  const bodyLimit = fastify.initialConfig.bodyLimit ?? 1024 * 1024;
  adapter.useBodyParser('application/json', false, { bodyLimit }, (req: FastifyRequest, body: Buffer, done: Done) => {
    const max = limitFor(limits, req.url, bodyLimit);
    if (body.length > max) return done(new BodyRefused(413, 'FST_ERR_CTP_BODY_TOO_LARGE', `Request body is too large (at most ${max} bytes here)`));
    if (rawBodyPaths(req.url)) return done(null, new RawBody(body.toString('utf8')));
    if (body.length === 0) return done(null, undefined);
    const text = body.toString('utf8');
    if (jsonDepthExceeds(text)) return done(new BodyRefused(400, 'RMM_JSON_TOO_DEEP', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`));
    void json(req, text, done);
  });
  adapter.useBodyParser('*', false, { bodyLimit }, (req: FastifyRequest, body: Buffer, done: Done) => {
    const max = limitFor(limits, req.url, bodyLimit);
    if (body.length > max) return done(new BodyRefused(413, 'FST_ERR_CTP_BODY_TOO_LARGE', `Request body is too large (at most ${max} bytes here)`));
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
