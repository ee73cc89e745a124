import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

/** X-Total-Count on a paged list (the body stays the spec's plain array). */
export function setTotal(reply: FastifyReply, total: number | undefined): void {
  if (total !== undefined) void reply.header('X-Total-Count', String(total));
}

/** A list answered as a stream of JSON text (a long unpaged list) gets the JSON content type; an array goes as is. */
export function jsonStream<T>(reply: FastifyReply, body: T[] | Readable): T[] | Readable {
  if (!Array.isArray(body)) void reply.type('application/json; charset=utf-8');
  return body;
}
