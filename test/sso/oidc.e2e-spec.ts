import { FixedClock } from '../../apps/api/src/common/clock';
import { OperatorsService } from '../../apps/api/src/rmm/access/operators/operators.service';
import { createOperator, OPERATOR_PASSWORD } from '../utils/operators';
import { CookieBrowser, oidcSettings, startTestProvider, TestProvider } from '../utils/oidc-test-provider';
import { freePort } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { until } from '../utils/wait';

/**
 * Issue 33, OpenID Connect sign-in over real HTTP against a real provider (panva's oidc-provider in a child process,
 * test/utils/oidc-provider-process.mjs; its interaction page signs in the account the test chose). The refusals the
 * real provider cannot be made to produce (an ID token with another nonce, signed by another key, expired) come from
 * a hand-made issuer in the same script (jose-signed tokens), on a second app.
 */
const SECRET = 'rmm-test-client-secret-0123456789';
const CALLBACK = '/api/v3/auth/oidc/callback';

const accounts = {
  tech: { email: 'tech@idp.test', email_verified: true, name: 'Tess Tech', groups: ['rmm-techs', 'everyone'] },
  boss: { email: 'boss@idp.test', email_verified: true, groups: ['rmm-admins', 'rmm-techs'] },
  nobody: { email: 'nobody@idp.test', email_verified: true, groups: ['everyone'] },
  acme: { email: 'acme-tech@idp.test', email_verified: true, groups: 'rmm-techs-acme' },
  twin: { email: 'pw@msp.test', email_verified: true, groups: ['rmm-techs'] },
  unverified: { email: 'pw2@msp.test', email_verified: false, groups: ['rmm-techs'] },
  leaver: { email: 'leaver@idp.test', email_verified: true, groups: ['rmm-view'] },
};

