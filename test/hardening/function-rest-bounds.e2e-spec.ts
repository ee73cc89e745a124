import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * Finding 1 (HIGH): one signed-in user stalled the database. The function stored hostnames of any length and
 * /rest/v1 took like-patterns of any length; PostgreSQL does not check for cancellation inside one LIKE match,
 * so statement_timeout did not stop them. Now: the function bounds hostname (255) and platform (32) and refuses
 * control characters, enrollment_log has CHECK constraints, and /rest/v1 bounds filter values and patterns.
 * Finding 3 (LOW): `is.true` on a column that is not boolean was a 500 with a stack trace.
 */
describe('bounded inputs: the enrollment function, enrollment_log and /rest/v1 filters', () => {
  const ANON = 'anon-key-for-bounds-tests-0123456789';
  const SERVICE = 'service-key-for-bounds-tests-0123456789';
  const ADMIN = 'admin-key-for-bounds-tests-0123456789';
  const CORS = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
    'access-control-allow-methods': 'POST, OPTIONS',
  };
  let t: TestApp;
  let user: { id: string; token: string };

  const svc = () => ({ apikey: SERVICE, Authorization: `Bearer ${SERVICE}` });
  const enroll = (body: unknown) =>
    t.http.post('/functions/v1/enroll-rmm').set('Authorization', `Bearer ${user.token}`).set('Content-Type', 'application/json').send(JSON.stringify(body));
  const count = async (table: string): Promise<number> => (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM ${table}`))[0].n;

  beforeAll(async () => {
    t = await startTestApp({ DATA_ANON_KEY: ANON, DATA_SERVICE_ROLE_KEY: SERVICE, RMM_ADMIN_API_KEY: ADMIN });
    const tenant = await createTenant(t, 'Acme');
    const created = await t.server.app.get(UsersService).create({ email: 'tech@acme.test', password: 'acme-password', ...tenant });
    const login = await t.http.post('/auth/v1/token?grant_type=password').set('apikey', ANON).send({ email: 'tech@acme.test', password: 'acme-password' });
    user = { id: created.user.id, token: login.body.access_token };
    // The longest hostname enrollment_log holds, in the user's own rows: what the patterns below match against.
    await sql(
      t.db.url,
      `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id, hostname, platform) VALUES ($1, 'aaaaaaaa-0000-4000-8000-0000000000ff', $2, $3, $4, 'windows')`,
      [user.id, tenant.clientId, tenant.siteId, 'H'.repeat(255)],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    "22 concurrent like-patterns of 12,000 characters on the user's own enrollment_log leave GET /api/v3/clients/ answering in under 1 s",
    async () => {
      // The attack's first half: a 1,000,000-character hostname through the function. Refused now (400 from the
      // function, or 413 from the body limit), and nothing longer than 255 characters is in the table.
      const planted = await enroll({ hostname: 'H'.repeat(1_000_000), platform: 'windows' });
      // Warm the route up, so that what is measured below is waiting for the database, not a first request.
      expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', ADMIN)).status).toBe(200);

      const pattern = `like.*${'H'.repeat(12_000)}b*`;
      const flood = Array.from({ length: 22 }, () =>
        fetch(`${t.url}/rest/v1/enrollment_log?select=id&hostname=${pattern}`, {
          headers: { apikey: ANON, Authorization: `Bearer ${user.token}` },
          signal: AbortSignal.timeout(20_000),
        }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
          (err: Error) => ({ status: 0, body: { error: err.name } as Record<string, unknown> }),
        ),
      );
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const clients = await t.http.get('/api/v3/clients/').set('X-API-KEY', ADMIN).timeout(10_000);
      const elapsed = Date.now() - started;
      const answers = await Promise.all(flood);

      expect(clients.status).toBe(200);
      expect(elapsed).toBeLessThan(1_000);
      expect([400, 413]).toContain(planted.status);
      expect(await sql(t.db.url, 'SELECT id FROM enrollment_log WHERE char_length(hostname) > 255')).toEqual([]);
      for (const a of answers) {
        expect(a.status).toBe(400);
        expect(a.body).toMatchObject({ code: 'PGRST100', details: 'like and ilike patterns are limited to 256 characters' });
        expect(String(a.body.message).length).toBeLessThan(200); // the pattern is not echoed whole
      }
    },
    60_000,
  );

  describe('the function refuses what enrollment_log cannot hold, before the backend call (400 {error}, CORS)', () => {
    it.each([
      ['a hostname of 256 characters', { hostname: 'h'.repeat(256), platform: 'windows' }, 'hostname must be at most 255 characters'],
      ['a hostname of 10,000 characters', { hostname: 'h'.repeat(10_000), platform: 'windows' }, 'hostname must be at most 255 characters'],
      ['a platform of 33 characters', { hostname: 'ok', platform: 'w'.repeat(33) }, 'platform must be at most 32 characters'],
      ['a NUL in the hostname', { hostname: 'WS\u0000-1', platform: 'windows' }, 'hostname must not contain control characters'],
      ['a newline in the hostname', { hostname: 'WS-1\nWS-2', platform: 'windows' }, 'hostname must not contain control characters'],
      ['a DEL in the hostname', { hostname: 'WS-1\u007f', platform: 'windows' }, 'hostname must not contain control characters'],
      ['an escape in the platform', { hostname: 'WS-1', platform: 'win\u001bdows' }, 'platform must not contain control characters'],
      ['a NUL in the platform', { hostname: 'WS-1', platform: 'windows\u0000' }, 'platform must not contain control characters'],
      ['a lone surrogate in the hostname', { hostname: 'WS-\ud800', platform: 'windows' }, 'hostname must be valid Unicode text'],
    ])('%s', async (_what, body, error) => {
      const deployments = await count('deployments');
      const res = await enroll(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
      expect(res.headers).toMatchObject(CORS);
      expect(await count('deployments')).toBe(deployments); // no deployment without its audit row
    });

    it('accepts exactly 255 and 32 characters (counted as characters, not bytes) and logs them whole', async () => {
      const hostname = 'é'.repeat(200) + '😀'.repeat(55);
      const res = await enroll({ hostname, platform: 'p'.repeat(32) });
      expect(res.status).toBe(200);
      const rows = await sql(t.db.url, 'SELECT hostname, platform FROM enrollment_log WHERE deployment_uuid = $1', [res.body.deployment_uuid]);
      expect(rows).toEqual([{ hostname, platform: 'p'.repeat(32) }]);
    });
  });

  it('enrollment_log refuses over-long values even from the service role: 400 23514, not 500 "index row too large"', async () => {
    const row = { user_id: user.id, deployment_uuid: 'aaaaaaaa-0000-4000-8000-000000000001', client_id: 1, site_id: 1 };
    for (const bad of [{ hostname: 'h'.repeat(256) }, { platform: 'p'.repeat(33) }, { deployment_uuid: 'u'.repeat(8 * 1024) }, { deployment_uuid: 'u'.repeat(65) }]) {
      const res = await t.http.post('/rest/v1/enrollment_log').set(svc()).send({ ...row, ...bad });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: '23514', message: expect.stringMatching(/violates check constraint "CHK_enrollment_log_/) });
    }
    expect((await t.http.post('/rest/v1/enrollment_log').set(svc()).send({ ...row, hostname: 'h'.repeat(255), deployment_uuid: 'u'.repeat(64) })).status).toBe(201);
  });

  describe('/rest/v1 bounds every filter (400 PGRST100)', () => {
    it.each([
      ['an eq value of 1,025 characters', `hostname=eq.${'a'.repeat(1025)}`, 'filter values are limited to 1024 characters'],
      ['an in-list of 1,025 characters', `hostname=in.(${'a,'.repeat(512)}a)`, 'filter values are limited to 1024 characters'],
      ['a negated neq value of 1,025 characters', `platform=not.neq.${'a'.repeat(1025)}`, 'filter values are limited to 1024 characters'],
      ['a like pattern of 257 characters', `hostname=like.${'H'.repeat(257)}`, 'like and ilike patterns are limited to 256 characters'],
      ['an ilike pattern of 257 characters', `hostname=ilike.*${'h'.repeat(255)}*`, 'like and ilike patterns are limited to 256 characters'],
      ['a like pattern of 9 wildcards', 'hostname=like.*a*b*c*d*e*f*g*h*', 'like and ilike patterns may hold at most 8 wildcards (* or %)'],
      ['an ilike pattern of 9 % wildcards', `hostname=ilike.${'%25a'.repeat(9)}`, 'like and ilike patterns may hold at most 8 wildcards (* or %)'],
    ])('refuses %s', async (_what, query, details) => {
      for (const headers of [svc(), { apikey: ANON, Authorization: `Bearer ${user.token}` }]) {
        const res = await t.http.get(`/rest/v1/enrollment_log?select=id&${query}`).set(headers);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'PGRST100', details, hint: null, message: expect.stringMatching(/^failed to parse filter/) });
      }
    });

    it('takes values and patterns up to the limits', async () => {
      const ok = [`hostname=eq.${'a'.repeat(1024)}`, `hostname=like.*${'H'.repeat(254)}*`, 'hostname=ilike.*a*b*c*d*e*f*g*', `hostname=like.${'😀'.repeat(256)}`];
      for (const q of ok) {
        const res = await t.http.get(`/rest/v1/enrollment_log?select=id&${encodeURI(q)}`).set(svc());
        expect(res.status).toBe(200);
      }
      const found = await t.http.get(`/rest/v1/enrollment_log?select=hostname&hostname=like.*${'H'.repeat(250)}*`).set({ apikey: ANON, Authorization: `Bearer ${user.token}` });
      expect(found.body).toEqual([{ hostname: 'H'.repeat(255) }]);
    });
  });

  describe('SQLSTATEs a REST request can reach are 400, never 500 (finding 3)', () => {
    const columns = ['id', 'user_id', 'deployment_uuid', 'client_id', 'hostname', 'requested_at', 'agent_id'];
    const types: Record<string, string> = {
      id: 'bigint', user_id: 'uuid', deployment_uuid: 'text', client_id: 'integer', hostname: 'text', requested_at: 'timestamp with time zone', agent_id: 'integer',
    };
    it.each(['true', 'false', 'unknown'])('is.%s on a column that is not boolean: 400 42804, even with only the anon key', async (value) => {
      for (const column of columns) {
        for (const headers of [{ apikey: ANON }, svc()]) {
          for (const filter of [`is.${value}`, `not.is.${value}`]) {
            const res = await t.http.get(`/rest/v1/enrollment_log?${column}=${filter}`).set(headers);
            expect(res.status).toBe(400);
            expect(res.body).toEqual({
              code: '42804',
              details: null,
              hint: null,
              message: `argument of IS ${value.toUpperCase()} must be type boolean, not type ${types[column]}`,
            });
          }
        }
      }
      const profiles = await t.http.get(`/rest/v1/user_profiles?rmm_agent_id=is.${value}`).set({ apikey: ANON });
      expect(profiles.status).toBe(400);
      expect(profiles.body.code).toBe('42804');
    });

    it.each([
      ['a timestamp that is not one', '/rest/v1/enrollment_log?requested_at=gt.yesterday-ish', '22007'],
      ['a timestamp out of range', '/rest/v1/enrollment_log?requested_at=gt.2026-13-45T00:00:00Z', '22008'],
      ['a bigint out of range', '/rest/v1/enrollment_log?id=eq.99999999999999999999', '22003'],
      ['a fraction for an integer', '/rest/v1/enrollment_log?client_id=in.(1,1.5)', '22P02'],
      ['a uuid that is not one in a list', '/rest/v1/enrollment_log?user_id=in.(nope)', '22P02'],
      ['a NUL in a value', '/rest/v1/enrollment_log?hostname=eq.a%00b', '22021'],
    ])('%s', async (_what, path, code) => {
      const res = await t.http.get(path).set(svc());
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code, message: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js):\d+/);
    });

    it('data errors in a body are 400 too (bad timestamp, out-of-range integer)', async () => {
      const row = { user_id: user.id, deployment_uuid: 'x', client_id: 1, site_id: 1 };
      const when = await t.http.post('/rest/v1/enrollment_log').set(svc()).send({ ...row, requested_at: 'soon' });
      expect(when.status).toBe(400);
      expect(when.body.code).toBe('22007');
      const big = await t.http.post('/rest/v1/enrollment_log').set(svc()).send({ ...row, client_id: 1e12 });
      expect(big.status).toBe(400);
      expect(big.body.code).toBe('22003');
    });
  });
});
