import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { OperatorEntity } from '@app/entities';
import { Clock } from '../../../common/clock';
import { DomainError, fieldInvalid, notFound } from '../../../common/errors/domain-error';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { RuntimeConfig } from '../../../config/runtime-config';
import { isUniqueViolation } from '../../../database/pg-errors';
import { SignInLimits } from '../../../platform/auth/signin-limits';
import { Principal, SignInAttempt } from '../../common/principal';
import { AuthChallengesRepository, ChallengePurpose } from '../operators/auth-challenges.repository';
import { ChallengeLimits } from '../operators/challenge-limits';
import { OperatorsErrorCode } from '../operators/operators.errors';
import { OperatorsRepository } from '../operators/operators.repository';
import { OperatorsService, platformLimit } from '../operators/operators.service';
import { PasskeyChallenge, PasskeySecondFactor, SecondFactors } from '../operators/second-factor';
import { MAX_PASSKEY_NAME } from './passkeys.dto';
import { Passkey, PasskeysRepository } from './passkeys.repository';
import { relyingParty, RelyingParty } from './relying-party';

/** A ceremony's challenge lives this long (the browser is told the same as its timeout). */
const CEREMONY_MS = 5 * 60_000;

export interface PasskeyAnswer {
  challenge_id?: unknown;
  response?: unknown;
}

export interface Ceremony {
  challengeId: string;
  options: Record<string, unknown>;
}

const invalidCredentials = (): DomainError => new DomainError(OperatorsErrorCode.InvalidCredentials, 'Invalid credentials');

/** The user handle a passkey is registered with (no e-mail in it: the authenticator keeps it). */
const userHandle = (operatorId: number): string => Buffer.from(`rmm-operator:${operatorId}`).toString('base64url');

/**
 * Passkeys (WebAuthn, docs/sso.md "Passkeys"): an operator registers some (discoverable, user verification
 * required), then signs in with one alone, uses one as the second factor of a password sign-in, or re-authenticates
 * (step-up) with one. Each ceremony's challenge is a row of auth_challenges, taken once within 5 minutes; the
 * authenticator's signature counter must increase (a cloned credential's lower one is refused).
 */
@Injectable()
export class PasskeysService implements PasskeySecondFactor, OnModuleInit {
  private readonly logger = new Logger('passkeys');
  private readonly limits: SignInLimits;

  constructor(
    private readonly passkeys: PasskeysRepository,
    private readonly challenges: AuthChallengesRepository,
    private readonly operatorsRepo: OperatorsRepository,
    private readonly operators: OperatorsService,
    private readonly secondFactors: SecondFactors,
    private readonly config: RuntimeConfig,
    private readonly clock: Clock,
    private readonly challengeLimits: ChallengeLimits,
    limiter: RateLimiter,
  ) {
    // The password sign-in's budget of failures per address (rmm:signin) counts passkey failures too.
    this.limits = new SignInLimits(limiter, config, 'rmm:signin');
  }

  onModuleInit(): void {
    this.secondFactors.register(this);
  }

  private get rp(): RelyingParty {
    return relyingParty(this.config.publicUrl);
  }

  // --- registration and the operator's list -------------------------------------------------------------------

  async registrationOptions(principal: Principal): Promise<Ceremony> {
    const op = await this.operators.get(principal.id);
    const existing = await this.passkeys.listForOperator(op.id);
    const rp = this.rp;
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: op.email,
      userDisplayName: op.email,
      userID: Buffer.from(userHandle(op.id), 'base64url'),
      attestationType: 'none',
      timeout: CEREMONY_MS,
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    return this.begin('passkey_register', op.id, principal.sessionId, options.challenge, options as unknown as Record<string, unknown>);
  }

