import { ExecutionContext, Injectable } from '@nestjs/common';
import {
  ThrottlerException,
  ThrottlerGenerateKeyFunction,
  ThrottlerGetTrackerFunction,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerOptions,
} from '@nestjs/throttler';
import {
  THROTTLER_BLOCK_DURATION,
  THROTTLER_KEY_GENERATOR,
  THROTTLER_LIMIT,
  THROTTLER_SKIP,
  THROTTLER_TRACKER,
  THROTTLER_TTL,
} from '@nestjs/throttler/dist/throttler.constants';
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
  // The key guard, which runs first, verified this very key and kept its stored hash, SHA-256 of the same
  // secret: the same tracker as hashing the header again, one hash fewer per request.
  const verified = (req as AuthedRequest).principal;
  if (key && verified?.kind === 'api_key' && verified.secretHash) return verified.secretHash.slice(0, 32);
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

type Resolvable<T> = T | ((ctx: ExecutionContext) => T | Promise<T>);

/** What the throttler's decorators say for one route and throttler (read once per route, not per request). */
interface RoutePlan {
  throttler: ThrottlerOptions;
  skip: boolean;
  limit: Resolvable<number>;
  ttl: Resolvable<number>;
  blockDuration: Resolvable<number> | undefined;
  getTracker: ThrottlerGetTrackerFunction;
  generateKey: ThrottlerGenerateKeyFunction;
}

const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as Promise<T> | undefined)?.then === 'function';

/**
 * The throttler, answering 429 with a plain Retry-After (seconds) whichever limit was hit. It decides as the
 * stock ThrottlerGuard does (same throttlers, decorators, storage, headers and 429), but reads each route's
 * decorators once rather than a dozen metadata lookups and three awaits per throttler on every request.
 */
@Injectable()
export class RmmThrottlerGuard extends ThrottlerGuard {
  private readonly plans = new WeakMap<object, WeakMap<object, RoutePlan[]>>();

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    for (const plan of this.planOf(context)) {
      const skipIf = plan.throttler.skipIf ?? this.commonOptions.skipIf;
      if (plan.skip || skipIf?.(context)) continue;
      const name = plan.throttler.name ?? 'default';
      const l = resolve(context, plan.limit);
      const limit = toNumber(isPromise(l) ? await l : l, 'limit', name);
      const t = resolve(context, plan.ttl);
      const ttl = toNumber(isPromise(t) ? await t : t, 'ttl', name);
      const b = plan.blockDuration == null ? ttl : resolve(context, plan.blockDuration);
      const blockDuration = toNumber(isPromise(b) ? await b : b, 'blockDuration', name);
      await this.handleRequest({ context, limit, ttl, throttler: plan.throttler, blockDuration, getTracker: plan.getTracker, generateKey: plan.generateKey });
    }
    return true;
  }

  private planOf(context: ExecutionContext): RoutePlan[] {
    const handler = context.getHandler();
    const classRef = context.getClass();
    let byHandler = this.plans.get(classRef);
    if (!byHandler) this.plans.set(classRef, (byHandler = new WeakMap()));
    let plans = byHandler.get(handler);
    if (!plans) {
      const meta = <T>(key: string, t: ThrottlerOptions): T | undefined => this.reflector.getAllAndOverride<T | undefined>(key + (t.name ?? 'default'), [handler, classRef]);
      plans = this.throttlers.map((t) => ({
        throttler: t,
        skip: Boolean(meta<boolean>(THROTTLER_SKIP, t)), // (truthy, as the stock guard reads it)
        limit: meta<Resolvable<number>>(THROTTLER_LIMIT, t) ?? t.limit,
        ttl: meta<Resolvable<number>>(THROTTLER_TTL, t) ?? t.ttl,
        blockDuration: meta<Resolvable<number>>(THROTTLER_BLOCK_DURATION, t) ?? t.blockDuration,
        getTracker: meta<ThrottlerGetTrackerFunction>(THROTTLER_TRACKER, t) || t.getTracker || this.commonOptions.getTracker!,
        generateKey: meta<ThrottlerGenerateKeyFunction>(THROTTLER_KEY_GENERATOR, t) || t.generateKey || this.commonOptions.generateKey!,
      }));
      byHandler.set(handler, plans);
    }
    return plans;
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    void reply.header('Retry-After', String(Math.max(1, Math.ceil(detail.timeToBlockExpire))));
    throw new ThrottlerException('rate limited');
  }
}

/** A resolvable option's value, awaited only when it is a promise (ours are plain numbers or sync functions). */
function resolve(context: ExecutionContext, value: Resolvable<number>): number | Promise<number> {
  return typeof value === 'function' ? value(context) : value;
}

/** As the stock guard: a number, or a numeric string; anything else is a configuration error. */
function toNumber(value: unknown, option: string, throttler: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || Number.isNaN(n)) throw new Error(`Invalid "${option}" for the "${throttler}" throttler: expected a number, got ${JSON.stringify(value)}.`);
  return n;
}
