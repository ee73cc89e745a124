import { Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { OPERATOR_ROLES, OperatorEntity, OperatorRole } from '@app/entities';
import { Clock } from '../../../common/clock';
import { CommonErrorCode, DomainError, fieldInvalid, notFound } from '../../../common/errors/domain-error';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { RuntimeConfig } from '../../../config/runtime-config';
import { isUniqueViolation } from '../../../database/pg-errors';
import { AuthError } from '../../../platform/common/platform-errors';
import { SignInLimits } from '../../../platform/auth/signin-limits';
import { MAX_PASSWORD_LENGTH, PasswordHasher } from '../../../platform/users/password';
import { MAX_EMAIL_LENGTH } from '../../../platform/users/users.service';
import { ClientScope, EVERY_CLIENT, inScope } from '../../common/client-scope';
import { Principal, ROLE_SCOPES, SignInAttempt, SignInMethod } from '../../common/principal';
import { RmmEvents } from '../../common/bus/rmm-events';
import { requireStepUp } from '../../common/step-up';
import { OperatorSessionsRepository, SessionOrigin, SessionRow } from './operator-sessions.repository';
import { OperatorsErrorCode } from './operators.errors';
import { OperatorChanges, OperatorsRepository } from './operators.repository';
import { PasskeyRequiredError, SecondFactors } from './second-factor';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpStep, totpUri } from './totp';

export const MIN_OPERATOR_PASSWORD_LENGTH = 8;
/** A session's last_seen_at is written at most this often (the idle limit is minutes, not seconds). */
const TOUCH_EVERY_MS = 60_000;

export interface NewOperator {
  email: string;
  password: string;
  role: string;
  clients?: readonly number[] | null;
  /** May sign in with a password when RMM_PASSWORD_LOGIN=false (docs/sso.md, "Break-glass"). */
  breakGlass?: boolean;
}

export interface OperatorUpdate {
  role?: string;
  clients?: readonly number[] | null;
  disabled?: boolean;
  password?: string;
}

export interface SignIn {
  email: unknown;
  password: unknown;
  totp?: unknown;
  /** A passkey as the second factor (second-factor.ts). */
  passkey?: { challenge_id?: unknown; response?: unknown } | null;
}

/** What the signed-in operator's account offers for re-authentication (GET /api/v3/auth/me). */
export interface AccountFacts {
  operator: OperatorEntity;
  authenticatedAt: Date | null;
  hasPassword: boolean;
  totp: boolean;
  passkeys: number;
  sso: boolean;
}

const invalidCredentials = (): DomainError => new DomainError(OperatorsErrorCode.InvalidCredentials, 'Invalid credentials');
export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Operators (the console's people) and their sessions: create, change, sign in (password, then TOTP or a recovery
 * code when set up), the cookie's check on every request, sign out. Disabling an operator or changing their
 * password ends their sessions at once (and their WebSockets, through `operator.sessions_ended`).
 */
@Injectable()
export class OperatorsService {
  private readonly logger = new Logger('operators');
  private readonly limits: SignInLimits;

  constructor(
    private readonly operators: OperatorsRepository,
    private readonly sessions: OperatorSessionsRepository,
    private readonly hasher: PasswordHasher,
    private readonly config: RuntimeConfig,
    private readonly clock: Clock,
    private readonly events: RmmEvents,
    limiter: RateLimiter,
    private readonly secondFactors: SecondFactors,
  ) {
    this.limits = new SignInLimits(limiter, config, 'rmm:signin');
  }

  /**
   * `grantor`: the clients of whoever asks (an admin key or operator limited to some clients manages only operators
   * limited to some of its own: others do not exist for it, and it cannot make or widen one beyond its own).
   */
  async create(input: NewOperator, grantor: ClientScope = EVERY_CLIENT): Promise<OperatorEntity> {
    const email = operatorEmail(input.email);
    const role = operatorRole(input.role);
    const clients = await this.clientList(input.clients, grantor);
    const passwordHash = await this.hasher.hash(operatorPassword(input.password));
    try {
      return await this.operators.insert({ email, passwordHash, role, clients, breakGlass: input.breakGlass === true });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(OperatorsErrorCode.EmailTaken, 'an operator with this email exists', [{ field: 'email', message: 'already exists' }]);
      throw err;
    }
  }

