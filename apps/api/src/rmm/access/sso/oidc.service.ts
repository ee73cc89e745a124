import { Injectable, Logger } from '@nestjs/common';
import { OperatorEntity } from '@app/entities';
import { Clock } from '../../../common/clock';
import { RuntimeConfig } from '../../../config/runtime-config';
import { isUniqueViolation } from '../../../database/pg-errors';
import type { Principal, SignInAttempt } from '../../common/principal';
import { AuthChallengesRepository } from '../operators/auth-challenges.repository';
import { ChallengeLimits, CHALLENGES_PER_MINUTE } from '../operators/challenge-limits';
import { OperatorsService } from '../operators/operators.service';
import { OidcAccountsRepository } from './oidc-accounts.repository';
import { OidcClient, OidcFlight, OidcIdentity } from './oidc-client';
import { groupsOf, mapGroups, OidcFailure, safeReturnTo } from './oidc-mapping';

/** How long a sign-in at the provider may take (the challenge row and the rmm_oidc cookie). */
export const OIDC_FLIGHT_SECONDS = 600;

export interface OidcStart {
  /** The provider's authorization URL (302 there). */
  url: string;
  /** The auth_challenges id: the rmm_oidc cookie's value. */
  challengeId: string;
}

export type OidcOutcome =
  | { kind: 'session'; token: string; maxAgeSeconds: number; returnTo: string }
  | { kind: 'reauthenticated'; returnTo: string };

interface CallbackInput {
  query: string;
  params: Record<string, unknown>;
  challengeId: string | undefined;
  /** The request's rmm_session token (step-up), if any. */
  sessionToken: string | undefined;
  address: string;
  userAgent: string | null;
}

