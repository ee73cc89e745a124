import type { FastifyReply } from 'fastify';

/** X-Total-Count on a paged list (the body stays the spec's plain array). */
export function setTotal(reply: FastifyReply, total: number | undefined): void {
  if (total !== undefined) void reply.header('X-Total-Count', String(total));
}
