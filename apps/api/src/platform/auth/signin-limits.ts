import { createHash } from 'node:crypto';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { AuthError, AuthErrorCode } from '../common/platform-errors';

export interface SignInLimitConfig {
  authFailedSigninsPerAccount: number;
  authFailedSigninsPerAddress: number;
  authFailedSigninWindowSeconds: number;
}

/** GoTrue's answer past a rate limit: 429 over_request_rate_limit, with Retry-After. */
export const overRateLimit = (retryAfterSeconds: number): AuthError =>
  new AuthError(AuthErrorCode.OverRequestRateLimit, 'Request rate limit reached', [], { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });

/**
 * Failed password sign-ins, per account and per client address, in fixed windows (RateLimiter: this process,
 * or Redis shared by every instance). Past either limit every attempt is refused before its password is
 * checked, the right one included, until the window ends. The account is the e-mail as typed (normalised),
 * whether or not a user has it, so the refusals say nothing about which accounts exist; it is stored hashed.
 *
 * The account counts attempts (counted just before the password is checked, when the attempt holds a hashing
 * slot; a success clears it), so concurrent guesses cannot all slip under the limit; the address counts
 * failures only, so the sign-ins of many users behind one address do not use up its budget.
 */
export class SignInLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly config: SignInLimitConfig,
    /** Whose sign-ins: the data platform's users (`auth:signin`) or the console's operators (`rmm:signin`). */
    private readonly prefix = 'auth:signin',
  ) {}

  private get windowMs(): number {
    return this.config.authFailedSigninWindowSeconds * 1000;
  }

  private accountBucket(email: string): string {
    return `${this.prefix}:account:${createHash('sha256').update(email).digest('base64url')}`;
  }

  private addressBucket(address: string): string {
    return `${this.prefix}:address:${address}`;
  }

  /** Before anything else: refuses when the address or the account has used up its failures. Counts nothing. */
  async check(email: string, address: string): Promise<void> {
    const [byAddress, byAccount] = await Promise.all([
      this.limiter.peek(this.addressBucket(address), this.config.authFailedSigninsPerAddress),
      this.limiter.peek(this.accountBucket(email), this.config.authFailedSigninsPerAccount),
    ]);
    if (byAddress.count >= this.config.authFailedSigninsPerAddress) throw overRateLimit(byAddress.retryAfterSeconds);
    if (byAccount.count >= this.config.authFailedSigninsPerAccount) throw overRateLimit(byAccount.retryAfterSeconds);
  }

  /** Just before the password is checked: counts the attempt on the account, refusing it past the limit. */
  async admit(email: string): Promise<void> {
    const state = await this.limiter.hit(this.accountBucket(email), this.config.authFailedSigninsPerAccount, this.windowMs);
    if (!state.allowed) throw overRateLimit(state.retryAfterSeconds);
  }

  /** A wrong password or unknown account: counts on the address (the account counted it in admit). */
  async failed(address: string): Promise<void> {
    await this.limiter.hit(this.addressBucket(address), this.config.authFailedSigninsPerAddress, this.windowMs);
  }

  /** A successful sign-in clears the account's count. */
  async succeeded(email: string): Promise<void> {
    await this.limiter.reset(this.accountBucket(email));
  }
}
