import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * /rest/v1 over real HTTP: the PostgREST subset, its error bodies, and row-level security proven from the
 * outside (two users, anon and the service role), as PostgreSQL enforces it.
 */
describe('/rest/v1 (PostgREST-compatible)', () => {
  const ANON = 'anon-key-for-rest-tests-0123456789';
  const SERVICE = 'service-key-for-rest-tests-0123456789';
  let t: TestApp;
  let ann: { id: string; token: string };
  let bob: { id: string; token: string };

  const svc = () => ({ apikey: SERVICE, Authorization: `Bearer ${SERVICE}` });
  const as = (u: { token: string }) => ({ apikey: ANON, Authorization: `Bearer ${u.token}` });
  const login = async (email: string, password: string): Promise<string> =>
    (await t.http.post('/auth/v1/token?grant_type=password').set('apikey', ANON).send({ email, password })).body.access_token;

  beforeAll(async () => {
    t = await startTestApp({ DATA_ANON_KEY: ANON, DATA_SERVICE_ROLE_KEY: SERVICE });
    const users = t.server.app.get(UsersService);
    const a = await users.create({ email: 'ann@acme.test', password: 'ann-password', clientId: 1, siteId: 1 });
    const b = await users.create({ email: 'bob@globex.test', password: 'bob-password', clientId: 2, siteId: 2 });
    ann = { id: a.user.id, token: await login('ann@acme.test', 'ann-password') };
    bob = { id: b.user.id, token: await login('bob@globex.test', 'bob-password') };
    const rows = [
      [ann.id, 'aaaaaaaa-0000-4000-8000-000000000001', 'ANN-1', 'windows', '2026-11-20T10:00:00Z'],
      [ann.id, 'aaaaaaaa-0000-4000-8000-000000000002', 'ANN-2', 'darwin', '2026-11-21T10:00:00Z'],
      [ann.id, 'aaaaaaaa-0000-4000-8000-000000000003', 'ANN-3', 'linux', '2026-11-22T10:00:00Z'],
      [bob.id, 'bbbbbbbb-0000-4000-8000-000000000001', 'BOB-1', 'windows', '2026-11-22T11:00:00Z'],
    ];
    for (const [user, uuid, host, plat, at] of rows) {
      await sql(t.db.url, `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id, hostname, platform, requested_at) VALUES ($1, $2, 1, 1, $3, $4, $5)`, [user, uuid, host, plat, at]);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('reading', () => {
    it('selects columns, filters, orders, limits and offsets', async () => {
      const res = await t.http
        .get(`/rest/v1/enrollment_log?select=hostname,platform&user_id=eq.${ann.id}&order=requested_at.desc&limit=2&offset=1`)
        .set(svc());
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { hostname: 'ANN-2', platform: 'darwin' },
        { hostname: 'ANN-1', platform: 'windows' },
      ]);
      expect(res.headers['content-range']).toBe('1-2/*');
    });

    it('supports neq, gt, gte, lt, lte, in (with quoted values), is, like and not.', async () => {
      const hosts = async (query: string) =>
        (await t.http.get(`/rest/v1/enrollment_log?select=hostname&order=hostname&${query}`).set(svc())).body.map((r: { hostname: string }) => r.hostname);
      expect(await hosts('platform=neq.windows')).toEqual(['ANN-2', 'ANN-3']);
      expect(await hosts('requested_at=gt.2026-11-21T10:00:00Z')).toEqual(['ANN-3', 'BOB-1']);
      expect(await hosts('requested_at=gte.2026-11-21T10:00:00Z')).toEqual(['ANN-2', 'ANN-3', 'BOB-1']);
      expect(await hosts('requested_at=lt.2026-11-21T10:00:00Z')).toEqual(['ANN-1']);
      expect(await hosts('requested_at=lte.2026-11-21T10:00:00Z')).toEqual(['ANN-1', 'ANN-2']);
      expect(await hosts('hostname=in.(ANN-1,"BOB-1",NONE)')).toEqual(['ANN-1', 'BOB-1']);
      expect(await hosts('agent_id=is.null&platform=eq.linux')).toEqual(['ANN-3']);
      expect(await hosts('hostname=like.ANN*')).toEqual(['ANN-1', 'ANN-2', 'ANN-3']);
      expect(await hosts('hostname=ilike.*bob*')).toEqual(['BOB-1']);
      expect(await hosts('platform=not.in.(windows,darwin)')).toEqual(['ANN-3']);
      expect(await hosts('hostname=in.()')).toEqual([]);
    });

    it('encodes types as PostgREST does (bigint ids as numbers, timestamps with offsets)', async () => {
      const res = await t.http.get('/rest/v1/enrollment_log?hostname=eq.ANN-1').set(svc());
      expect(res.body[0]).toMatchObject({ id: expect.any(Number), hostname: 'ANN-1', requested_at: '2026-11-20T10:00:00+00:00', status: 'pending', agent_id: null });
    });

    it('answers Prefer: count=exact with the total in Content-Range and 206 for a partial page', async () => {
      const res = await t.http.get('/rest/v1/enrollment_log?select=id&order=id&limit=2').set({ ...svc(), Prefer: 'count=exact' });
      expect(res.status).toBe(206);
      expect(res.headers['content-range']).toBe('0-1/4');
      const all = await t.http.get('/rest/v1/enrollment_log?select=id').set({ ...svc(), Prefer: 'count=exact' });
      expect(all.status).toBe(200);
      expect(all.headers['content-range']).toBe('0-3/4');
    });

    it('answers one object for Accept: application/vnd.pgrst.object+json, 406 PGRST116 unless exactly one row', async () => {
      const one = await t.http.get('/rest/v1/enrollment_log?select=hostname&hostname=eq.BOB-1').set({ ...svc(), Accept: 'application/vnd.pgrst.object+json' });
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ hostname: 'BOB-1' });
      const many = await t.http.get('/rest/v1/enrollment_log?select=hostname').set({ ...svc(), Accept: 'application/vnd.pgrst.object+json' });
      expect(many.status).toBe(406);
      expect(many.body).toEqual({ code: 'PGRST116', details: 'The result contains 4 rows', hint: null, message: 'JSON object requested, multiple (or no) rows returned' });
    });

    it('accepts Accept-Profile: public and refuses another schema', async () => {
      expect((await t.http.get('/rest/v1/enrollment_log').set({ ...svc(), 'Accept-Profile': 'public' })).status).toBe(200);
      const other = await t.http.get('/rest/v1/enrollment_log').set({ ...svc(), 'Accept-Profile': 'auth' });
      expect(other.status).toBe(406);
      expect(other.body.code).toBe('PGRST106');
    });
  });

  describe('bad requests are 4xx in PostgREST format, never 500', () => {
    const cases: [string, string, number, string][] = [
      ['an unknown table', '/rest/v1/users', 404, 'PGRST205'],
      ['the auth schema', '/rest/v1/auth.users', 404, 'PGRST205'],
      ['an unknown column in select', '/rest/v1/user_profiles?select=password', 400, '42703'],
      ['an unknown column in a filter', '/rest/v1/user_profiles?nope=eq.1', 400, '42703'],
      ['an unknown operator', '/rest/v1/user_profiles?rmm_agent_id=like2.1', 400, 'PGRST100'],
      ['a filter without operator', '/rest/v1/user_profiles?rmm_agent_id=5', 400, 'PGRST100'],
      ['a value of the wrong type', '/rest/v1/user_profiles?id=eq.not-a-uuid', 400, '22P02'],
      ['an integer out of range', '/rest/v1/user_profiles?rmm_agent_id=eq.99999999999999', 400, '22003'],
      ['a bad is. value', '/rest/v1/user_profiles?rmm_agent_id=is.maybe', 400, 'PGRST100'],
      ['a bad order', '/rest/v1/user_profiles?order=id.sideways', 400, 'PGRST100'],
      ['a negative limit', '/rest/v1/user_profiles?limit=-1', 400, 'PGRST100'],
      ['an embedded resource', '/rest/v1/user_profiles?select=*,users(*)', 400, 'PGRST200'],
      ['or=()', '/rest/v1/user_profiles?or=(id.eq.1)', 400, 'PGRST100'],
      ['an unterminated in-list', '/rest/v1/user_profiles?id=in.("a', 400, 'PGRST100'],
      ['SQL in a value', "/rest/v1/user_profiles?rmm_client_id=eq.1;DROP TABLE user_profiles", 400, '22P02'],
      ['SQL in a column name', '/rest/v1/user_profiles?select=id"%20FROM%20auth.users--', 400, 'PGRST100'],
    ];
    it.each(cases)('%s', async (_name, path, status, code) => {
      const res = await t.http.get(path).set(svc());
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ code, message: expect.any(String) });
      expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    });

    it('refuses a body that is not JSON, the wrong columns, and mismatched keys', async () => {
      const bad = await t.http.post('/rest/v1/enrollment_log').set(svc()).set('Content-Type', 'application/json').send('{"user_id":');
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('PGRST102');
      const col = await t.http.post('/rest/v1/enrollment_log').set(svc()).send({ nope: 1 });
      expect(col.status).toBe(400);
      expect(col.body).toMatchObject({ code: 'PGRST204', message: "Could not find the 'nope' column of 'enrollment_log' in the schema cache" });
      const keys = await t.http.post('/rest/v1/enrollment_log').set(svc()).send([{ hostname: 'a' }, { platform: 'b' }]);
      expect(keys.status).toBe(400);
      expect(keys.body).toMatchObject({ code: 'PGRST102', details: 'All object keys must match' });
      const scalar = await t.http.patch(`/rest/v1/user_profiles?id=eq.${ann.id}`).set(svc()).send([1, 2]);
      expect(scalar.status).toBe(400);
      const empty = await t.http.post('/rest/v1/enrollment_log').set(svc()).set('Content-Type', 'application/json');
      expect(empty.status).toBe(400);
      expect(empty.body.code).toBe('PGRST102');
      const text = await t.http.post('/rest/v1/enrollment_log').set(svc()).set('Content-Type', 'text/plain').send('hello');
      expect(text.status).toBe(400);
      expect(text.body.code).toBe('PGRST102');
      const xml = await t.http.post('/rest/v1/enrollment_log').set(svc()).set('Content-Type', 'application/xml').send('<a/>');
      expect(xml.status).toBe(415);
      expect(xml.body.code).toBe('PGRST107');
    });

    it('maps constraint violations: 409 for a duplicate key, 400 for a missing NOT NULL or a bad status', async () => {
      const dup = await t.http.post('/rest/v1/user_profiles').set(svc()).send({ id: ann.id });
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe('23505');
      const missing = await t.http.post('/rest/v1/enrollment_log').set(svc()).send({ user_id: ann.id });
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('23502');
      const status = await t.http
        .post('/rest/v1/enrollment_log')
        .set(svc())
        .send({ user_id: ann.id, deployment_uuid: 'x', client_id: 1, site_id: 1, status: 'weird' });
      expect(status.status).toBe(400);
      expect(status.body.code).toBe('23514');
    });
  });

  describe('writing as the service role', () => {
    it('inserts with Prefer: return=representation (201 with the rows) and return=minimal (201, no body)', async () => {
      const rep = await t.http
        .post('/rest/v1/enrollment_log?select=hostname,status')
        .set({ ...svc(), Prefer: 'return=representation' })
        .send({ user_id: bob.id, deployment_uuid: 'bbbbbbbb-0000-4000-8000-000000000002', client_id: 2, site_id: 2, hostname: 'BOB-2', platform: 'linux' });
      expect(rep.status).toBe(201);
      expect(rep.body).toEqual([{ hostname: 'BOB-2', status: 'pending' }]);
      const min = await t.http
        .post('/rest/v1/enrollment_log')
        .set({ ...svc(), Prefer: 'return=minimal' })
        .send([{ user_id: bob.id, deployment_uuid: 'bbbbbbbb-0000-4000-8000-000000000003', client_id: 2, site_id: 2 }]);
      expect(min.status).toBe(201);
      expect(min.text).toBe('');
      const [{ n }] = await sql(t.db.url, `SELECT count(*)::int AS n FROM enrollment_log WHERE user_id = $1`, [bob.id]);
      expect(n).toBe(3);
      // Leaves the rows as the reading tests know them, whatever runs next.
      await sql(t.db.url, `DELETE FROM enrollment_log WHERE deployment_uuid IN ('bbbbbbbb-0000-4000-8000-000000000002', 'bbbbbbbb-0000-4000-8000-000000000003')`);
    });

    it('updates and deletes with filters (204 + Content-Range, or 200 with the rows)', async () => {
      // A row of this test's own, so that it does not depend on the insert test before it.
      await sql(t.db.url, `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id) VALUES ($1, 'bbbbbbbb-0000-4000-8000-000000000009', 2, 2)`, [bob.id]);
      const upd = await t.http
        .patch('/rest/v1/enrollment_log?deployment_uuid=eq.bbbbbbbb-0000-4000-8000-000000000009')
        .set({ ...svc(), Prefer: 'return=representation' })
        .send({ status: 'completed', agent_id: 9 });
      expect(upd.status).toBe(200);
      expect(upd.body).toEqual([expect.objectContaining({ status: 'completed', agent_id: 9 })]);
      const del = await t.http.delete('/rest/v1/enrollment_log?deployment_uuid=eq.bbbbbbbb-0000-4000-8000-000000000009').set(svc());
      expect(del.status).toBe(204);
      expect(del.headers['content-range']).toBe('0-0/*');
      const none = await t.http.delete('/rest/v1/enrollment_log?deployment_uuid=eq.nothing').set(svc());
      expect(none.status).toBe(204);
      expect(none.headers['content-range']).toBe('*/*');
    });

    it('upserts with Prefer: resolution=merge-duplicates', async () => {
      const res = await t.http
        .post('/rest/v1/user_profiles')
        .set({ ...svc(), Prefer: 'resolution=merge-duplicates,return=representation' })
        .send({ id: bob.id, rmm_client_id: 2, rmm_site_id: 7 });
      expect(res.status).toBe(201);
      expect(res.body[0]).toMatchObject({ id: bob.id, rmm_site_id: 7 });
      await sql(t.db.url, 'UPDATE user_profiles SET rmm_site_id = 2 WHERE id = $1', [bob.id]);
    });
  });

  describe('row-level security, from the outside', () => {
    it("a user reads only their own profile and their own enrollment_log rows", async () => {
      const profiles = await t.http.get('/rest/v1/user_profiles?select=id,rmm_client_id').set(as(ann));
      expect(profiles.body).toEqual([{ id: ann.id, rmm_client_id: 1 }]);
      const log = await t.http.get('/rest/v1/enrollment_log?select=hostname&order=hostname').set(as(ann));
      expect(log.body.map((r: { hostname: string }) => r.hostname)).toEqual(['ANN-1', 'ANN-2', 'ANN-3']);
      const bobsRows = await t.http.get(`/rest/v1/enrollment_log?user_id=eq.${bob.id}`).set(as(ann));
      expect(bobsRows.status).toBe(200);
      expect(bobsRows.body).toEqual([]);
    });

    it("sets their own rmm_agent_id (the spec's step 5: 204, with or without apikey)", async () => {
      const withKey = await t.http.patch(`/rest/v1/user_profiles?id=eq.${ann.id}`).set(as(ann)).send({ rmm_agent_id: 101 });
      expect(withKey.status).toBe(204);
      expect(withKey.text).toBe('');
      expect(withKey.headers['content-range']).toBe('0-0/*');
      const bearerOnly = await t.http.patch(`/rest/v1/user_profiles?id=eq.${ann.id}`).set('Authorization', `Bearer ${ann.token}`).send({ rmm_agent_id: 102 });
      expect(bearerOnly.status).toBe(204);
      const [row] = await sql(t.db.url, 'SELECT rmm_agent_id, updated_at > created_at AS touched FROM user_profiles WHERE id = $1', [ann.id]);
      expect(row).toEqual({ rmm_agent_id: 102, touched: true });
    });

    it("cannot change another user's profile: nothing matches (204, Content-Range */*), nothing changes", async () => {
      const res = await t.http.patch(`/rest/v1/user_profiles?id=eq.${bob.id}`).set(as(ann)).send({ rmm_agent_id: 666 });
      expect(res.status).toBe(204);
      expect(res.headers['content-range']).toBe('*/*');
      const [row] = await sql(t.db.url, 'SELECT rmm_agent_id FROM user_profiles WHERE id = $1', [bob.id]);
      expect(row.rmm_agent_id).toBeNull();
    });

    it('cannot move themselves to another tenant: rmm_client_id and rmm_site_id are not writable (403, 42501)', async () => {
      for (const body of [{ rmm_client_id: 2 }, { rmm_site_id: 2 }, { rmm_agent_id: 5, rmm_client_id: 2 }, { id: bob.id }]) {
        const res = await t.http.patch(`/rest/v1/user_profiles?id=eq.${ann.id}`).set(as(ann)).send(body);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: '42501', message: 'permission denied for table user_profiles' });
      }
      const [row] = await sql(t.db.url, 'SELECT rmm_client_id, rmm_site_id FROM user_profiles WHERE id = $1', [ann.id]);
      expect(row).toEqual({ rmm_client_id: 1, rmm_site_id: 1 });
    });

    it('cannot write enrollment_log nor insert or delete profiles', async () => {
      const insert = await t.http.post('/rest/v1/enrollment_log').set(as(ann)).send({ user_id: ann.id, deployment_uuid: 'x', client_id: 1, site_id: 1 });
      expect(insert.status).toBe(403);
      expect(insert.body.code).toBe('42501');
      expect((await t.http.patch(`/rest/v1/enrollment_log?user_id=eq.${ann.id}`).set(as(ann)).send({ status: 'completed' })).status).toBe(403);
      expect((await t.http.delete(`/rest/v1/enrollment_log?user_id=eq.${ann.id}`).set(as(ann))).status).toBe(403);
      expect((await t.http.delete(`/rest/v1/user_profiles?id=eq.${ann.id}`).set(as(ann))).status).toBe(403);
      expect((await t.http.post('/rest/v1/user_profiles').set(as(ann)).send({ id: ann.id })).status).toBe(403);
    });

    it('anon reads nothing and writes nothing (401, 42501)', async () => {
      for (const table of ['user_profiles', 'enrollment_log']) {
        const res = await t.http.get(`/rest/v1/${table}`).set('apikey', ANON);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('42501');
      }
      expect((await t.http.patch(`/rest/v1/user_profiles?id=eq.${ann.id}`).set('apikey', ANON).send({ rmm_agent_id: 1 })).status).toBe(401);
    });
  });

  describe('keys and tokens', () => {
    it('needs an apikey when no bearer is sent, and refuses an unknown one', async () => {
      const none = await t.http.get('/rest/v1/user_profiles');
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ message: 'No API key found in request' });
      const wrong = await t.http.get('/rest/v1/user_profiles').set('apikey', 'nope');
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ message: 'Invalid API key' });
      const wrongWithToken = await t.http.get('/rest/v1/user_profiles').set({ apikey: 'nope', Authorization: `Bearer ${ann.token}` });
      expect(wrongWithToken.status).toBe(401);
    });

    it('refuses a bad or forged bearer with 401 PGRST301', async () => {
      const res = await t.http.get('/rest/v1/user_profiles').set({ apikey: ANON, Authorization: 'Bearer abc.def.ghi' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('PGRST301');
    });

    it('the service-role key sees every row', async () => {
      const res = await t.http.get('/rest/v1/user_profiles?select=id').set('apikey', SERVICE);
      expect(res.body).toHaveLength(2);
    });
  });

  it('answers CORS preflight and adds the headers supabase-js needs in a browser', async () => {
    const pre = await t.http.options('/rest/v1/user_profiles');
    expect(pre.status).toBe(200);
    expect(pre.headers['access-control-allow-methods']).toContain('PATCH');
    const res = await t.http.get('/rest/v1/user_profiles').set(svc());
    expect(res.headers['access-control-expose-headers']).toContain('content-range');
  });
});
