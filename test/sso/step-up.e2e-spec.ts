import { FixedClock } from '../../apps/api/src/common/clock';
import { FakeAgent } from '../utils/fake-agent';
import { CONSOLE, createOperator, OPERATOR_PASSWORD, signIn } from '../utils/operators';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * Issue 33, step-up: dangerous actions (a terminal, an API key, an operator's change, a notification channel's
 * secrets) need a session that authenticated within RMM_STEP_UP_MINUTES (10); an older one gets 401 {step_up: true},
 * re-authenticates with POST /api/v3/auth/reauth and goes on. API keys are never asked.
 */
const ADMIN_KEY = 'step-up-e2e-admin-key-0123456789abcdef';
const admin = { 'X-API-KEY': ADMIN_KEY };
const TECH = 'tech@step-up.test';
const BOSS = 'boss@step-up.test';
const MINUTE = 60_000;
const STEP_UP = { detail: 're-authentication required', step_up: true };

describe('step-up for dangerous actions (issue 33)', () => {
  let t: TestApp;
  let clock: FixedClock;
  let agentId: string;
  let agent: FakeAgent;

  beforeAll(async () => {
    clock = new FixedClock(new Date('2026-12-07T09:00:00Z'));
    // The fake agent sends no heartbeat: the silence sweep (by the same clock) must not drop it while minutes pass.
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_AGENT_OFFLINE_AFTER_SECONDS: '86400', RMM_AGENT_OVERDUE_AFTER_SECONDS: '2592000' }, { clock });
    await createOperator(t, TECH, 'technician');
    await createOperator(t, BOSS, 'admin');
    const tenant = await createTenant(t, 'Step-up Co');
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'step-up-01', plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    agentId = String(r.body.agent_id);
    agent = await FakeAgent.connect(t.url, r.body.agent_id, r.body.agent_secret);
  });
  afterAll(async () => {
    agent?.ws.terminate();
    await t?.close();
  });

  const openTerminal = (cookie: string) => t.http.post(`/api/v3/agents/${agentId}/terminal/`).set('Cookie', cookie).set(CONSOLE).send({ cols: 80, rows: 24 });
  const newKey = (cookie: string) => t.http.post('/api/v3/keys/').set('Cookie', cookie).set(CONSOLE).send({ name: `k-${Math.random().toString(36).slice(2, 8)}`, scopes: ['agents:read'] });

  it('asks a technician who signed in 11 minutes ago to re-authenticate before a terminal, and lets them in after', async () => {
    const cookie = await signIn(t, TECH);
    clock.advance(11 * MINUTE);
    const refused = await openTerminal(cookie);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(STEP_UP);
    // The session itself is still good (a step-up is not a sign-out).
    expect((await t.http.get('/api/v3/auth/me').set('Cookie', cookie)).status).toBe(200);

    const reauth = await t.http.post('/api/v3/auth/reauth').set('Cookie', cookie).set(CONSOLE).send({ password: OPERATOR_PASSWORD });
    expect(reauth.status).toBe(204);
    const opened = await openTerminal(cookie);
    expect(opened.status).toBe(201);
    expect(opened.body.url).toBe(`/rmm/terminal/${opened.body.session_id}/`);
    const me = await t.http.get('/api/v3/auth/me').set('Cookie', cookie);
    expect(me.body).toMatchObject({ authenticated_at: clock.now().toISOString(), has_password: true, totp: false, passkeys: 0, sso: false });
  });

  it('does not ask within 10 minutes of signing in', async () => {
    const cookie = await signIn(t, TECH);
    clock.advance(9 * MINUTE);
    expect((await openTerminal(cookie)).status).toBe(201);
  });

  it('keeps asking after a wrong password, and says so for a missing one', async () => {
    const cookie = await signIn(t, BOSS);
    clock.advance(11 * MINUTE);
    expect((await newKey(cookie)).body).toEqual(STEP_UP);
    const wrong = await t.http.post('/api/v3/auth/reauth').set('Cookie', cookie).set(CONSOLE).send({ password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Invalid credentials' });
    const still = await newKey(cookie);
    expect(still.status).toBe(401);
    expect(still.body).toEqual(STEP_UP);
    // Without the CSRF header a re-authentication is refused like any cookie change.
    expect((await t.http.post('/api/v3/auth/reauth').set('Cookie', cookie).send({ password: OPERATOR_PASSWORD })).status).toBe(403);
    expect((await t.http.post('/api/v3/auth/reauth').set('Cookie', cookie).set(CONSOLE).send({ password: OPERATOR_PASSWORD })).status).toBe(204);
    const created = await newKey(cookie);
    expect(created.status).toBe(201);
    expect(typeof created.body.key).toBe('string');
  });

  it('asks for the TOTP code too when the operator has TOTP, and takes it', async () => {
    const id = await createOperator(t, 'totp@step-up.test', 'admin');
    const setup = await t.http.post(`/api/v3/operators/${id}/totp/`).set(admin);
    expect(setup.status).toBe(201);
    const code = setup.body.recovery_codes[0] as string;
    const cookie = await signIn(t, 'totp@step-up.test', OPERATOR_PASSWORD, setup.body.recovery_codes[1]);
    clock.advance(11 * MINUTE);
    const missing = await t.http.post('/api/v3/auth/reauth').set('Cookie', cookie).set(CONSOLE).send({ password: OPERATOR_PASSWORD });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ detail: 'Invalid credentials', totp_required: true });
    expect((await t.http.post('/api/v3/auth/reauth').set('Cookie', cookie).set(CONSOLE).send({ password: OPERATOR_PASSWORD, totp: code })).status).toBe(204);
    expect((await newKey(cookie)).status).toBe(201);
  });

  it('asks for each dangerous action of an admin session: operators, their TOTP, notification secrets (not a channel rename)', async () => {
    const cookie = await signIn(t, BOSS);
    const channel = await t.http
      .post('/api/v3/notifications/')
      .set('Cookie', cookie)
      .set(CONSOLE)
      .send({ name: 'hook', type: 'webhook', url: 'https://hooks.example.com/rmm', min_severity: 'info', events: ['alert.created'] });
    expect(channel.status).toBe(201);
    clock.advance(11 * MINUTE);
    const as = (req: ReturnType<typeof t.http.post>) => req.set('Cookie', cookie).set(CONSOLE);
    const target = await createOperator(t, `target-${Date.now()}@step-up.test`, 'viewer');
    const answers = [
      await as(t.http.post('/api/v3/operators/')).send({ email: 'new@step-up.test', password: OPERATOR_PASSWORD, role: 'viewer' }),
      await as(t.http.patch(`/api/v3/operators/${target}/`)).send({ role: 'technician' }),
      await as(t.http.post(`/api/v3/operators/${target}/totp/`)),
      await as(t.http.delete(`/api/v3/operators/${target}/totp/`)),
      await as(t.http.post('/api/v3/notifications/')).send({ name: 'hook 2', type: 'webhook', url: 'https://hooks.example.com/b', min_severity: 'info', events: ['alert.created'] }),
      await as(t.http.patch(`/api/v3/notifications/${channel.body.id}/`)).send({ secret: 'a new signing secret' }),
      await as(t.http.patch(`/api/v3/notifications/${channel.body.id}/`)).send({ url: 'https://hooks.example.com/c' }),
      await as(t.http.post('/api/v3/auth/totp')),
      await as(t.http.delete('/api/v3/auth/totp')),
    ];
    expect(answers.map((a) => [a.status, a.body])).toEqual(answers.map(() => [401, STEP_UP]));
    // A rename is not a secret: no step-up.
    expect((await as(t.http.patch(`/api/v3/notifications/${channel.body.id}/`)).send({ name: 'renamed' })).status).toBe(200);
    // Ending an operator's sessions protects: never held back by a step-up.
    expect((await as(t.http.delete(`/api/v3/operators/${target}/sessions/`))).status).toBe(204);
  });

  it('never asks an API key (its scopes decide), 11 minutes on or not', async () => {
    const key = await createKey(t, ['terminal', 'agents:read']);
    clock.advance(11 * MINUTE); // (a key has no sign-in time at all: were it checked, it would always be refused)
    expect((await t.http.post(`/api/v3/agents/${agentId}/terminal/`).set('X-API-KEY', key).send({ cols: 80, rows: 24 })).status).toBe(201);
    expect((await t.http.post('/api/v3/keys/').set(admin).send({ name: 'by key', scopes: ['agents:read'] })).status).toBe(201);
  });

  it('tells an API key that re-authentication is for console sessions (401, not a step-up)', async () => {
    const res = await t.http.post('/api/v3/auth/reauth').set(admin).set(CONSOLE).send({ password: OPERATOR_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.step_up).toBeUndefined();
  });

  it('marks every step-up route with x-step-up in the OpenAPI document', async () => {
    const doc = (await t.http.get('/docs/openapi.json')).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const marked = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.entries(item).filter(([, op]) => op['x-step-up'] === true).map(([method, op]) => `${method.toUpperCase()} ${path}${op['x-step-up-when'] ? ` (${String(op['x-step-up-when'])})` : ''}`))
      .sort();
    expect(marked).toEqual(
      [
        'POST /api/v3/agents/{agentId}/terminal',
        'POST /api/v3/keys',
        'POST /api/v3/operators',
        'PATCH /api/v3/operators/{id}',
        'POST /api/v3/operators/{id}/totp',
        'DELETE /api/v3/operators/{id}/totp',
        'POST /api/v3/notifications',
        'PATCH /api/v3/notifications/{id} (when url, to, secret or headers change)',
        'POST /api/v3/auth/totp',
        'DELETE /api/v3/auth/totp',
      ].sort(),
    );
  });
});