  hasActiveAdmin(): Promise<boolean> {
    return this.operators.hasActiveAdmin();
  }

  async list(grantor: ClientScope = EVERY_CLIENT): Promise<OperatorEntity[]> {
    return (await this.operators.list()).filter((op) => manages(grantor, op));
  }

  async get(id: number, grantor: ClientScope = EVERY_CLIENT): Promise<OperatorEntity> {
    const op = await this.operators.findById(id);
    if (!op || !manages(grantor, op)) throw notFound();
    return op;
  }

  async byEmail(email: string): Promise<OperatorEntity> {
    const op = await this.operators.findByEmail(operatorEmail(email));
    if (!op) throw notFound(`no operator with email ${email.trim().toLowerCase()}`);
    return op;
  }

  /** Changes an operator; a new password or disabling ends every session of theirs at once. */
  async update(id: number, input: OperatorUpdate, grantor: ClientScope = EVERY_CLIENT): Promise<OperatorEntity> {
    await this.get(id, grantor);
    const changes: OperatorChanges = {};
    if (input.role !== undefined) changes.role = operatorRole(input.role);
    if (input.clients !== undefined) changes.clients = await this.clientList(input.clients, grantor);
    if (input.disabled !== undefined) changes.disabled = input.disabled;
    if (input.password !== undefined) changes.passwordHash = await this.hasher.hash(operatorPassword(input.password));
    const updated = (await this.operators.update(id, changes))!;
    if (input.disabled === true || input.password !== undefined) await this.endSessions(id);
    return updated;
  }

  /**
   * `operator link-oidc --email E`: the next provider sign-in with this e-mail, verified by the provider, links that
   * provider account to this operator (once). Refused when one is linked already.
   */
  async allowOidcLink(id: number): Promise<OperatorEntity> {
    const op = await this.get(id);
    if (op.oidcSubject !== null) throw fieldInvalid('email', `operator ${op.email} is linked to a provider account already`);
    return (await this.operators.update(id, { oidcLinkAllowed: true }))!;
  }

  /** Sets up TOTP (a new secret and ten recovery codes, replacing any earlier ones): shown once. */
  async enableTotp(id: number, grantor: ClientScope = EVERY_CLIENT): Promise<{ uri: string; recoveryCodes: string[] }> {
    const op = await this.get(id, grantor);
    const secret = newTotpSecret();
    const recoveryCodes = newRecoveryCodes();
    await this.operators.update(id, { totpSecret: secret, recoveryCodes: recoveryCodes.map(hashRecoveryCode), totpLastStep: null });
    return { uri: totpUri(secret, op.email), recoveryCodes };
  }

  async disableTotp(id: number, grantor: ClientScope = EVERY_CLIENT): Promise<void> {
    await this.get(id, grantor);
    await this.operators.update(id, { totpSecret: null, recoveryCodes: [], totpLastStep: null });
  }

