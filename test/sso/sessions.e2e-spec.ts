import { FixedClock } from '../../apps/api/src/common/clock';
import { Subscriber } from '../utils/events-subscriber';
import { CONSOLE, createOperator, OPERATOR_PASSWORD, sessionPair, signIn } from '../utils/operators';
import { createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Issue 33, sessions an operator can see: their own sessions listed (where, which browser, how, the current one
 * marked), one ended from another session (its cookie answers 401 and its WebSockets close), "sign out everywhere
 * else", an admin ending another operator's sessions, and sign-ins (success and failure) in the audit log.
 */
const ADMIN_KEY = 'sessions-e2e-admin-key-0123456789abcdef';
const admin = { 'X-API-KEY': ADMIN_KEY };
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('sessions an operator can see and end (issue 33)', () => {
  let t: TestApp;
  let clock: FixedClock;
  const open: Subscriber[] = [];

  beforeAll(async () => {
    clock = new FixedClock(new Date('2026-12-07T09:00:00Z'));
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000' }, { clock });
  });
  afterAll(async () => {
    for (const s of open.splice(0)) s.ws.terminate();
    await t?.close();
  });

  /** Signs in from a browser (its User-Agent); the cookie pair. */
  const signInAs = async (email: string, userAgent: string): Promise<string> => {
    const res = await t.http.post('/api/v3/auth/login').set('User-Agent', userAgent).send({ email, password: OPERATOR_PASSWORD });
    expect(res.status).toBe(200);
    return sessionPair(res.headers['set-cookie']);
  };
  const listOf = async (cookie: string): Promise<Array<Record<string, any>>> => {
    const res = await t.http.get('/api/v3/auth/sessions/').set('Cookie', cookie);
    expect(res.status).toBe(200);
    return res.body;
  };
  const meStatus = async (cookie: string): Promise<number> => (await t.http.get('/api/v3/auth/me').set('Cookie', cookie)).status;

  it('lists both sessions of an operator with where, which browser and how, the current one marked', async () => {
    await createOperator(t, 'two@sessions.test', 'technician');
    const laptop = await signInAs('two@sessions.test', FIREFOX);
    clock.advance(60_000);
    const desktop = await signInAs('two@sessions.test', CHROME);
    const fromLaptop = await listOf(laptop);
    expect(fromLaptop).toHaveLength(2);
    const byAgent = Object.fromEntries(fromLaptop.map((s) => [s.user_agent, s]));
    expect(byAgent[FIREFOX]).toMatchObject({ current: true, method: 'password', created_at: '2026-12-07T09:00:00.000Z', authenticated_at: '2026-12-07T09:00:00.000Z' });
    expect(byAgent[CHROME]).toMatchObject({ current: false, method: 'password', created_at: '2026-12-07T09:01:00.000Z' });
    for (const s of fromLaptop) {
      expect(s.address).toMatch(/127\.0\.0\.1$/);
      expect(Object.keys(s).sort()).toEqual(['address', 'authenticated_at', 'created_at', 'current', 'expires_at', 'id', 'last_seen_at', 'method', 'user_agent']);
    }
    const fromDesktop = await listOf(desktop);
    expect(fromDesktop.find((s) => s.current)?.user_agent).toBe(CHROME);
  });

  it('ends the other session from this one: its cookie answers 401 and its WebSocket closes; this one goes on', async () => {
    await createOperator(t, 'ender@sessions.test', 'technician');
    const mine = await signInAs('ender@sessions.test', FIREFOX);
    const other = await signInAs('ender@sessions.test', CHROME);
    const ws = await Subscriber.connect(`${t.url.replace(/^http/, 'ws')}/rmm/fleet/`, { headers: { Cookie: other, Origin: t.url } });
    open.push(ws);
    const target = (await listOf(mine)).find((s) => !s.current)!;
    expect((await t.http.delete(`/api/v3/auth/sessions/${target.id}`).set('Cookie', mine)).status).toBe(403); // the CSRF header
    const ended = await t.http.delete(`/api/v3/auth/sessions/${target.id}`).set('Cookie', mine).set(CONSOLE);
    expect(ended.status).toBe(204);
    expect(ended.headers['set-cookie']).toBeUndefined(); // not this browser's session: its cookie stays
    expect(await meStatus(other)).toBe(401);
    expect(await meStatus(mine)).toBe(200);
    expect((await ws.whenClosed(5_000)).code).toBeGreaterThanOrEqual(4000);
    // Once gone, or another operator's: 404.
    expect((await t.http.delete(`/api/v3/auth/sessions/${target.id}`).set('Cookie', mine).set(CONSOLE)).status).toBe(404);
    const stranger = await signIn(t, 'two@sessions.test');
    const strangers = (await listOf(stranger)).find((s) => s.current)!;
    expect((await t.http.delete(`/api/v3/auth/sessions/${strangers.id}`).set('Cookie', mine).set(CONSOLE)).status).toBe(404);
    expect(await meStatus(stranger)).toBe(200);
    // Ending the current one signs this browser out: the cookie is cleared.
    const self = (await listOf(mine)).find((s) => s.current)!;
    const out = await t.http.delete(`/api/v3/auth/sessions/${self.id}`).set('Cookie', mine).set(CONSOLE);
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^rmm_session=; Max-Age=0/);
    expect(await meStatus(mine)).toBe(401);
  });

  it('signs out everywhere else, keeping this session', async () => {
    await createOperator(t, 'many@sessions.test', 'viewer');
    const a = await signInAs('many@sessions.test', FIREFOX);
    const b = await signInAs('many@sessions.test', CHROME);
    const c = await signInAs('many@sessions.test', CHROME);
    const res = await t.http.delete('/api/v3/auth/sessions/').set('Cookie', a).set(CONSOLE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 2 });
    expect([await meStatus(a), await meStatus(b), await meStatus(c)]).toEqual([200, 401, 401]);
    expect((await listOf(a)).map((s) => s.current)).toEqual([true]);
  });

  it("lets an admin see and end another operator's sessions; a technician cannot, nor an admin limited to other clients", async () => {
    const acme = await createTenant(t, 'Acme');
    const globex = await createTenant(t, 'Globex');
    await createOperator(t, 'boss@sessions.test', 'admin');
    await createOperator(t, 'acme-admin@sessions.test', 'admin', { clients: [acme.clientId] });
    const victimId = await createOperator(t, 'victim@sessions.test', 'technician', { clients: [globex.clientId] });
    const victim = await signInAs('victim@sessions.test', FIREFOX);
    const boss = await signIn(t, 'boss@sessions.test');
    const tech = await signIn(t, 'two@sessions.test');
    const acmeAdmin = await signIn(t, 'acme-admin@sessions.test');

    const seen = await t.http.get(`/api/v3/operators/${victimId}/sessions/`).set('Cookie', boss);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual([expect.objectContaining({ user_agent: FIREFOX, current: false, method: 'password' })]);
    expect((await t.http.delete(`/api/v3/operators/${victimId}/sessions/`).set('Cookie', tech).set(CONSOLE)).status).toBe(403);
    expect((await t.http.delete(`/api/v3/operators/${victimId}/sessions/`).set('Cookie', acmeAdmin).set(CONSOLE)).status).toBe(404);
    expect((await t.http.get(`/api/v3/operators/${victimId}/sessions/`).set('Cookie', acmeAdmin)).status).toBe(404);
    expect(await meStatus(victim)).toBe(200);
    expect((await t.http.delete(`/api/v3/operators/${victimId}/sessions/`).set('Cookie', boss).set(CONSOLE)).status).toBe(204);
    expect(await meStatus(victim)).toBe(401);
    expect((await t.http.get(`/api/v3/operators/${victimId}/sessions/`).set(admin)).body).toEqual([]);
  });

  it('refuses the sessions list to an API key (not a session) and to a request without one', async () => {
    expect((await t.http.get('/api/v3/auth/sessions/').set(admin)).status).toBe(401);
    expect((await t.http.get('/api/v3/auth/sessions/')).status).toBe(401);
  });

  it('keeps sign-ins and re-authentications, successes and failures, in the audit log with the method and the address', async () => {
    await createOperator(t, 'audit@sessions.test', 'technician');
    expect((await t.http.post('/api/v3/auth/login').send({ email: 'audit@sessions.test', password: 'wrong password 1' })).status).toBe(401);
    const cookie = await signIn(t, 'audit@sessions.test');
    expect((await t.http.post('/api/v3/auth/reauth').set('Cookie', cookie).set(CONSOLE).send({ password: 'wrong password 2' })).status).toBe(401);
    expect((await t.http.post('/api/v3/auth/reauth').set('Cookie', cookie).set(CONSOLE).send({ password: OPERATOR_PASSWORD })).status).toBe(204);
    type Row = { actor_kind: string; actor_name: string | null; action: string; outcome: string; client_address: string };
    const rows = await until('the four audit rows', async () => {
      const res = await t.http.get('/api/v3/audit/?path=/api/v3/auth/&limit=1000').set(admin);
      const mine = (res.body as Row[]).filter((r) => r.actor_name === 'audit@sessions.test').reverse();
      return mine.length >= 4 ? mine : undefined;
    });
    expect(rows.map((r) => [r.actor_kind, r.action, r.outcome])).toEqual([
      ['anonymous', 'POST /api/v3/auth/login/', '401 password'],
      ['operator', 'POST /api/v3/auth/login/', '200 password'],
      ['operator', 'POST /api/v3/auth/reauth/', '401 password'],
      ['operator', 'POST /api/v3/auth/reauth/', '204 password'],
    ]);
    for (const r of rows) expect(r.client_address).toMatch(/127\.0\.0\.1$/);
  });
});