  async register(principal: Principal, body: PasskeyAnswer & { name?: string }): Promise<Passkey> {
    const challenge = await this.take(body, 'passkey_register');
    if (!challenge || challenge.operatorId !== principal.id) {
      throw fieldInvalid('challenge_id', 'unknown, used or expired: start the registration again');
    }
    const rp = this.rp;
    const verification = await verifyRegistrationResponse({
      response: body.response as RegistrationResponseJSON,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    }).catch((err: unknown) => {
      throw fieldInvalid('response', `the passkey could not be verified: ${(err as Error).message}`);
    });
    if (!verification.verified) throw fieldInvalid('response', 'the passkey could not be verified');
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    const name = (body.name ?? '').trim().slice(0, MAX_PASSKEY_NAME) || 'Passkey';
    try {
      const saved = await this.passkeys.insert(
        {
          operatorId: principal.id,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports ?? [],
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          name,
        },
        this.clock.now(),
      );
      this.logger.log(`operator ${principal.id} registered passkey ${saved.id}`);
      return saved;
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldInvalid('response', 'this passkey is registered already');
      throw err;
    }
  }

  list(principal: Principal): Promise<Passkey[]> {
    return this.passkeys.listForOperator(principal.id);
  }

  async rename(principal: Principal, id: string, name: string): Promise<Passkey> {
    const clean = name.trim();
    if (!clean) throw fieldInvalid('name', 'must not be empty');
    const renamed = await this.passkeys.rename(id, principal.id, clean);
    if (!renamed) throw notFound();
    return renamed;
  }

  async remove(principal: Principal, id: string): Promise<void> {
    if (!(await this.passkeys.delete(id, principal.id))) throw notFound();
    this.logger.log(`operator ${principal.id} removed passkey ${id}`);
  }

  // --- a passkey alone (discoverable credential) --------------------------------------------------------------

  async signInOptions(address: string): Promise<Ceremony> {
    await platformLimit(() => this.limits.check('', address));
    await this.challengeLimits.admit(address);
    const options = await generateAuthenticationOptions({ rpID: this.rp.id, userVerification: 'required', timeout: CEREMONY_MS });
    return this.begin('passkey_sign_in', null, null, options.challenge, options as unknown as Record<string, unknown>);
  }

  /** Any failure is the same 401 'Invalid credentials' (the reason goes to the log), counted on the address. */
  async signIn(body: PasskeyAnswer, address: string, attempt: SignInAttempt, userAgent: string | null): Promise<{ operator: OperatorEntity; token: string; expiresAt: Date }> {
    attempt.method = 'passkey';
    await platformLimit(() => this.limits.check('', address));
    const challenge = await this.take(body, 'passkey_sign_in');
    const used = challenge ? await this.assert(challenge.challenge, body.response, null) : null;
    const op = used ? await this.operatorsRepo.findById(used.operatorId) : null;
    if (op) attempt.email = op.email;
    if (!challenge || !used || !op || op.disabled) {
      if (!challenge) this.logger.warn('passkey sign-in refused: unknown, used or expired challenge');
      else if (op?.disabled) this.logger.warn(`passkey sign-in refused: operator ${op.id} is disabled`);
      await platformLimit(() => this.limits.failed(address));
      throw invalidCredentials();
    }
    attempt.operator = { id: op.id, email: op.email };
    return this.operators.startSession(op, { method: 'passkey', address, userAgent });
  }

  // --- step-up ---------------------------------------------------------------------------------------------------

  async stepUpOptions(principal: Principal): Promise<Ceremony> {
    const { options, challengeId } = await this.ownCeremony(principal.id, 'passkey_step_up', principal.sessionId);
    return { options, challengeId };
  }

  async stepUp(principal: Principal, body: PasskeyAnswer): Promise<void> {
    const challenge = await this.take(body, 'passkey_step_up');
    const ok =
      challenge !== null &&
      challenge.operatorId === principal.id &&
      challenge.sessionId === principal.sessionId &&
      (await this.assert(challenge.challenge, body.response, principal.id)) !== null;
    if (!ok) throw invalidCredentials();
    await this.operators.reauthenticated(principal, 'passkey');
  }