describe('OpenID Connect sign-in (issue 33)', () => {
  let provider: TestProvider;
  let db: TestDatabase;
  let t: TestApp;
  let acme: number;
  let globex: number;
  const clock = new FixedClock(new Date());

  /** The whole dance as a browser does it: login → provider → interaction → back to the callback; returns the last answer. */
  async function dance(sub: string, path = '/api/v3/auth/oidc/login?return_to=/app/agents', browser = new CookieBrowser()) {
    await provider.signInNext(sub);
    const urls = await browser.follow(`${t.url}${path}`, (u) => u.startsWith(`${t.url}${CALLBACK}`));
    const callback = urls[urls.length - 1];
    const answer = await browser.get(callback);
    return { browser, callback, answer, session: browser.jar.get('rmm_session') };
  }
  const me = (session: string | undefined) => t.http.get('/api/v3/auth/me').set('Cookie', `rmm_session=${session}`);
  const operatorRow = async (email: string) =>
    (await sql<{ id: number; role: string; clients: number[] | null; oidc_subject: string | null; oidc_link_allowed: boolean }>(t.db.url, `SELECT id, role, clients, oidc_subject, oidc_link_allowed FROM operators WHERE email = $1`, [email]))[0];

  beforeAll(async () => {
    const port = await freePort();
    provider = await startTestProvider({
      clients: [
        {
          client_id: 'rmm',
          client_secret: SECRET,
          redirect_uris: [`http://127.0.0.1:${port}${CALLBACK}`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      accounts,
    });
    db = await createTestDatabase();
    [{ id: acme }, { id: globex }] = await sql<{ id: number }>(db.url, `INSERT INTO clients (name) VALUES ('Acme'), ('Globex') RETURNING id`);
    t = await startTestApp(
      { RMM_SESSION_IDLE_MINUTES: '1440' },
      { db, port, clock, overrides: {
          oidc: oidcSettings(provider.issuer, 'rmm', SECRET, {
            roleMap: new Map([
              ['rmm-admins', 'admin'],
              ['rmm-techs', 'technician'],
              ['rmm-view', 'viewer'],
              ['rmm-techs-acme', 'technician'],
            ]),
            clientMap: new Map([['rmm-techs-acme', [acme]]]),
            maxSessionHours: 8,
          }),
        },
      },
    );
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await provider?.close();
  });

  it('signs a user of rmm-techs in as a technician of every client, back on the page they came from', async () => {
    const { answer, session, browser } = await dance('tech');
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${t.url}/app/agents`);
    expect(browser.jar.has('rmm_oidc')).toBe(false); // the flight's cookie is cleared
    const res = await me(session);
    expect(res.status).toBe(200);
    expect(res.body.operator).toMatchObject({ email: 'tech@idp.test', role: 'technician', clients: null });
    const row = await operatorRow('tech@idp.test');
    expect(row.oidc_subject).toBe('tech');
    const [s] = await sql<{ method: string }>(t.db.url, `SELECT method FROM operator_sessions WHERE operator_id = $1`, [row.id]);
    expect(s.method).toBe('oidc');
    // audited, with the method and the address
    const audit = await until('the audit row', async () => (await sql<{ actor_name: string; outcome: string; client_address: string }>(t.db.url, `SELECT actor_name, outcome, client_address FROM audit_log WHERE action = 'GET /api/v3/auth/oidc/callback/' AND actor_name = 'tech@idp.test'`))[0]);
    expect(audit).toMatchObject({ outcome: '302 oidc', client_address: '127.0.0.1' });
    // the operators API shows the link
    const admin = await dance('boss');
    const list = await t.http.get('/api/v3/operators/').set('Cookie', `rmm_session=${admin.session}`);
    expect(list.body.find((o: { email: string }) => o.email === 'tech@idp.test')).toMatchObject({ sso: true, break_glass: false, role: 'technician' });
  });

  it('gives the highest mapped role (admin over technician)', async () => {
    const { session } = await dance('boss');
    expect((await me(session)).body.operator.role).toBe('admin');
  });

  it('refuses a user in no mapped group: no_access, no operator, no session, audited as a failure', async () => {
    const { answer, session } = await dance('nobody');
    expect(answer.location).toBe(`${t.url}/app/sign-in?error=no_access`);
    expect(session).toBeUndefined();
    expect(await operatorRow('nobody@idp.test')).toBeUndefined();
    await until('the refusal in the audit log', async () =>
      (await sql(t.db.url, `SELECT 1 FROM audit_log WHERE action = 'GET /api/v3/auth/oidc/callback/' AND actor_kind = 'anonymous' AND actor_name = 'nobody@idp.test' AND outcome = '302 oidc'`)).length === 1,
    );
  });

  it('limits a user of a client-mapped group (a single-string groups claim) to that client', async () => {
    const { session } = await dance('acme');
    expect((await me(session)).body.operator).toMatchObject({ role: 'technician', clients: [acme] });
    const clients = await t.http.get('/api/v3/clients/').set('Cookie', `rmm_session=${session}`);
    expect(clients.status).toBe(200);
    const names = (Array.isArray(clients.body) ? clients.body : clients.body.results).map((c: { name: string }) => c.name);
    expect(names).toEqual(['Acme']);
    expect(globex).toBeGreaterThan(0);
  });

  it('refuses a tampered state, and a callback without the browser\'s rmm_oidc cookie', async () => {
    await provider.signInNext('tech');
    const browser = new CookieBrowser();
    const urls = await browser.follow(`${t.url}/api/v3/auth/oidc/login`, (u) => u.startsWith(`${t.url}${CALLBACK}`));
    const callback = new URL(urls[urls.length - 1]);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const answer = await browser.get(tampered.href);
    expect(answer.location).toBe(`${t.url}/app/sign-in?error=state_mismatch`);
    expect(browser.jar.has('rmm_session')).toBe(false);
    // the untouched callback in another browser (no rmm_oidc cookie): refused too
    const other = await new CookieBrowser().get(callback.href);
    expect(other.location).toBe(`${t.url}/app/sign-in?error=state_mismatch`);
  });

  it('refuses a replayed code (the same callback twice, and the code under a fresh sign-in)', async () => {
    const first = await dance('tech');
    expect(first.session).toBeDefined();
    // the same callback again, same browser: the sign-in was taken once
    const again = await first.browser.get(first.callback);
    expect(again.location).toBe(`${t.url}/app/sign-in?error=state_mismatch`);
    // the used code with the state of a fresh sign-in in this browser: the provider refuses the code
    const fresh = new CookieBrowser();
    await provider.signInNext('tech');
    const urls = await fresh.follow(`${t.url}/api/v3/auth/oidc/login`, (u) => u.startsWith(`${t.url}${CALLBACK}`));
    const replay = new URL(urls[urls.length - 1]);
    replay.searchParams.set('code', new URL(first.callback).searchParams.get('code')!);
    const answer = await fresh.get(replay.href);
    expect(answer.location).toBe(`${t.url}/app/sign-in?error=oidc_failed`);
    expect(fresh.jar.has('rmm_session')).toBe(false);
    expect(t.logs.join('\n')).not.toContain(replay.searchParams.get('code')!);
  });

  it('does not take over a password operator with the same e-mail; links once an admin allowed it and the e-mail is verified', async () => {
    const pwId = await createOperator(t, 'pw@msp.test', 'viewer');
    await createOperator(t, 'pw2@msp.test', 'viewer');
    const refused = await dance('twin');
    expect(refused.answer.location).toBe(`${t.url}/app/sign-in?error=email_in_use`);
    expect(refused.session).toBeUndefined();
    expect(await operatorRow('pw@msp.test')).toMatchObject({ role: 'viewer', oidc_subject: null });

    // the admin allows it (operator link-oidc); an unverified e-mail still does not link
    const ops = t.server.app.get(OperatorsService);
    await ops.allowOidcLink((await ops.byEmail('pw2@msp.test')).id);
    expect((await dance('unverified')).answer.location).toBe(`${t.url}/app/sign-in?error=email_in_use`);
    expect(await operatorRow('pw2@msp.test')).toMatchObject({ oidc_subject: null, oidc_link_allowed: true });

    await ops.allowOidcLink(pwId);
    const linked = await dance('twin');
    expect(linked.answer.location).toBe(`${t.url}/app/agents`);
    expect((await me(linked.session)).body.operator).toMatchObject({ id: pwId, role: 'technician' });
    expect(await operatorRow('pw@msp.test')).toMatchObject({ oidc_subject: 'twin', oidc_link_allowed: false });
    // the password still works for the linked operator (RMM_PASSWORD_LOGIN is on here)
    expect((await t.http.post('/api/v3/auth/login').send({ email: 'pw@msp.test', password: OPERATOR_PASSWORD })).status).toBe(200);
  });

  it('re-reads the groups at every sign-in: a removed group takes effect at the next one', async () => {
    const first = await dance('leaver');
    expect((await me(first.session)).body.operator.role).toBe('viewer');
    await provider.setAccount('leaver', { ...accounts.leaver, groups: ['rmm-techs'] });
    expect((await me((await dance('leaver')).session)).body.operator.role).toBe('technician');
    await provider.setAccount('leaver', { ...accounts.leaver, groups: [] });
    const refused = await dance('leaver');
    expect(refused.answer.location).toBe(`${t.url}/app/sign-in?error=no_access`);
    expect(refused.session).toBeUndefined();
  });

  it('refuses a disabled operator', async () => {
    await dance('boss');
    const ops = t.server.app.get(OperatorsService);
    await provider.setAccount('dis', { email: 'dis@idp.test', email_verified: true, groups: ['rmm-view'] });
    await dance('dis');
    await ops.update((await ops.byEmail('dis@idp.test')).id, { disabled: true });
    const { answer, session } = await dance('dis');
    expect(answer.location).toBe(`${t.url}/app/sign-in?error=disabled`);
    expect(session).toBeUndefined();
  });

  it('makes one operator when the first two sign-ins of an account arrive at once', async () => {
    await provider.setAccount('racer', { email: 'racer@idp.test', email_verified: true, groups: ['rmm-view'] });
    const all = await Promise.all([1, 2, 3, 4].map(() => dance('racer')));
    expect(all.map((d) => d.answer.location)).toEqual(Array(4).fill(`${t.url}/app/agents`));
    expect(await sql(t.db.url, `SELECT id FROM operators WHERE email = 'racer@idp.test'`)).toHaveLength(1);
    const ids = await Promise.all(all.map(async (d) => (await me(d.session)).body.operator.id));
    expect(new Set(ids).size).toBe(1);
  });

  it('re-authenticates the current session with step_up=1 (max_age=0), only as the same provider account', async () => {
    const { browser, session } = await dance('tech');
    const op = await operatorRow('tech@idp.test');
    const sessionRow = async () =>
      (await sql<{ id: string; authenticated_at: Date }>(t.db.url, `SELECT id, authenticated_at FROM operator_sessions WHERE operator_id = $1 ORDER BY created_at DESC, id`, [op.id]));
    const before = await sessionRow();
    clock.advance(11 * 60_000);
    // another provider account in the round trip: refused, the session unchanged (a browser holding only the
    // console's cookie: the provider's own page to switch accounts posts a form, which this fetch client does not)
    const elsewhere = new CookieBrowser();
    elsewhere.jar.set('rmm_session', session!);
    const wrong = await dance('boss', '/api/v3/auth/oidc/login?step_up=1&return_to=/app/agents/7', elsewhere);
    expect(wrong.answer.location).toBe(`${t.url}/app/sign-in?error=step_up_mismatch`);
    expect(wrong.session).toBe(session);
    const right = await dance('tech', '/api/v3/auth/oidc/login?step_up=1&return_to=/app/agents/7', browser);
    expect(right.answer.location).toBe(`${t.url}/app/agents/7`);
    expect(right.session).toBe(session); // no new session: this one was re-authenticated
    const after = await sessionRow();
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    const current = after.find((r) => r.authenticated_at.getTime() === clock.now().getTime());
    expect(current).toBeDefined();
  });

  it('ends a provider session RMM_OIDC_MAX_SESSION_HOURS after sign-in (fixed clock)', async () => {
    const { session } = await dance('tech');
    clock.advance(7.5 * 3_600_000);
    expect((await me(session)).status).toBe(200);
    clock.advance(31 * 60_000);
    expect((await me(session)).status).toBe(401);
  });

  it('keeps return_to to console pages only', async () => {
    for (const bad of ['https://evil.example/app/', '//evil.example/app/', '/app/..\\evil', '/api/v3/keys/']) {
      const { answer } = await dance('tech', `/api/v3/auth/oidc/login?return_to=${encodeURIComponent(bad)}`);
      expect(answer.location).toBe(`${t.url}/app/`);
    }
  });
});

describe('OpenID Connect sign-in: ID tokens the real provider will not issue (a hand-made issuer)', () => {
  let fake: TestProvider;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startTestProvider({ fake: true, accounts: { tech: { email: 'tech@fake.test', email_verified: true, groups: ['rmm-techs'] } } });
    t = await startTestApp({}, { overrides: { oidc: oidcSettings(fake.issuer, 'rmm-fake', SECRET) } });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function signIn(): Promise<{ location: string | null; session: string | undefined }> {
    await fake.signInNext('tech');
    const browser = new CookieBrowser();
    const urls = await browser.follow(`${t.url}/api/v3/auth/oidc/login`);
    return { location: urls[urls.length - 1], session: browser.jar.get('rmm_session') };
  }

  it('accepts a good token from it (so the refusals below are about the token alone)', async () => {
    await fake.setMode('good');
    const { location, session } = await signIn();
    expect(location).toBe(`${t.url}/app/`);
    expect(session).toBeDefined();
  });

  it.each(['wrong_nonce', 'other_key', 'expired'] as const)('refuses an ID token with %s', async (mode) => {
    await fake.setMode(mode);
    const { location, session } = await signIn();
    expect(location).toBe(`${t.url}/app/sign-in?error=oidc_failed`);
    expect(session).toBeUndefined();
  });
});

describe('RMM_PASSWORD_LOGIN=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RMM_PASSWORD_LOGIN: 'false' });
  });
  afterAll(async () => t?.close());

  it('refuses a password sign-in except for a break-glass operator', async () => {
    const ops = t.server.app.get(OperatorsService);
    await ops.create({ email: 'plain@msp.test', password: OPERATOR_PASSWORD, role: 'admin' });
    await ops.create({ email: 'glass@msp.test', password: OPERATOR_PASSWORD, role: 'admin', breakGlass: true });
    const refused = await t.http.post('/api/v3/auth/login').send({ email: 'plain@msp.test', password: OPERATOR_PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.headers['set-cookie']).toBeUndefined();
    const ok = await t.http.post('/api/v3/auth/login').send({ email: 'glass@msp.test', password: OPERATOR_PASSWORD });
    expect(ok.status).toBe(200);
    expect((await t.http.get('/api/v3/auth/methods')).body).toMatchObject({ password: false, oidc: null });
  });

  it('answers the browser routes with error=not_configured when no provider is set', async () => {
    const res = await t.http.get('/api/v3/auth/oidc/login');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/app/sign-in?error=not_configured');
  });
});
