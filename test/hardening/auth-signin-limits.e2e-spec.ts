import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * Hardening: password guessing on POST /auth/v1/token?grant_type=password was unlimited (300 attempts in 30 s,
 * the right one accepted after 299 failures, with only the public anon key). Failed attempts are now limited
 * per account (10 per 5 minutes by default) and per client address (100), answered 429 in GoTrue's format.
 */
describe('/auth/v1 sign-in limits (failed attempts per account and per address)', () => {
  const ANON = 'anon-key-for-auth-limit-tests-0123456789';
  const SERVICE = 'service-key-for-auth-limit-tests-0123456789';
  const RATE_LIMITED = { code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' };

  const signInOn = (t: TestApp) => (email: string, password: string, headers: Record<string, string> = {}) =>
    t.http.post('/auth/v1/token?grant_type=password').set({ apikey: ANON, ...headers }).send({ email, password });

  const expectRateLimited = (res: { status: number; body: unknown; headers: Record<string, string> }) => {
    expect(res.status).toBe(429);
    expect(res.body).toEqual(RATE_LIMITED);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    const seconds = Number(res.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(300);
  };

  describe('per account (defaults: 10 failures per 5 minutes)', () => {
    let t: TestApp;
    let signIn: ReturnType<typeof signInOn>;

    beforeAll(async () => {
      t = await startTestApp({ DATA_ANON_KEY: ANON, DATA_SERVICE_ROLE_KEY: SERVICE });
      signIn = signInOn(t);
      const users = t.server.app.get(UsersService);
      for (const email of ['ann@acme.test', 'bob@acme.test', 'carol@acme.test']) await users.create({ email, password: `${email}-password` });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('answers 429 with Retry-After after 10 failed attempts, even for the right password', async () => {
      // The account is the normalised address: case and spaces do not make a new one.
      const spellings = ['ann@acme.test', 'ANN@acme.test', ' Ann@Acme.Test '];
      for (let i = 0; i < 10; i++) {
        const res = await signIn(spellings[i % 3], `guess-${i}`);
        expect(res.status).toBe(400);
        expect(res.body.error_code).toBe('invalid_credentials');
      }
      expectRateLimited(await signIn('ann@acme.test', 'ann@acme.test-password'));
      expectRateLimited(await signIn('ann@acme.test', 'guess-11'));

      const versioned = await signIn('ann@acme.test', 'ann@acme.test-password', { 'X-Supabase-Api-Version': '2024-01-01' });
      expect(versioned.status).toBe(429);
      expect(versioned.body).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });
      expect(versioned.headers['retry-after']).toMatch(/^\d+$/);

      // Another account from the same address is not affected.
      expect((await signIn('bob@acme.test', 'bob@acme.test-password')).status).toBe(200);
    });

    it('treats an unknown e-mail exactly as a known one, so the limit does not reveal which accounts exist', async () => {
      const answers: Array<{ status: number; body: unknown }> = [];
      for (let i = 0; i < 11; i++) {
        const res = await signIn('nobody@acme.test', `guess-${i}`);
        answers.push({ status: res.status, body: res.body });
      }
      expect(answers.slice(0, 10).every((a) => a.status === 400)).toBe(true);
      expect(answers[10]).toEqual({ status: 429, body: RATE_LIMITED });
      expectRateLimited(await signIn('nobody@acme.test', 'anything'));
    });

    it('a successful sign-in under the limit clears the account’s failures', async () => {
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 9; i++) expect((await signIn('carol@acme.test', `guess-${round}-${i}`)).status).toBe(400);
        expect((await signIn('carol@acme.test', 'carol@acme.test-password')).status).toBe(200);
      }
      for (let i = 0; i < 10; i++) expect((await signIn('carol@acme.test', `again-${i}`)).status).toBe(400);
      expectRateLimited(await signIn('carol@acme.test', 'carol@acme.test-password'));
    });
  });

  describe('per client address', () => {
    let t: TestApp;
    let signIn: ReturnType<typeof signInOn>;

    beforeAll(async () => {
      t = await startTestApp({ DATA_ANON_KEY: ANON, DATA_SERVICE_ROLE_KEY: SERVICE, AUTH_FAILED_SIGNINS_PER_ADDRESS: '5' });
      signIn = signInOn(t);
      await t.server.app.get(UsersService).create({ email: 'dave@acme.test', password: 'dave-password' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('refuses every account from an address past its failures, and does not trust X-Forwarded-For (no proxy is configured)', async () => {
      // A successful sign-in does not use up the address's budget.
      expect((await signIn('dave@acme.test', 'dave-password')).status).toBe(200);
      for (let i = 0; i < 5; i++) {
        const res = await signIn(`spray-${i}@acme.test`, 'Winter2026!', { 'X-Forwarded-For': `198.51.100.${i}` });
        expect(res.status).toBe(400);
      }
      expectRateLimited(await signIn('dave@acme.test', 'dave-password'));
      expectRateLimited(await signIn('dave@acme.test', 'dave-password', { 'X-Forwarded-For': '203.0.113.7' }));
      expectRateLimited(await signIn('spray-9@acme.test', 'Winter2026!', { 'X-Real-IP': '203.0.113.8' }));
    });
  });
});
