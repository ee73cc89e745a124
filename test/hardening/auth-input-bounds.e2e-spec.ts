import { startTestApp, TestApp } from '../utils/test-app';

/**
 * Hardening: POST /auth/v1/admin/users with a 100,000-deep user_metadata answered 500. user_metadata is bounded
 * (8 levels, 16 KiB of JSON), the e-mail (254 characters) and the password (1024: argon2 reads all of it) too,
 * each refused with 400 validation_failed in GoTrue's format.
 */
describe('/auth/v1 input bounds', () => {
  const ANON = 'anon-key-for-auth-bounds-tests-0123456789';
  const SERVICE = 'service-key-for-auth-bounds-tests-0123456789';
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ DATA_ANON_KEY: ANON, DATA_SERVICE_ROLE_KEY: SERVICE });
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: unknown, headers: Record<string, string> = {}) =>
    t.http.post('/auth/v1/admin/users').set({ apikey: SERVICE, Authorization: `Bearer ${SERVICE}`, ...headers }).send(body as object);
  const signIn = (email: string, password: string) => t.http.post('/auth/v1/token?grant_type=password').set('apikey', ANON).send({ email, password });

  /** `{a: {a: … {}}}` with `levels` objects in all (user_metadata itself is level 1). */
  const nested = (levels: number): Record<string, unknown> => {
    let v: Record<string, unknown> = { leaf: true };
    for (let i = 1; i < levels; i++) v = { a: v };
    return v;
  };

  it('refuses user_metadata nested deeper than 8 levels (400 validation_failed), and takes 8', async () => {
    const deep = await create({ email: 'deep@acme.test', password: 'deep-password', user_metadata: nested(20) });
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({ code: 400, error_code: 'validation_failed', msg: 'user_metadata must not nest deeper than 8 levels' });
    const nine = await create({ email: 'nine@acme.test', password: 'nine-password', user_metadata: nested(9) });
    expect(nine.status).toBe(400);
    const versioned = await create({ email: 'deep@acme.test', password: 'deep-password', user_metadata: nested(20) }, { 'X-Supabase-Api-Version': '2024-01-01' });
    expect(versioned.body).toEqual({ code: 'validation_failed', message: 'user_metadata must not nest deeper than 8 levels' });

    const eight = await create({ email: 'eight@acme.test', password: 'eight-password', user_metadata: nested(8) });
    expect(eight.status).toBe(200);
    expect(eight.body.user_metadata).toEqual(nested(8));
  });

  // Sizes stay under the HTTP layer's own body limit for /auth/v1 (64 KiB), so the service's bound is what answers.
  it('refuses user_metadata over 16 KiB of JSON (a 40 KB flat object), and takes one just under', async () => {
    const flat = Object.fromEntries(Array.from({ length: 800 }, (_, i) => [`key_${i}`, 'v'.repeat(40)]));
    expect(JSON.stringify(flat).length).toBeGreaterThan(40_000);
    expect(JSON.stringify(flat).length).toBeLessThan(60_000);
    const big = await create({ email: 'big@acme.test', password: 'big-password', user_metadata: flat });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ code: 400, error_code: 'validation_failed', msg: 'user_metadata must not be larger than 16384 bytes as JSON' });

    const justUnder = { note: 'n'.repeat(16 * 1024 - JSON.stringify({ note: '' }).length) };
    const ok = await create({ email: 'under@acme.test', password: 'under-password', user_metadata: justUnder });
    expect(ok.status).toBe(200);
  });

  it('answers a 100,000-deep user_metadata with a 4xx in GoTrue format, never a 500', async () => {
    // Refused by the HTTP layer (body size or depth) or by the service's bound: which one is not this test's business.
    const body = `{"email":"abyss@acme.test","password":"abyss-password","user_metadata":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    const res = await create(body, { 'Content-Type': 'application/json' });
    expect([400, 413, 422]).toContain(res.status);
    expect(res.body).toMatchObject({ code: res.status, error_code: expect.any(String), msg: expect.any(String) });
    expect((await t.http.get('/auth/v1/admin/users?per_page=1000').set({ apikey: SERVICE, Authorization: `Bearer ${SERVICE}` })).body.users).not.toContainEqual(
      expect.objectContaining({ email: 'abyss@acme.test' }),
    );
  });

  it('refuses an e-mail over 254 characters and a password over 1024 characters; 254 and 1024 are taken', async () => {
    const local = (n: number) => 'a'.repeat(n - '@acme.test'.length);
    const longEmail = await create({ email: `${local(255)}@acme.test`, password: 'long-email-password' });
    expect(longEmail.status).toBe(400);
    expect(longEmail.body).toMatchObject({ code: 400, error_code: 'validation_failed' });

    const longPassword = await create({ email: 'longpw@acme.test', password: 'p'.repeat(1025) });
    expect(longPassword.status).toBe(400);
    expect(longPassword.body).toEqual({ code: 400, error_code: 'validation_failed', msg: 'Password cannot be longer than 1024 characters' });
    const huge = await create({ email: 'hugepw@acme.test', password: 'p'.repeat(60_000) });
    expect(huge.status).toBe(400);
    expect(huge.body.error_code).toBe('validation_failed');

    const maxEmail = `${local(254)}@acme.test`;
    expect(maxEmail).toHaveLength(254);
    expect((await create({ email: maxEmail, password: 'q'.repeat(1024) })).status).toBe(200);
    expect((await signIn(maxEmail, 'q'.repeat(1024))).status).toBe(200);
  });

  it('answers a sign-in with an over-long password or e-mail 400 invalid_credentials without hashing it', async () => {
    const started = Date.now();
    const res = await signIn('eight@acme.test', 'x'.repeat(60_000));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
    expect(Date.now() - started).toBeLessThan(2000);
    const longEmail = await signIn(`${'b'.repeat(300)}@acme.test`, 'whatever');
    expect(longEmail.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
  });
});