  /**
   * POST /api/v3/auth/login. Every wrong part answers the same 401 'Invalid credentials' (an unknown email costs
   * the same argon2 verification as a wrong password); the sign-in limits of the data platform apply (per account
   * and per address, 429 past either). A right password without the account's code: 401 with totp_required.
   */
  /** `attempt` is filled in as the sign-in goes (the account tried, the method, the operator), for the audit log. */
  async signIn(body: SignIn, address: string, attempt: SignInAttempt = { email: null, method: 'password' }, userAgent?: string): Promise<{ operator: OperatorEntity; token: string; expiresAt: Date }> {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const code = typeof body.totp === 'string' ? body.totp.trim() : '';
    attempt.email = email === '' ? null : email.slice(0, MAX_EMAIL_LENGTH);
    attempt.method = code === '' ? 'password' : isRecoveryCode(code) ? 'password+recovery_code' : 'password+totp';
    if (!email || email.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH) throw invalidCredentials();
    await platformLimit(() => this.limits.check(email, address));
    const found: { op: OperatorEntity | null } = { op: null };
    const ok = await this.hasher.verify(async () => {
      await platformLimit(() => this.limits.admit(email));
      found.op = await this.operators.findByEmail(email);
      return found.op?.passwordHash;
    }, password);
    const op = found.op;
    if (!op || !ok || password === '' || op.disabled) {
      await platformLimit(() => this.limits.failed(address));
      throw invalidCredentials();
    }
    // RMM_PASSWORD_LOGIN=false: only break-glass operators still sign in with a password (docs/sso.md). Said after the
    // password was right, so the answer tells nothing to whoever does not have it.
    if (!this.config.passwordLogin && !op.breakGlass) {
      throw new DomainError(OperatorsErrorCode.PasswordLoginOff, 'password sign-in is turned off: sign in with single sign-on or a passkey');
    }
    const passkeys = this.secondFactors.passkeys;
    const hasPasskeys = passkeys !== null && (await passkeys.has(op.id));
    if (hasPasskeys && body.passkey) {
      // A passkey as the second factor (with or without TOTP set up: either one is enough).
      attempt.method = 'password+passkey';
      if (!(await passkeys.verify(op.id, body.passkey))) {
        await platformLimit(() => this.limits.failed(address));
        throw new PasskeyRequiredError(op.totpSecret !== null, await passkeys.challenge(op.id));
      }
    } else if (op.totpSecret || hasPasskeys) {
      const required = async (): Promise<DomainError> =>
        hasPasskeys ? new PasskeyRequiredError(op.totpSecret !== null, await passkeys.challenge(op.id)) : new DomainError(OperatorsErrorCode.TotpRequired, 'Invalid credentials');
      if (!code || !op.totpSecret) throw await required();
      if (!(await this.secondFactor(op, code))) {
        await platformLimit(() => this.limits.failed(address));
        throw await required();
      }
    }
    await platformLimit(() => this.limits.succeeded(email));
    // (A code given to an account without TOTP is not a second factor.)
    if (!op.totpSecret && !hasPasskeys) attempt.method = 'password';
    attempt.operator = { id: op.id, email: op.email };
    return this.startSession(op, { method: attempt.method, address, userAgent: userAgent ?? null });
  }