/**
 * Sign-in through the OpenID provider (docs/sso.md): the round trip (state, nonce and PKCE verifier kept in
 * auth_challenges, taken once), then who the provider account is here: found by (issuer, sub); else linked to the
 * operator with its e-mail only when the provider verified the e-mail and an admin allowed it; else made just in
 * time. The groups decide the role and clients at every sign-in; no mapped group, no access.
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger('oidc');

  constructor(
    private readonly client: OidcClient,
    private readonly challenges: AuthChallengesRepository,
    private readonly accounts: OidcAccountsRepository,
    private readonly operators: OperatorsService,
    private readonly config: RuntimeConfig,
    private readonly clock: Clock,
    private readonly challengeLimits: ChallengeLimits,
  ) {}

  /** GET /api/v3/auth/oidc/login: the provider's URL and the challenge; with `stepUp` and a session, a re-authentication of it. */
  async start(returnTo: unknown, stepUp: boolean, sessionToken: string | undefined, address: string): Promise<OidcStart> {
    if (!this.config.oidc) throw new OidcFailure('not_configured');
    await this.challengeLimits.admit(address).catch(() => {
      throw new OidcFailure('rate_limited', `more than ${CHALLENGES_PER_MINUTE} sign-ins begun from ${address} in a minute`);
    });
    const principal = stepUp ? await this.sessionOf(sessionToken) : null;
    const session = principal?.sessionId ? principal : null;
    const { url, flight } = await this.client.authorizationUrl({ maxAgeZero: session !== null }).catch((err: unknown) => {
      throw new OidcFailure('oidc_failed', `discovery failed: ${describe(err)}`);
    });
    const now = this.clock.now();
    await this.challenges.deleteExpired(now); // housekeeping at each start: abandoned sign-ins do not pile up
    const challengeId = await this.challenges.create(
      { purpose: 'oidc', operatorId: session?.id ?? null, sessionId: session?.sessionId ?? null, payload: { ...flight, returnTo: safeReturnTo(returnTo) } },
      new Date(now.getTime() + OIDC_FLIGHT_SECONDS * 1000),
    );
    return { url, challengeId };
  }

  /** GET /api/v3/auth/oidc/callback: a new session (or the step-up of the current one), else an OidcFailure. */
  async callback(input: CallbackInput, attempt: SignInAttempt): Promise<OidcOutcome> {
    const oidc = this.config.oidc;
    if (!oidc) throw new OidcFailure('not_configured');
    const challenge = input.challengeId ? await this.challenges.take(input.challengeId, 'oidc', this.clock.now()) : null;
    if (!challenge) throw new OidcFailure('state_mismatch', input.challengeId ? 'no live sign-in for the rmm_oidc cookie (used, expired or unknown)' : 'no rmm_oidc cookie');
    const payload = challenge.payload as unknown as OidcFlight & { returnTo: string };
    if (typeof input.params.state !== 'string' || input.params.state !== payload.state) throw new OidcFailure('state_mismatch', 'the state does not match the sign-in begun in this browser');
    if (typeof input.params.error === 'string') throw new OidcFailure('provider_refused', `the provider answered error=${input.params.error.slice(0, 64)}`);
    const stepUp = challenge.sessionId !== null;
    let identity: OidcIdentity;
    try {
      identity = await this.client.finish(input.query, payload, stepUp);
    } catch (err) {
      if (err instanceof OidcFailure) throw err;
      throw new OidcFailure('oidc_failed', describe(err));
    }
    attempt.email = identity.email;
    const mapped = mapGroups(groupsOf(identity.groupsClaim), oidc);

    if (stepUp) {
      const op = await this.accounts.findBySubject(identity.issuer, identity.subject);
      const p = await this.sessionOf(input.sessionToken);
      if (!op || !p || op.id !== challenge.operatorId || p.id !== op.id || p.sessionId !== challenge.sessionId) {
        throw new OidcFailure('step_up_mismatch', 'the provider account is not the signed-in operator, or the session changed');
      }
      if (op.disabled) throw new OidcFailure('disabled', `operator ${op.id} is disabled`);
      if (!mapped.role) throw new OidcFailure('no_access', `operator ${op.id} is in no mapped group`);
      attempt.operator = { id: op.id, email: op.email };
      await this.operators.reauthenticated(p, 'oidc');
      return { kind: 'reauthenticated', returnTo: payload.returnTo };
    }

    const op = await this.operatorFor(identity, mapped.role);
    attempt.operator = { id: op.id, email: op.email };
    if (op.disabled) throw new OidcFailure('disabled', `operator ${op.id} is disabled`);
    if (!mapped.role) throw new OidcFailure('no_access', `operator ${op.id} is in no mapped group`);
    const clients = mapped.clients === null ? null : await this.accounts.existingClients(mapped.clients);
    await this.accounts.applyMapping(op.id, mapped.role, clients);
    const { token } = await this.operators.startSession(
      { ...op, role: mapped.role, clients },
      { method: 'oidc', address: input.address, userAgent: input.userAgent },
      oidc.maxSessionHours,
    );
    return { kind: 'session', token, maxAgeSeconds: oidc.maxSessionHours * 3600, returnTo: payload.returnTo };
  }

  /** Logs why a sign-in failed (never a token or secret) and gives the code for the sign-in page's URL. */
  failureCode(err: unknown): string {
    if (err instanceof OidcFailure) {
      this.logger.warn(`provider sign-in refused: ${err.code}${err.reason ? ` (${err.reason})` : ''}`);
      return err.code;
    }
    this.logger.error(`provider sign-in failed: ${describe(err)}`);
    return 'oidc_failed';
  }

  private async sessionOf(token: string | undefined): Promise<Principal | null> {
    return token ? this.operators.principalOf(token) : null;
  }

  /** The operator this provider account is: linked, linkable (verified e-mail + allowed), or new (only with a role). */
  private async operatorFor(id: OidcIdentity, role: string | null, retried = false): Promise<OperatorEntity> {
    const linked = await this.accounts.findBySubject(id.issuer, id.subject);
    if (linked) return linked;
    if (!id.email) throw new OidcFailure(role ? 'no_email' : 'no_access', 'the ID token has no email claim');
    const same = await this.accounts.findByEmail(id.email);
    if (same) {
      // Made for this very account by a sign-in that ran at the same time, between the two look-ups.
      if (same.oidcIssuer === id.issuer && same.oidcSubject === id.subject) return same;
      if (!id.emailVerified || !same.oidcLinkAllowed || same.oidcSubject !== null) {
        throw new OidcFailure('email_in_use', `operator ${same.id} has this e-mail; not linked (email_verified: ${id.emailVerified}, link allowed: ${same.oidcLinkAllowed})`);
      }
      if (!role) throw new OidcFailure('no_access', `operator ${same.id} would be linked, but the account is in no mapped group`);
      if (await this.accounts.link(same.id, id.issuer, id.subject)) {
        this.logger.log(`operator ${same.id} linked to a provider account`);
        return { ...same, oidcIssuer: id.issuer, oidcSubject: id.subject, oidcLinkAllowed: false };
      }
      if (retried) throw new OidcFailure('email_in_use', `operator ${same.id} could not be linked`);
      return this.operatorFor(id, role, true); // another sign-in linked it a moment ago
    }
    // Nothing is made for someone who would have no access.
    if (!role) throw new OidcFailure('no_access', 'a new provider account in no mapped group');
    try {
      const op = await this.accounts.create({ email: id.email, issuer: id.issuer, subject: id.subject, role: role as OperatorEntity['role'], clients: null });
      this.logger.log(`operator ${op.id} created at first provider sign-in`);
      return op;
    } catch (err) {
      // Two first sign-ins at once: the other one made the row (same sub), or took the e-mail.
      if (!isUniqueViolation(err) || retried) throw err;
      return this.operatorFor(id, role, true);
    }
  }
}

/** An error as a log line: the library's code and message (openid-client's never hold a token or the secret). */
function describe(err: unknown): string {
  const e = err as { code?: unknown; error?: unknown; message?: unknown };
  const parts = [typeof e?.code === 'string' ? e.code : null, typeof e?.error === 'string' ? e.error : null, typeof e?.message === 'string' ? e.message.slice(0, 300) : String(err).slice(0, 300)];
  return parts.filter(Boolean).join(': ');
}
