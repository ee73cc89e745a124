import { Injectable } from '@nestjs/common';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { Clock } from '../../common/clock';
import { RuntimeConfig } from '../../config/runtime-config';

export type PlatformRole = 'anon' | 'authenticated' | 'service_role';
const ROLES: readonly string[] = ['anon', 'authenticated', 'service_role'];

/** Lifetime of an access token, as GoTrue's default (JWT_EXP 3600). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const AUDIENCE = 'authenticated';

/** The claims of an access token, GoTrue's names. */
export interface AccessTokenClaims {
  sub: string;
  role: PlatformRole;
  aud: string;
  exp: number;
  iat: number;
  iss?: string;
  email?: string;
  session_id?: string;
  [claim: string]: unknown;
}

/** Why a bearer token was refused. */
export class InvalidTokenError extends Error {
  constructor(readonly problem: 'expired' | 'invalid') {
    super(problem === 'expired' ? 'token is expired' : 'unable to parse or verify signature');
  }
}

/** HS256 access tokens signed with JWT_SECRET, like GoTrue's; time comes from the injectable Clock. */
@Injectable()
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(
    private readonly config: RuntimeConfig,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(config.jwtSecret);
  }

  get issuer(): string {
    return `${this.config.publicUrl.replace(/\/+$/, '')}/auth/v1`;
  }

  async sign(user: { id: string; email: string; metadata: Record<string, unknown> }, sessionId: string): Promise<{ token: string; expiresAt: number }> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
    const token = await new SignJWT({
      role: 'authenticated',
      email: user.email,
      phone: '',
      session_id: sessionId,
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: iat }],
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: user.metadata,
      is_anonymous: false,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setAudience(AUDIENCE)
      .setIssuer(this.issuer)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: exp };
  }

  /** Verifies signature, algorithm, expiry and the role claim; throws InvalidTokenError. */
  async verify(token: string): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: this.clock.now() });
      if (typeof payload.role !== 'string' || !ROLES.includes(payload.role)) throw new InvalidTokenError('invalid');
      if (payload.role === 'authenticated' && typeof payload.sub !== 'string') throw new InvalidTokenError('invalid');
      return payload as AccessTokenClaims;
    } catch (err) {
      if (err instanceof InvalidTokenError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError('expired');
      throw new InvalidTokenError('invalid');
    }
  }
}
