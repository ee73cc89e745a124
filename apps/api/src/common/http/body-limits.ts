import type { FastifyInstance, FastifyRequest } from 'fastify';

/** How deep any JSON body may nest: the API's bodies are flat, user metadata a few levels. */
export const MAX_JSON_DEPTH = 32;

/** The largest body one surface takes (its routes' needs: scripts on /api/v3 are up to 1 MiB of text). */
export interface BodyLimit {
  readonly name: string;
  matches(url: string): boolean;
  readonly maxBytes: number;
}

/** A refusal raised before a handler runs; the surfaces render it (400/413/404) like any framework error. */
export class BodyRefused extends Error {
  constructor(
    readonly statusCode: 400 | 404 | 413,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * True when `text` (JSON) nests arrays/objects deeper than `max`. One pass, no allocation, strings
 * skipped: cheap next to JSON.parse, and it runs first, so a deep body never reaches the parser or the
 * validator (whose recursion overflowed the stack at ~2,000 levels).
 */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The limit for a request's path (the first that matches), else `fallback`. */
export const limitFor = (limits: BodyLimit[], url: string, fallback: number): number => limits.find((l) => l.matches(url))?.maxBytes ?? fallback;

/**
 * Refuses before reading a byte of the body: a declared Content-Length over the surface's limit (413), and
 * any body sent to a path no route serves (404 at once: it is never parsed). A body without a declared
 * length is still cut at the surface's limit by the parser (body-parsers.ts).
 */
export function registerBodyLimits(fastify: FastifyInstance, limits: BodyLimit[], fallback: number): void {
  // Callback-style (every request passes here; most have no body): no promise per request.
  fastify.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    const hasBody = declared > 0 || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return done();
    if (request.is404) return done(new BodyRefused(404, 'RMM_NO_ROUTE', 'Not found'));
    const max = limitFor(limits, request.url, fallback);
    if (declared > max) return done(new BodyRefused(413, 'FST_ERR_CTP_BODY_TOO_LARGE', `Request body is too large (at most ${max} bytes here)`));
    done();
  });
}
