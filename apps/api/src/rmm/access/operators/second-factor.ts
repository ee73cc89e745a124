import { Injectable } from '@nestjs/common';
import { DomainError } from '../../../common/errors/domain-error';
import { OperatorsErrorCode } from './operators.errors';

/** A passkey ceremony the sign-in page runs as the second factor: the browser's options and the challenge's id. */
export interface PasskeyChallenge {
  challengeId: string;
  options: unknown;
}

/**
 * Passkeys as the second factor of a password sign-in (docs/sso.md, "Passkeys"). Implemented by the passkeys
 * feature (access/passkeys), which registers itself in SecondFactors: operators never import passkeys (no cycle).
 */
export interface PasskeySecondFactor {
  /** Whether the operator has registered a passkey (then one is asked at password sign-in). */
  has(operatorId: number): Promise<boolean>;
  /** A new authentication ceremony limited to the operator's passkeys. */
  challenge(operatorId: number): Promise<PasskeyChallenge>;
  /** Whether the browser's answer is a valid assertion of one of the operator's passkeys for that challenge (taken once). */
  verify(operatorId: number, answer: { challenge_id?: unknown; response?: unknown }): Promise<boolean>;
}

/** Where the second factors other than TOTP register themselves (today: passkeys). */
@Injectable()
export class SecondFactors {
  private passkeyFactor: PasskeySecondFactor | null = null;

  register(passkeys: PasskeySecondFactor): void {
    this.passkeyFactor = passkeys;
  }

  get passkeys(): PasskeySecondFactor | null {
    return this.passkeyFactor;
  }
}

/**
 * 401 {detail: 'Invalid credentials', totp_required?, passkey_required: true, passkey_options, challenge_id}: the
 * password was right and the operator has passkeys (rmm-error.surface.ts renders it).
 */
export class PasskeyRequiredError extends DomainError<OperatorsErrorCode> {
  constructor(
    readonly totpRequired: boolean,
    readonly challenge: PasskeyChallenge,
  ) {
    super(OperatorsErrorCode.PasskeyRequired, 'Invalid credentials');
  }
}
