import { userInfo } from 'node:os';
import { AuditService } from '../../apps/api/src/rmm/access/audit/audit.service';
import { ApiKeysService } from '../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { CLI_JS, cleanEnv, run } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

interface Row {
  id: number;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  method: string | null;
  action: string;
  target: string;
  client_address: string | null;
  status: number | null;
  outcome: string;
  request_id: string | null;
}

/** The audit log: every mutating call on /api/v3, /auth/v1/admin and the operator CLI, read at GET /api/v3/audit/. */
describe('audit log', () => {
  const ANON = 'anon-key-for-audit-tests-0123456789';
  const SERVICE = 'service-key-for-audit-tests-0123456789';
  const JWT_SECRET = 'a-jwt-secret-for-the-audit-tests-0123456789abcdef';
  const ENV = { DATA_ANON_KEY: ANON, DATA_SERVICE_ROLE_KEY: SERVICE, JWT_SECRET, RMM_RATE_LIMIT_PER_MINUTE: '100000' };
  let t: TestApp;
  let admin: string;
  let adminId: number;

  const newKey = async (name: string, scopes: Parameters<ApiKeysService['create']>[0]['scopes']) => {
    const { key, secret } = await t.server.app.get(ApiKeysService).create({ name, scopes });
    return { id: key.id, secret };
  };
  /** GET /api/v3/audit/ as the admin key; the rows of the calls before it are written first (flush). */
  const audit = async (query: Record<string, string | number> = {}) => {
    await t.server.app.get(AuditService).flush();
    const res = await t.http.get('/api/v3/audit/').query(query).set('X-API-KEY', admin);
    expect(res.status).toBe(200);
    return { rows: res.body as Row[], total: res.headers['x-total-count'] as string | undefined };
  };
  /** The onResponse hook runs once the answer has left: poll until the row is there. */
  const eventually = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const v = await read();
      if (ok(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const rowsOf = async (query: Record<string, string | number>, atLeast = 1) => (await eventually(() => audit(query), (r) => r.rows.length >= atLeast)).rows;

  beforeAll(async () => {
    t = await startTestApp(ENV);
    ({ id: adminId, secret: admin } = await newKey('audit-admin', ['admin']));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records a POST and a DELETE on /api/v3 with the key id and name, route, path, status, address and request id', async () => {
    const created = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).set('X-Request-Id', 'audit-req-1').send({ name: 'Acme', site_name: 'HQ' });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect((await t.http.delete(`/api/v3/clients/${id}/`).set('X-API-KEY', admin)).status).toBe(204);

    const rows = await rowsOf({ key: adminId, path: '/api/v3/clients/' }, 2);
    expect(rows.slice(0, 2)).toEqual([
      expect.objectContaining({
        actor_kind: 'api_key', actor_id: String(adminId), actor_name: 'audit-admin', method: 'DELETE',
        action: 'DELETE /api/v3/clients/{id}/', target: `/api/v3/clients/${id}/`, status: 204, outcome: '204', client_address: '127.0.0.1',
      }),
      {
        id: expect.any(Number), at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), actor_kind: 'api_key', actor_id: String(adminId), actor_name: 'audit-admin',
        method: 'POST', action: 'POST /api/v3/clients/', target: '/api/v3/clients/', client_address: '127.0.0.1', status: 201, outcome: '201', request_id: 'audit-req-1', changes: null,
      },
    ]);
    expect(rows[0].id).toBeGreaterThan(rows[1].id);
  });

  it('records refusals: a 403 names the key that lacked the scope, a 401 is anonymous unless the key is known (revoked)', async () => {
    const reader = await newKey('audit-reader', ['clients:read']);
    expect((await t.http.post('/api/v3/clients/').set('X-API-KEY', reader.secret).send({ name: 'Nope' })).status).toBe(403);
    const unknownSecret = `rmm_${'Q'.repeat(40)}`;
    expect((await t.http.delete('/api/v3/clients/424242/').set('X-API-KEY', unknownSecret)).status).toBe(401);
    expect((await t.http.delete('/api/v3/clients/424243/')).status).toBe(401);
    const revoked = await newKey('audit-revoked', ['admin']);
    await t.server.app.get(ApiKeysService).revoke(revoked.id);
    expect((await t.http.post('/api/v3/keys/').set('X-API-KEY', revoked.secret).send({ name: 'x', scopes: ['admin'] })).status).toBe(401);

    expect(await rowsOf({ status: 403, key: reader.id })).toEqual([
      expect.objectContaining({ actor_kind: 'api_key', actor_id: String(reader.id), actor_name: 'audit-reader', action: 'POST /api/v3/clients/', status: 403 }),
    ]);
    const anonymous = await rowsOf({ status: 401, actor_kind: 'anonymous' }, 2);
    expect(anonymous.map((r) => [r.target, r.actor_id, r.actor_name])).toEqual([
      ['/api/v3/clients/424243/', null, null],
      ['/api/v3/clients/424242/', null, null],
    ]);
    expect(await rowsOf({ key: revoked.id })).toEqual([
      expect.objectContaining({ actor_kind: 'api_key', actor_name: 'audit-revoked', action: 'POST /api/v3/keys/', status: 401 }),
    ]);
  });

  it('does not record reads, nor requests that matched no route', async () => {
    expect((await t.http.get('/api/v3/clients/').set('X-API-KEY', admin)).status).toBe(200);
    expect((await t.http.post('/api/v3/no-such-thing/').set('X-API-KEY', admin).send({})).status).toBe(404);
    expect((await t.http.post('/rest/v1/nothing').set('apikey', SERVICE).send({})).status).toBeGreaterThanOrEqual(400);
    // A recorded call after them: once it is in, theirs would be too.
    const barrier = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).send({ name: 'Barrier' });
    expect(barrier.status).toBe(201);
    await rowsOf({ path: `/api/v3/clients/`, key: adminId }, 3);
    const [{ n }] = await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM audit_log WHERE method NOT IN ('POST','PUT','PATCH','DELETE') OR target LIKE '/api/v3/no-such%' OR target LIKE '/rest/%' OR action LIKE 'GET %'`);
    expect(n).toBe(0);
  });

  it('never stores a secret: not a created key, not the caller key, not a refused key, not a password or the service key', async () => {
    const created = await t.http.post('/api/v3/keys/').set('X-API-KEY', admin).send({ name: 'made-by-api', scopes: ['agents:read'] });
    expect(created.status).toBe(201);
    const newSecret = created.body.key as string;
    const refused = `rmm_${'Z'.repeat(40)}`;
    expect((await t.http.post('/api/v3/clients/').set('X-API-KEY', refused).send({ name: refused })).status).toBe(401);
    const password = 'audit-password-never-stored-42';
    const user = await t.http.post(`/auth/v1/admin/users?apikey=${SERVICE}`).set('Authorization', `Bearer ${SERVICE}`).send({ email: 'secret@acme.test', password });
    expect(user.status).toBe(200);
    await rowsOf({ path: '/auth/v1/admin/users', actor_kind: 'service_role' });
    expect(await rowsOf({ path: '/api/v3/keys/', key: adminId })).toEqual([expect.objectContaining({ action: 'POST /api/v3/keys/', status: 201 })]);

    const [{ everything }] = await sql<{ everything: string }>(t.db.url, `SELECT string_agg(a::text, E'\\n') AS everything FROM audit_log a`);
    expect(everything).toContain('POST /api/v3/keys/');
    for (const secret of [newSecret, admin, refused, password, SERVICE, ANON]) expect(everything).not.toContain(secret);
    for (const secret of [newSecret, admin, refused]) expect(everything).not.toContain(secret.slice(4, 16)); // nor a prefix
  });

  it('filters by actor_kind, key, method, path prefix, status, since and until, and pages newest first with X-Total-Count', async () => {
    const start = new Date(Date.now() - 1000).toISOString();
    const pager = await newKey('audit-pager', ['admin']);
    const names = ['P1', 'P2', 'P3', 'P4', 'P5'];
    const ids: number[] = [];
    for (const name of names) ids.push((await t.http.post('/api/v3/clients/').set('X-API-KEY', pager.secret).send({ name })).body.id);
    await t.http.delete(`/api/v3/clients/${ids[0]}/`).set('X-API-KEY', pager.secret);
    await rowsOf({ key: pager.id }, 6);

    const all = await audit({ key: pager.id });
    expect(all.total).toBeUndefined();
    expect(all.rows.map((r) => r.method)).toEqual(['DELETE', 'POST', 'POST', 'POST', 'POST', 'POST']);
    const first = await audit({ key: pager.id, limit: 4 });
    const second = await audit({ key: pager.id, limit: 4, offset: 4 });
    expect([first.total, second.total]).toEqual(['6', '6']);
    expect([first.rows.length, second.rows.length]).toEqual([4, 2]);
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(all.rows.map((r) => r.id));
    expect(all.rows.map((r) => r.id)).toEqual([...all.rows.map((r) => r.id)].sort((a, b) => b - a));

    expect((await audit({ key: pager.id, method: 'delete' })).rows).toEqual([expect.objectContaining({ target: `/api/v3/clients/${ids[0]}/` })]);
    expect((await audit({ key: pager.id, path: `/api/v3/clients/${ids[0]}` })).rows).toHaveLength(1);
    expect((await audit({ key: pager.id, status: 201 })).rows).toHaveLength(5);
    expect((await audit({ key: pager.id, since: start, until: new Date(Date.now() + 60_000).toISOString() })).rows).toHaveLength(6);
    expect((await audit({ key: pager.id, since: new Date(Date.now() + 60_000).toISOString() })).rows).toEqual([]);
    expect((await audit({ key: pager.id, until: start })).rows).toEqual([]);
    const kinds = (await audit({ actor_kind: 'api_key' })).rows.map((r) => r.actor_kind);
    expect(new Set(kinds)).toEqual(new Set(['api_key']));

    for (const bad of ['actor_kind=root', 'method=GET', 'status=99', 'since=yesterday', 'key=abc', 'path=a&path=b', 'limit=0']) {
      const res = await t.http.get(`/api/v3/audit/?${bad}`).set('X-API-KEY', admin);
      expect([bad, res.status, typeof res.body.detail]).toEqual([bad, 400, 'string']);
    }
  });

  it('answers 403 to a key without admin (every other scope) and 401 without a key', async () => {
    const everyOther = await newKey('audit-not-admin', [
      'agents:read', 'agents:write', 'deployments:read', 'deployments:write', 'clients:read', 'clients:write',
      'scripts:read', 'scripts:write', 'scripts:run', 'checks:read', 'checks:write', 'tasks:read', 'tasks:write', 'alerts:read', 'alerts:write',
    ]);
    const denied = await t.http.get('/api/v3/audit/').set('X-API-KEY', everyOther.secret);
    expect([denied.status, denied.body]).toEqual([403, { detail: 'permission denied' }]);
    expect((await t.http.get('/api/v3/audit/')).status).toBe(401);
  });

  it('records admin user creation and deletion on /auth/v1/admin as service_role, and a signed-in user refused there as user', async () => {
    const created = await t.http.post('/auth/v1/admin/users').set('apikey', SERVICE).set('Authorization', `Bearer ${SERVICE}`).send({ email: 'gone@acme.test', password: 'gone-password', email_confirm: true });
    expect(created.status).toBe(200);
    const userId = created.body.id as string;
    expect((await t.http.delete(`/auth/v1/admin/users/${userId}`).set('apikey', SERVICE).set('Authorization', `Bearer ${SERVICE}`)).status).toBe(200);
    const rows = await rowsOf({ actor_kind: 'service_role', path: `/auth/v1/admin/users/${userId}` });
    expect(rows).toEqual([
      expect.objectContaining({ actor_kind: 'service_role', actor_id: null, actor_name: 'service_role', method: 'DELETE', action: 'DELETE /auth/v1/admin/users/{id}', status: 200, client_address: '127.0.0.1' }),
    ]);
    expect((await audit({ actor_kind: 'service_role', method: 'POST' })).rows).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'POST /auth/v1/admin/users', target: '/auth/v1/admin/users', status: 200 })]),
    );

    const member = await t.http.post('/auth/v1/admin/users').set('apikey', SERVICE).set('Authorization', `Bearer ${SERVICE}`).send({ email: 'member@acme.test', password: 'member-password', email_confirm: true });
    const token = (await t.http.post('/auth/v1/token?grant_type=password').set('apikey', ANON).send({ email: 'member@acme.test', password: 'member-password' })).body.access_token;
    expect((await t.http.post('/auth/v1/admin/users').set('apikey', ANON).set('Authorization', `Bearer ${token}`).send({ email: 'x@acme.test', password: 'x-password' })).status).toBe(403);
    expect(await rowsOf({ actor_kind: 'user' })).toEqual([
      expect.objectContaining({ actor_id: member.body.id, actor_name: 'member@acme.test', action: 'POST /auth/v1/admin/users', status: 403 }),
    ]);
  });

  it("keeps a deleted user's enrollment_log rows; a row naming no user is still refused and row-level security still applies", async () => {
    const service = { apikey: SERVICE, Authorization: `Bearer ${SERVICE}` };
    const leaving = (await t.http.post('/auth/v1/admin/users').set(service).send({ email: 'leaving@acme.test', password: 'leaving-password' })).body.id as string;
    const staying = (await t.http.post('/auth/v1/admin/users').set(service).send({ email: 'staying@acme.test', password: 'staying-password' })).body.id as string;
    const insert = `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id, hostname) VALUES ($1, $2, 1, 1, 'h')`;
    await sql(t.db.url, insert, [leaving, 'dep-leaving-1']);
    await sql(t.db.url, insert, [leaving, 'dep-leaving-2']);
    await sql(t.db.url, insert, [staying, 'dep-staying']);

    expect((await t.http.delete(`/auth/v1/admin/users/${leaving}`).set(service)).status).toBe(200);
    const kept = await sql(t.db.url, `SELECT user_id, deployment_uuid FROM enrollment_log WHERE user_id = $1 ORDER BY id`, [leaving]);
    expect(kept).toEqual([
      { user_id: leaving, deployment_uuid: 'dep-leaving-1' },
      { user_id: leaving, deployment_uuid: 'dep-leaving-2' },
    ]);
    expect(await sql(t.db.url, `SELECT 1 FROM auth.users WHERE id = $1`, [leaving])).toEqual([]);

    await expect(sql(t.db.url, insert, [leaving, 'dep-after-delete'])).rejects.toMatchObject({ code: '23503' });
    await expect(sql(t.db.url, `UPDATE enrollment_log SET user_id = gen_random_uuid() WHERE deployment_uuid = 'dep-staying'`)).rejects.toMatchObject({ code: '23503' });

    const token = (await t.http.post('/auth/v1/token?grant_type=password').set('apikey', ANON).send({ email: 'staying@acme.test', password: 'staying-password' })).body.access_token;
    const own = await t.http.get('/rest/v1/enrollment_log?select=deployment_uuid').set('apikey', ANON).set('Authorization', `Bearer ${token}`);
    expect([own.status, own.body]).toEqual([200, [{ deployment_uuid: 'dep-staying' }]]);
    // The service role still writes rows through /rest/v1 (the trigger's check runs as its owner).
    const viaRest = await t.http.post('/rest/v1/enrollment_log').set(service).send({ user_id: staying, deployment_uuid: 'dep-rest', client_id: 1, site_id: 1 });
    expect(viaRest.status).toBe(201);
  });

  it('records CLI commands that change something as actor cli with the OS user, arguments without the password, and the outcome', async () => {
    const env = cleanEnv({ DATABASE_URL: t.db.url, ...ENV });
    const cli = (...args: string[]) => run([CLI_JS, ...args], env);
    const client = await cli('client', 'create', '--name', 'CLI Corp');
    expect(client.code).toBe(0);
    const user = await cli('user', 'create', '--email', 'cli@acme.test', '--password', 'cli-password-never-stored');
    expect(user.code).toBe(0);
    const missing = await cli('apikey', 'revoke', '99999');
    expect(missing.code).toBe(1);
    expect((await cli('apikey', 'list')).code).toBe(0);

    const rows = (await audit({ actor_kind: 'cli' })).rows;
    const osUser = userInfo().username;
    expect(rows).toEqual([
      expect.objectContaining({ actor_kind: 'cli', actor_id: null, actor_name: osUser, method: null, action: 'apikey revoke', target: '99999', status: null, outcome: 'error: Not found: no API key 99999', request_id: null }),
      expect.objectContaining({ actor_name: osUser, action: 'user create', target: '--email cli@acme.test --password [redacted]', outcome: 'ok' }),
      expect.objectContaining({ actor_name: osUser, action: 'client create', target: '--name CLI Corp', outcome: 'ok', client_address: expect.any(String) }),
    ]);
    const [{ everything }] = await sql<{ everything: string }>(t.db.url, `SELECT string_agg(a::text, E'\\n') AS everything FROM audit_log a`);
    expect(everything).not.toContain('cli-password-never-stored');
  });
});
