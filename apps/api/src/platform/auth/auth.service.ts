import { Injectable } from '@nestjs/common';
import type { UserEntity } from '@app/entities';
import { Clock } from '../../common/clock';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { RuntimeConfig } from '../../config/runtime-config';
import { MAX_PASSWORD_LENGTH, PasswordHasher } from '../users/password';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { AccessTokenClaims, AccessTokens, ACCESS_TOKEN_TTL_SECONDS, AUDIENCE, InvalidTokenError } from './access-tokens';
import { AuthError, AuthErrorCode } from '../common/platform-errors';
import { PlatformCaller } from './platform-caller';
import { SessionsRepository } from './sessions.repository';
import { SignInLimits } from './signin-limits';
import { metadataProblem } from './user-metadata';
import { GoTrueUser, toGoTrueUser } from './user.mapper';
import { isUuid } from '../../common/values';
import { MAX_EMAIL_LENGTH, PASSWORD_TOO_LONG_MESSAGE } from '../users/users.service';

/** GoTrue's token answer (supabase-js builds a session only when access_token, expires_in and refresh_token are there). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: GoTrueUser;
}

const invalidCredentials = () => new AuthError(AuthErrorCode.InvalidCredentials, 'Invalid login credentials');
const badJwt = (reason: string) => new AuthError(AuthErrorCode.BadJwt, `invalid JWT: unable to parse or verify signature, ${reason}`);
const asObject = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/** /auth/v1: GoTrue's password and refresh-token grants, user, logout and the admin user API. */
@Injectable()
export class AuthService {
  private readonly signInLimits: SignInLimits;

  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly sessions: SessionsRepository,
    private readonly tokens: AccessTokens,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    limiter: RateLimiter,
    config: RuntimeConfig,
  ) {
    this.signInLimits = new SignInLimits(limiter, config);
  }

  /** `clientAddress`: the connection's address as Fastify gives it (request.ip: the peer, or the forwarded client behind a TRUST_PROXY proxy). */
  token(grantType: unknown, body: unknown, clientAddress = 'unknown'): Promise<TokenResponse> {
    if (grantType === 'password') return this.passwordGrant(asObject(body), clientAddress);
    if (grantType === 'refresh_token') return this.refreshGrant(asObject(body));
    throw new AuthError(AuthErrorCode.ValidationFailed, 'unsupported_grant_type');
  }

  /**
   * A wrong email costs the same argon2 verification as a wrong password, so answers do not reveal which emails exist.
   * Failed attempts are limited per account and per client address (SignInLimits: 429 past either, even for the
   * right password), and the verification waits for a hashing slot (PasswordHasher: 429 at once when the queue is full).
   */
  private async passwordGrant(body: Record<string, unknown>, clientAddress: string): Promise<TokenResponse> {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!email) throw new AuthError(AuthErrorCode.ValidationFailed, 'missing email or phone');
    const password = typeof body.password === 'string' ? body.password : '';
    await this.signInLimits.check(email, clientAddress);
    const found: { user: UserEntity | null } = { user: null };
    const ok = await this.hasher.verify(async () => {
      await this.signInLimits.admit(email);
      // No account has an address longer than MAX_EMAIL_LENGTH (nor a password longer than the hasher takes): a failure like any other.
      found.user = email.length > MAX_EMAIL_LENGTH ? null : await this.users.findByEmail(email);
      return found.user?.encryptedPassword;
    }, password);
    const user = found.user;
    if (!user || !ok || password === '') {
      await this.signInLimits.failed(clientAddress);
      throw invalidCredentials();
    }
    await this.signInLimits.succeeded(email);
    const { sessionId, refreshToken } = await this.sessions.createSession(user.id, this.clock.now());
    return this.issue((await this.users.findById(user.id)) ?? user, sessionId, refreshToken);
  }

  private async refreshGrant(body: Record<string, unknown>): Promise<TokenResponse> {
    const token = typeof body.refresh_token === 'string' ? body.refresh_token : '';
    if (!token) throw new AuthError(AuthErrorCode.ValidationFailed, 'refresh_token required');
    const result = await this.sessions.rotate(token);
    if (result.outcome === 'reused') throw new AuthError(AuthErrorCode.RefreshTokenAlreadyUsed, 'Invalid Refresh Token: Already Used');
    if (result.outcome === 'unknown') throw new AuthError(AuthErrorCode.RefreshTokenNotFound, 'Invalid Refresh Token: Refresh Token Not Found');
    const user = await this.users.findById(result.userId);
    if (!user) throw new AuthError(AuthErrorCode.RefreshTokenNotFound, 'Invalid Refresh Token: Refresh Token Not Found');
    return this.issue(user, result.sessionId, result.refreshToken!);
  }

  private async issue(user: Parameters<typeof toGoTrueUser>[0], sessionId: string, refreshToken: string): Promise<TokenResponse> {
    const { token, expiresAt } = await this.tokens.sign({ id: user.id, email: user.email, metadata: user.rawUserMetaData ?? {} }, sessionId);
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: toGoTrueUser(user),
    };
  }

  /** GET /user: the token must verify, and its user and session must still exist. */
  async user(bearer: string | undefined): Promise<GoTrueUser> {
    const claims = await this.userClaims(bearer);
    const user = isUuid(claims.sub) ? await this.users.findById(claims.sub) : null;
    if (!user) throw new AuthError(AuthErrorCode.TokenUserNotFound, 'User from sub claim in JWT does not exist');
    if (!claims.session_id || !isUuid(claims.session_id) || !(await this.sessions.sessionExists(claims.session_id, user.id))) {
      throw new AuthError(AuthErrorCode.SessionNotFound, 'Session from session_id claim in JWT does not exist');
    }
    return toGoTrueUser(user);
  }

  /** POST /logout?scope=global|local|others: ends sessions; their refresh tokens stop working. */
  async logout(bearer: string | undefined, scope: unknown): Promise<void> {
    const claims = await this.userClaims(bearer);
    const s = scope === undefined ? 'global' : scope;
    if (s !== 'global' && s !== 'local' && s !== 'others') {
      throw new AuthError(AuthErrorCode.ValidationFailed, 'Unsupported logout scope');
    }
    if (!isUuid(claims.sub) || !claims.session_id || !isUuid(claims.session_id)) return;
    await this.sessions.endSessions(claims.sub, s, claims.session_id);
  }

  private async userClaims(bearer: string | undefined): Promise<AccessTokenClaims & { session_id?: string }> {
    if (!bearer) throw new AuthError(AuthErrorCode.NoAuthorization, 'This endpoint requires a valid Bearer token');
    let claims: AccessTokenClaims;
    try {
      claims = await this.tokens.verify(bearer);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw badJwt(err.problem === 'expired' ? 'token has invalid claims: token is expired' : 'token is malformed or its signature is invalid');
      throw err;
    }
    if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') throw badJwt('token is not a user token');
    return claims;
  }

  // ---- admin (service role only) ----

  async adminCreate(caller: PlatformCaller, body: unknown): Promise<GoTrueUser> {
    requireServiceRole(caller);
    const b = asObject(body);
    if (typeof b.email !== 'string' || b.email.trim() === '') throw new AuthError(AuthErrorCode.ValidationFailed, 'Unable to validate email address: invalid format');
    if (b.password !== undefined && typeof b.password !== 'string') throw new AuthError(AuthErrorCode.ValidationFailed, 'password must be a string');
    if (typeof b.password === 'string' && b.password.length > MAX_PASSWORD_LENGTH) throw new AuthError(AuthErrorCode.ValidationFailed, PASSWORD_TOO_LONG_MESSAGE);
    const metadata = typeof b.user_metadata === 'object' && b.user_metadata !== null && !Array.isArray(b.user_metadata) ? (b.user_metadata as Record<string, unknown>) : {};
    const problem = metadataProblem(metadata);
    if (problem) throw new AuthError(AuthErrorCode.ValidationFailed, problem);
    const { user } = await this.usersService.create({
      email: b.email,
      password: typeof b.password === 'string' ? b.password : '',
      withProfile: false,
      emailConfirmed: b.email_confirm === true,
      metadata,
    });
    return toGoTrueUser(user);
  }

  async adminList(caller: PlatformCaller, page: unknown, perPage: unknown): Promise<{ users: GoTrueUser[]; aud: string; total: number }> {
    requireServiceRole(caller);
    const p = positiveInt(page, 1);
    const per = Math.min(positiveInt(perPage, 50), 1000);
    const [users, total] = await this.users.list(p, per);
    return { users: users.map(toGoTrueUser), aud: AUDIENCE, total };
  }

  async adminGet(caller: PlatformCaller, id: string): Promise<GoTrueUser> {
    requireServiceRole(caller);
    const user = isUuid(id) ? await this.users.findById(id) : null;
    if (!user) throw new AuthError(AuthErrorCode.UserNotFound, 'User not found');
    return toGoTrueUser(user);
  }

  async adminDelete(caller: PlatformCaller, id: string): Promise<Record<string, never>> {
    requireServiceRole(caller);
    if (!isUuid(id) || !(await this.users.delete(id))) throw new AuthError(AuthErrorCode.UserNotFound, 'User not found');
    return {};
  }
}

function requireServiceRole(caller: PlatformCaller): void {
  if (caller.role !== 'service_role') throw new AuthError(AuthErrorCode.NotAdmin, 'User not allowed');
}

function positiveInt(v: unknown, fallback: number): number {
  const n = typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  return n >= 1 ? n : fallback;
}