  /**
   * A new session for an operator who just proved who they are (any method): the cookie's token (shown once, stored
   * as its SHA-256), ending RMM_SESSION_MAX_HOURS later, or `maxHours` (the provider's RMM_OIDC_MAX_SESSION_HOURS).
   */
  async startSession(op: OperatorEntity, how: SessionOrigin, maxHours = this.config.sessionMaxHours): Promise<{ operator: OperatorEntity; token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + maxHours * 3_600_000);
    await this.sessions.create(hashSessionToken(token), op.id, now, expiresAt, how);
    await this.deleteStaleSessions(); // housekeeping at each sign-in: the table holds live sessions only
    this.logger.log(`operator ${op.id} signed in (${how.method})`);
    return { operator: op, token, expiresAt };
  }

  /** The session's operator proved who they are again (step-up): dangerous actions are allowed for RMM_STEP_UP_MINUTES. */
  async reauthenticated(principal: Principal, method: SignInMethod): Promise<void> {
    if (principal.kind !== 'operator' || !principal.sessionId) throw new DomainError(CommonErrorCode.Unauthorized, 'Invalid token');
    await this.sessions.reauthenticated(principal.sessionId, principal.id, this.clock.now(), method);
  }

  /**
   * POST /api/v3/auth/reauth (step-up): the session's operator gives their password again, and their TOTP or recovery
   * code when they have TOTP; the same answers and sign-in limits as login (401 'Invalid credentials', with
   * totp_required for a missing or wrong code; 429). An operator without a password: 409 (a passkey or the provider).
   */
  async reauthenticate(principal: Principal, body: { password: unknown; totp?: unknown }, address: string, attempt: SignInAttempt): Promise<void> {
    const op = principal.kind === 'operator' ? await this.operators.findById(principal.id) : null;
    if (!op || op.disabled || !principal.sessionId) throw new DomainError(CommonErrorCode.Unauthorized, 'Invalid token');
    const password = typeof body.password === 'string' ? body.password : '';
    const code = typeof body.totp === 'string' ? body.totp.trim() : '';
    attempt.email = op.email;
    attempt.operator = { id: op.id, email: op.email }; // the session says who, whatever the outcome
    attempt.method = code === '' ? 'password' : isRecoveryCode(code) ? 'password+recovery_code' : 'password+totp';
    if (!op.passwordHash) throw new DomainError(OperatorsErrorCode.NoPassword, 'this account has no password: re-authenticate with a passkey or single sign-on');
    if (password.length > MAX_PASSWORD_LENGTH) throw invalidCredentials();
    await platformLimit(() => this.limits.check(op.email, address));
    const ok = await this.hasher.verify(async () => {
      await platformLimit(() => this.limits.admit(op.email));
      return op.passwordHash;
    }, password);
    if (!ok || password === '') {
      await platformLimit(() => this.limits.failed(address));
      throw invalidCredentials();
    }
    if (!this.config.passwordLogin && !op.breakGlass) {
      throw new DomainError(OperatorsErrorCode.PasswordLoginOff, 'password sign-in is turned off: re-authenticate with single sign-on or a passkey');
    }
    if (op.totpSecret) {
      if (!code) throw new DomainError(OperatorsErrorCode.TotpRequired, 'Invalid credentials');
      if (!(await this.secondFactor(op, code))) {
        await platformLimit(() => this.limits.failed(address));
        throw new DomainError(OperatorsErrorCode.TotpRequired, 'Invalid credentials');
      }
    } else {
      attempt.method = 'password';
    }
    await platformLimit(() => this.limits.succeeded(op.email));
    await this.reauthenticated(principal, attempt.method);
  }

  /** The signed-in operator with what their account has: the methods the step-up dialog may offer. */
  async account(principal: Principal): Promise<AccountFacts> {
    const op = await this.get(principal.id);
    return {
      operator: op,
      authenticatedAt: principal.authenticatedAt ?? null,
      hasPassword: op.passwordHash !== null,
      totp: op.totpSecret !== null,
      passkeys: await this.operators.passkeyCount(op.id),
      sso: op.oidcSubject !== null,
    };
  }

  /** An operator's live sessions (their own, or an admin's view of another's: `grantor` as for get). */
  async sessionsOf(operatorId: number, grantor: ClientScope = EVERY_CLIENT): Promise<SessionRow[]> {
    await this.get(operatorId, grantor);
    return this.sessions.listLive(operatorId, this.clock.now(), this.idleMs);
  }

  /** Ends one of the caller's own sessions (404 for any other); its WebSockets close. */
  async endOwnSession(principal: Principal, sessionId: string): Promise<void> {
    if (!(await this.sessions.deleteOwn(sessionId, principal.id))) throw notFound();
    this.events.emit('operator.sessions.ended', { operatorId: principal.id, sessionId });
  }

  /** "Sign out everywhere else": every session of the caller's but the one it calls from. */
  async endOtherSessions(principal: Principal): Promise<number> {
    const ended = await this.sessions.deleteOthers(principal.id, principal.sessionId!);
    for (const sessionId of ended) this.events.emit('operator.sessions.ended', { operatorId: principal.id, sessionId });
    return ended.length;
  }

  /** An admin ends every session of an operator they manage (404 for one they do not). */
  async endOperatorSessions(operatorId: number, grantor: ClientScope = EVERY_CLIENT): Promise<void> {
    await this.get(operatorId, grantor);
    await this.endSessions(operatorId);
  }

  /** Self-service TOTP (the Account page): a step-up action, as an admin's setting it up for someone is. */
  async enableOwnTotp(principal: Principal): Promise<{ uri: string; recoveryCodes: string[] }> {
    requireStepUp(principal, this.clock.now(), this.config.stepUpMinutes);
    return this.enableTotp(principal.id);
  }

  async disableOwnTotp(principal: Principal): Promise<void> {
    requireStepUp(principal, this.clock.now(), this.config.stepUpMinutes);
    await this.disableTotp(principal.id);
  }

  /** The caller a session cookie names, if its session is live and its operator enabled; moves its idle clock. */
  async principalOf(token: string): Promise<Principal | null> {
    if (!token || token.length > 200) return null;
    const now = this.clock.now();
    const s = await this.sessions.findLive(hashSessionToken(token), now, this.idleMs);
    if (!s || s.disabled) return null;
    if (now.getTime() - s.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await this.sessions.touch(s.sessionId, now);
    return {
      kind: 'operator',
      id: s.operatorId,
      name: s.email,
      scopes: ROLE_SCOPES[s.role],
      clients: s.clients,
      expiresAt: s.expiresAt,
      secretHash: null,
      sessionId: s.sessionId,
      authenticatedAt: s.authenticatedAt,
    };
  }

  async signOut(operatorId: number, sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
    this.events.emit('operator.sessions.ended', { operatorId, sessionId });
  }

  /** Sessions past their end or idle limit (refused anyway) are deleted. */
  deleteStaleSessions(): Promise<number> {
    return this.sessions.deleteStale(this.clock.now(), this.idleMs);
  }

  private get idleMs(): number {
    return this.config.sessionIdleMinutes * 60_000;
  }

  private async endSessions(operatorId: number): Promise<void> {
    await this.sessions.deleteForOperator(operatorId);
    this.events.emit('operator.sessions.ended', { operatorId, sessionId: null });
  }

  /** A TOTP code (each time step once) or an unused recovery code (used up). */
  private async secondFactor(op: OperatorEntity, code: string): Promise<boolean> {
    const step = totpStep(op.totpSecret!, code.replace(/\s+/g, ''), this.clock.now());
    if (step !== null) return this.operators.acceptTotpStep(op.id, step);
    if (isRecoveryCode(code)) {
      const normal = code.includes('-') ? code : `${code.slice(0, 5)}-${code.slice(5)}`;
      return this.operators.useRecoveryCode(op.id, hashRecoveryCode(normal));
    }
    return false;
  }

  private async clientList(clients: readonly number[] | null | undefined, grantor: ClientScope): Promise<number[] | null> {
    if (clients === undefined || clients === null) {
      if (grantor === null) return null;
      throw fieldInvalid('clients', 'required: a caller limited to some clients may only make operators limited to some of them');
    }
    const ids = [...new Set(clients)];
    if (ids.length === 0) throw fieldInvalid('clients', 'must name at least one client (leave it out for every client)');
    const missing = new Set(await this.operators.missingClients(ids));
    const refused = ids.filter((id) => missing.has(id) || !inScope(grantor, id));
    if (refused.length > 0) throw fieldInvalid('clients', `no client with id ${refused.join(', ')}`);
    return ids.sort((a, b) => a - b);
  }
}

