import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { hashApiKey } from './api-key-secret';
import { sessionTokenOf } from './session-cookie';
import type { AuthedRequest } from './principal';

/**
 * Requests are counted per API key, or per console session for a cookie-authenticated request (a hash of either,
 * never the secret), not per address.
 */
export function keyTracker(req: Record<string, any>): string {
  const headers = req.headers as IncomingHttpHeaders;
  const h = headers['x-api-key'];
  const key = Array.isArray(h) ? h[0] : h;
  const secret = key ? key : `session:${sessionTokenOf(headers) ?? ''}`;
  return createHash('sha256').update(secret).digest('hex').slice(0, 32);
}

/** One bucket per key and throttler across every endpoint (not per route, the throttler's default). */
export const bucketKey = (_ctx: ExecutionContext, tracker: string, throttlerName: string): string => `rmm:${throttlerName}:${tracker}`;

/**
 * True when the request's verified key (set by ApiKeyGuard, which runs first) is the enrollment function's own:
 * the key whose secret is RMM_API_KEY. Matched by its stored hash, not by its name, which any admin can reuse.
 */
export function isFunctionKey(ctx: ExecutionContext, functionKeySecret: string): boolean {
  const caller = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
  return caller?.secretHash != null && functionKeySecret !== '' && functionKeyHash(functionKeySecret) === caller.secretHash;
}

// The function key's hash, computed once per secret (not twice per request, once per throttler).
let memo: { secret: string; hash: string } | undefined;
function functionKeyHash(secret: string): string {
  if (memo?.secret !== secret) memo = { secret, hash: hashApiKey(secret) };
  return memo.hash;
}

/**
 * A throttler's limit for a request: `functionKeyLimit` for the function's key (it speaks for every user, each
 * limited by the function itself), `limit` for every other key.
 */
export const limitByKey =
  (functionKey: () => string, limit: () => number, functionKeyLimit: () => number) =>
  (ctx: ExecutionContext): number =>
    isFunctionKey(ctx, functionKey()) ? functionKeyLimit() : limit();

/** The throttler, answering 429 with a plain Retry-After (seconds) whichever limit was hit. */
@Injectable()
export class RmmThrottlerGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    void reply.header('Retry-After', String(Math.max(1, Math.ceil(detail.timeToBlockExpire))));
    throw new ThrottlerException('rate limited');
  }
}