  // --- the second factor of a password sign-in (PasskeySecondFactor) ---------------------------------------------

  has(operatorId: number): Promise<boolean> {
    return this.passkeys.hasAny(operatorId);
  }

  challenge(operatorId: number): Promise<PasskeyChallenge> {
    return this.ownCeremony(operatorId, 'passkey_second_factor', null);
  }

  async verify(operatorId: number, answer: PasskeyAnswer): Promise<boolean> {
    const challenge = await this.take(answer, 'passkey_second_factor');
    if (!challenge || challenge.operatorId !== operatorId) return false;
    return (await this.assert(challenge.challenge, answer.response, operatorId)) !== null;
  }

  // --- the ceremonies' common steps -------------------------------------------------------------------------------

  /** An authentication ceremony limited to the operator's own passkeys. */
  private async ownCeremony(operatorId: number, purpose: ChallengePurpose, sessionId: string | null): Promise<Ceremony> {
    const own = await this.passkeys.listForOperator(operatorId);
    if (own.length === 0) throw fieldInvalid('passkey', 'no passkey is registered for this operator');
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      userVerification: 'required',
      timeout: CEREMONY_MS,
      allowCredentials: own.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
    });
    return this.begin(purpose, operatorId, sessionId, options.challenge, options as unknown as Record<string, unknown>);
  }

  private async begin(purpose: ChallengePurpose, operatorId: number | null, sessionId: string | null, challenge: string, options: Record<string, unknown>): Promise<Ceremony> {
    const now = this.clock.now();
    await this.challenges.deleteExpired(now); // housekeeping at each ceremony's start
    const challengeId = await this.challenges.create({ purpose, operatorId, sessionId, payload: { challenge } }, new Date(now.getTime() + CEREMONY_MS));
    return { challengeId, options };
  }

  /** The answer's challenge, taken (deleted) whatever comes next: a replay finds nothing. */
  private async take(answer: PasskeyAnswer, purpose: ChallengePurpose): Promise<{ challenge: string; operatorId: number | null; sessionId: string | null } | null> {
    if (typeof answer.challenge_id !== 'string') return null;
    const c = await this.challenges.take(answer.challenge_id, purpose, this.clock.now());
    if (!c || typeof c.payload.challenge !== 'string') return null;
    return { challenge: c.payload.challenge, operatorId: c.operatorId, sessionId: c.sessionId };
  }

  /**
   * Verifies an assertion (origin, RP id, challenge, user presence and verification, signature, counter) against the
   * stored passkey it names, of `operatorId` when given, and notes its use with the new counter. null when refused.
   */
  private async assert(expectedChallenge: string, response: unknown, operatorId: number | null): Promise<Passkey | null> {
    const answer = response as AuthenticationResponseJSON | undefined;
    if (typeof answer?.id !== 'string' || answer.id.length > 1024) return null;
    const passkey = await this.passkeys.findByCredentialId(answer.id);
    if (!passkey || (operatorId !== null && passkey.operatorId !== operatorId)) {
      this.logger.warn('passkey assertion refused: unknown credential');
      return null;
    }
    const handle = answer.response?.userHandle;
    if (handle && handle !== userHandle(passkey.operatorId)) {
      this.logger.warn(`passkey assertion refused: user handle of another operator (passkey ${passkey.id})`);
      return null;
    }
    const rp = this.rp;
    try {
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response: answer,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports as AuthenticatorTransport[] },
      });
      if (!verified) throw new Error('not verified');
      if (!(await this.passkeys.used(passkey.id, authenticationInfo.newCounter, this.clock.now()))) throw new Error('the signature counter did not increase');
    } catch (err) {
      this.logger.warn(`passkey assertion refused (passkey ${passkey.id}): ${(err as Error).message}`);
      return null;
    }
    return passkey;
  }
}
