import { Injectable } from '@nestjs/common';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';

/** Sign-ins one address may begin per minute without being signed in (a passkey's options, a provider round trip). */
export const CHALLENGES_PER_MINUTE = 60;

/**
 * Anyone may begin a sign-in, and each beginning is a row in auth_challenges until it is used or expires: an address
 * that begins more than CHALLENGES_PER_MINUTE a minute is refused (429, Retry-After), so a loop cannot fill the table.
 */
@Injectable()
export class ChallengeLimits {
  constructor(private readonly limiter: RateLimiter) {}

  async admit(address: string): Promise<void> {
    const state = await this.limiter.hit(`rmm:challenge:${address}`, CHALLENGES_PER_MINUTE, 60_000);
    if (state.allowed) return;
    throw new DomainError(CommonErrorCode.RateLimited, 'rate limited', [], { 'Retry-After': String(Math.max(1, state.retryAfterSeconds)) });
  }
}
