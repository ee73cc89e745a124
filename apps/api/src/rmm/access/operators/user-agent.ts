import type { FastifyRequest } from 'fastify';

/** The request's User-Agent (kept with a session, shown in the operator's sessions list), at most 500 characters. */
export function userAgentOf(req: Pick<FastifyRequest, 'headers'>): string | null {
  const ua = req.headers['user-agent'];
  return typeof ua === 'string' && ua !== '' ? ua.slice(0, 500) : null;
}
