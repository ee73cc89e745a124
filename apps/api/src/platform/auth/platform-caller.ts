import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { userBudgetBucket } from '../../common/rate-limit/platform-budget';
import { RuntimeConfig } from '../../config/runtime-config';
import type { FastifyRequest } from 'fastify';
import { AccessTokens, AccessTokenClaims, InvalidTokenError, PlatformRole } from './access-tokens';
import { AuthError, AuthErrorCode, GatewayError, GatewayErrorCode } from '../common/platform-errors';

export type { PlatformRole };

/** Who is calling the data platform, and the claims that PostgreSQL sees as request.jwt.claims. */
export interface PlatformCaller {
  role: PlatformRole;
  claims: Record<string, unknown>;
  /** The bearer value, when the caller sent a user token (GoTrue needs it for /user and /logout). */
  userToken?: string;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * Whose budget a REST request spends: a signed-in user's own (by user id); otherwise the key's role, shared
 * by everyone calling with that key. The service role is the server's own secret, used by the enrollment
 * function on behalf of every user (each already counted by the function): it gets the function key's budget
 * (RMM_FUNCTION_KEY_RATE_LIMIT_PER_MINUTE), so that it is bounded without being a budget all users share.
 */
export function budgetOf(
  caller: PlatformCaller,
  limits: { platformRateLimitPerUserPerMinute: number; functionKeyRateLimitPerMinute: number },
): { bucket: string; limit: number } {
  const sub = caller.claims.sub;
  if (caller.role === 'authenticated' && typeof sub === 'string' && sub !== '') {
    return { bucket: userBudgetBucket(sub), limit: limits.platformRateLimitPerUserPerMinute };
  }
  if (caller.role === 'service_role') return { bucket: 'platform:role:service_role', limit: limits.functionKeyRateLimitPerMinute };
  return { bucket: `platform:role:${caller.role}`, limit: limits.platformRateLimitPerUserPerMinute };
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The gateway of the data platform, as Supabase's works: the `apikey` (header, or query for clients that
 * cannot set headers) must be the anon or the service-role key; the `Authorization: Bearer` value, when
 * present, decides the role: the service-role key is `service_role`, the anon key `anon`, a valid access
 * token `authenticated`. Without a bearer, the apikey's own role applies.
 */
@Injectable()
export class PlatformCallers {
  constructor(
    private readonly config: RuntimeConfig,
    private readonly tokens: AccessTokens,
  ) {}

  /** The role of a key, or undefined when the value is neither key. */
  roleOfKey(value: string): PlatformRole | undefined {
    if (sameSecret(value, this.config.dataServiceRoleKey)) return 'service_role';
    if (sameSecret(value, this.config.dataAnonKey)) return 'anon';
    return undefined;
  }

  /** The apikey check: throws the gateway's 401 when missing or unknown. */
  requireApiKey(headers: Headers, query?: Record<string, unknown>): PlatformRole {
    const fromQuery = typeof query?.apikey === 'string' ? query.apikey : undefined;
    const key = first(headers['apikey']) ?? fromQuery;
    if (!key) throw new GatewayError(GatewayErrorCode.NoApiKey);
    const role = this.roleOfKey(key);
    if (!role) throw new GatewayError(GatewayErrorCode.InvalidApiKey);
    return role;
  }

  /** The bearer value of the Authorization header, if any. */
  bearerOf(headers: Headers): string | undefined {
    const auth = first(headers['authorization']);
    if (!auth) return undefined;
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    return m ? m[1].trim() : undefined;
  }

  /**
   * The caller of a REST request. A bearer alone is enough (the spec's step 5 sends no apikey); without
   * one, the apikey is required. A bearer that is neither key nor a valid token throws InvalidTokenError.
   */
  async resolve(headers: Headers, query?: Record<string, unknown>): Promise<PlatformCaller> {
    const bearer = this.bearerOf(headers);
    const hasApiKey = first(headers['apikey']) !== undefined || typeof query?.apikey === 'string';
    if (hasApiKey || bearer === undefined) {
      const keyRole = this.requireApiKey(headers, query);
      if (bearer === undefined) return { role: keyRole, claims: { role: keyRole } };
    }
    const bearerRole = this.roleOfKey(bearer!);
    if (bearerRole) return { role: bearerRole, claims: { role: bearerRole } };
    const claims = await this.verify(bearer!);
    return { role: claims.role, claims: { ...claims }, userToken: bearer };
  }

  /** As resolve(), for /auth/v1: a bad bearer is GoTrue's 403 bad_jwt. */
  async resolveForAuth(req: FastifyRequest): Promise<PlatformCaller> {
    try {
      return await this.resolve(req.headers, req.query as Record<string, unknown>);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw new AuthError(AuthErrorCode.BadJwt, `invalid JWT: unable to parse or verify signature, ${err.message}`);
      throw err;
    }
  }

  async verify(token: string): Promise<AccessTokenClaims> {
    return this.tokens.verify(token);
  }
}