/** Whether a caller with these clients manages this operator: every one when unlimited, else those within its clients. */
function manages(grantor: ClientScope, op: OperatorEntity): boolean {
  return grantor === null || (op.clients !== null && op.clients.every((c) => grantor.includes(c)));
}

function operatorEmail(email: unknown): string {
  const clean = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (clean.length > MAX_EMAIL_LENGTH) throw fieldInvalid('email', `at most ${MAX_EMAIL_LENGTH} characters`);
  if (!/^[^\s@]+@[^\s@]+$/.test(clean)) throw fieldInvalid('email', 'must be an email address');
  return clean;
}

function operatorRole(role: unknown): OperatorRole {
  if (typeof role !== 'string' || !(OPERATOR_ROLES as readonly string[]).includes(role)) {
    throw fieldInvalid('role', `must be one of ${OPERATOR_ROLES.join(', ')}`);
  }
  return role as OperatorRole;
}

function operatorPassword(password: unknown): string {
  if (typeof password !== 'string' || password.length < MIN_OPERATOR_PASSWORD_LENGTH) {
    throw fieldInvalid('password', `at least ${MIN_OPERATOR_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) throw fieldInvalid('password', `at most ${MAX_PASSWORD_LENGTH} characters`);
  return password;
}

/** The platform's sign-in limits answer in its own format (AuthError 429): here, the management API's 429. */
export async function platformLimit(step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (err instanceof AuthError && err.headers['Retry-After']) {
      throw new DomainError(CommonErrorCode.RateLimited, 'rate limited', [], { 'Retry-After': err.headers['Retry-After'] });
    }
    throw err;
  }
}

/** A recovery code's shape (xxxxx-xxxxx, the dash optional); a TOTP code is 6 digits. */
const isRecoveryCode = (code: string): boolean => /^[0-9a-f]{5}-?[0-9a-f]{5}$/i.test(code);
