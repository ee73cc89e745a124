import { DomainError } from '../../common/errors/domain-error';
import { MemoryRateLimiter } from '../../common/rate-limit/rate-limiter';
import { AuthErrorCode } from '../common/platform-errors';
import { SignInLimits } from './signin-limits';

describe('SignInLimits (failed sign-ins per account and per address)', () => {
  const config = { authFailedSigninsPerAccount: 3, authFailedSigninsPerAddress: 5, authFailedSigninWindowSeconds: 300 };
  let limiter: MemoryRateLimiter;
  let limits: SignInLimits;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z') });
    limiter = new MemoryRateLimiter();
    limits = new SignInLimits(limiter, config);
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  /** One failed attempt as the auth service makes it. */
  const fail = async (email: string, address: string) => {
    await limits.check(email, address);
    await limits.admit(email);
    await limits.failed(address);
  };
  const refusal = async (p: Promise<unknown>): Promise<DomainError> => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  };

  it('refuses the account after its limit, with Retry-After the rest of the window, until the window ends', async () => {
    for (let i = 0; i < 3; i++) await fail('ann@acme.test', '10.0.0.1');
    jest.advanceTimersByTime(100_000);
    const err = await refusal(limits.check('ann@acme.test', '10.0.0.2'));
    expect(err.code).toBe(AuthErrorCode.OverRequestRateLimit);
    expect(err.headers).toEqual({ 'Retry-After': '200' });
    await expect(limits.check('bob@acme.test', '10.0.0.1')).resolves.toBeUndefined();
    jest.advanceTimersByTime(200_000);
    await expect(limits.check('ann@acme.test', '10.0.0.2')).resolves.toBeUndefined();
  });

  it('counts the attempt on admission, so concurrent attempts that all passed the check cannot exceed the limit', async () => {
    await Promise.all([1, 2, 3].map(() => limits.check('ann@acme.test', 'a')));
    await limits.admit('ann@acme.test');
    await limits.admit('ann@acme.test');
    await limits.admit('ann@acme.test');
    expect((await refusal(limits.admit('ann@acme.test'))).code).toBe(AuthErrorCode.OverRequestRateLimit);
  });

  it('a success clears the account (not the address)', async () => {
    await fail('ann@acme.test', 'a');
    await fail('ann@acme.test', 'a');
    await limits.succeeded('ann@acme.test');
    await fail('ann@acme.test', 'a');
    await fail('ann@acme.test', 'a');
    await expect(limits.check('ann@acme.test', 'a')).resolves.toBeUndefined();
    await fail('ann@acme.test', 'a');
    expect((await refusal(limits.check('ann@acme.test', 'b'))).code).toBe(AuthErrorCode.OverRequestRateLimit);
    // five failures from address a in all: it is refused too, whatever the account
    expect((await refusal(limits.check('carol@acme.test', 'a'))).code).toBe(AuthErrorCode.OverRequestRateLimit);
  });

  it('refuses the address after its limit, across accounts', async () => {
    for (let i = 0; i < 5; i++) await fail(`user${i}@acme.test`, '10.0.0.9');
    expect((await refusal(limits.check('new@acme.test', '10.0.0.9'))).headers['Retry-After']).toBe('300');
    await expect(limits.check('new@acme.test', '10.0.0.10')).resolves.toBeUndefined();
  });
});
