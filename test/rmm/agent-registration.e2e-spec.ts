import { FixedClock } from '../../apps/api/src/common/clock';
import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { EnrollmentSweep } from '../../apps/api/src/rmm/fleet/deployments/enrollment-sweep';
import { RmmEventMap, RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

const START = new Date('2026-11-23T12:00:00Z');
const ADMIN = 'registration-admin-key-0123456789';
const facts = (hostname: string, extra: Record<string, unknown> = {}) => ({
  hostname,
  plat: 'linux',
  operating_system: 'Ubuntu 24.04.1 LTS',
  arch: 'x64',
  version: '0.1.0',
  cpu_model: 'AMD EPYC 7B13',
  total_ram: 15.6,
  disks: [{ device: '/', free: '120.5 GB', total: '475.8 GB', percent: 75 }],
  public_ip: '203.0.113.7',
  local_ip: '10.0.0.12',
  logged_in_username: 'alice',
  monitoring_type: 'server',
  ...extra,
});

/** POST /agent/v1/register: a deployment's installer turns a device into an agent, never twice. */
describe('agent registration', () => {
  const clock = new FixedClock(START);
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  const admin = { 'X-API-KEY': ADMIN };

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' }, { clock });
    tenant = await createTenant(t, 'Registrations Ltd', 'HQ');
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => clock.set(START));

  const deployment = async (site = tenant.siteId, client = tenant.clientId): Promise<{ id: number; uuid: string }> => {
    const res = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    expect(res.status).toBe(201);
    return res.body;
  };
  const register = (token: string | undefined, body: unknown) => {
    const req = t.http.post('/agent/v1/register');
    if (token !== undefined) req.set('Authorization', `Bearer ${token}`);
    return req.send(body as object);
  };

  it('makes the device an agent of the deployment\'s client and site, with its real facts, and shows the secret once', async () => {
    const d = await deployment();
    const res = await register(d.uuid, facts('reg-ws-01'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ agent_id: expect.stringMatching(/^\d+$/), agent_secret: expect.stringMatching(/^agt_[A-Za-z0-9_-]{40}$/), hostname: 'reg-ws-01', client: tenant.clientId, site: tenant.siteId, reenrolled: false });
    const listed = await t.http.get('/api/v3/agents/?hostname=reg-ws-01').set(admin);
    expect(listed.body).toEqual([
      expect.objectContaining({
        agent_id: res.body.agent_id,
        hostname: 'reg-ws-01',
        plat: 'linux',
        operating_system: 'Ubuntu 24.04.1 LTS',
        version: '0.1.0',
        cpu_model: 'AMD EPYC 7B13',
        total_ram: 15.6,
        public_ip: '203.0.113.7',
        local_ip: '10.0.0.12',
        logged_in_username: 'alice',
        monitoring_type: 'server',
        status: 'offline',
        client: { id: tenant.clientId, name: 'Registrations Ltd' },
        site: { id: tenant.siteId, name: 'HQ' },
      }),
    ]);
    const [row] = await sql<{ secret_hash: string }>(t.db.url, `SELECT secret_hash FROM agents WHERE id = $1`, [Number(res.body.agent_id)]);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await sql(t.db.url, `SELECT * FROM agents`))).not.toContain(res.body.agent_secret);
  });

  it('keeps the agent_id when the same hostname enrolls again under the same client: facts overwritten, site follows, old secret replaced', async () => {
    const other = await t.http.post(`/api/v3/clients/${tenant.clientId}/sites/`).set(admin).send({ name: 'Branch' });
    expect(other.status).toBe(201);
    const seen: Array<RmmEventMap['agent.registered']> = [];
    const off = t.server.app.get(RmmEvents).on('agent.registered', (e) => seen.push(e));
    try {
      const first = await register((await deployment()).uuid, facts('reg-ws-02'));
      const [before] = await sql<{ secret_hash: string }>(t.db.url, `SELECT secret_hash FROM agents WHERE id = $1`, [Number(first.body.agent_id)]);
      // the same device: it proves it with the previous installation's agent id and secret
      const proof = { agent_id: first.body.agent_id, agent_secret: first.body.agent_secret };
      const again = await register((await deployment(other.body.id)).uuid, facts('reg-ws-02', { version: '0.2.0', logged_in_username: 'bob', ...proof }));
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ agent_id: first.body.agent_id, site: other.body.id, reenrolled: true });
      expect(again.body.agent_secret).not.toBe(first.body.agent_secret);
      const detail = await t.http.get(`/api/v3/agents/${first.body.agent_id}/`).set(admin);
      expect(detail.body).toMatchObject({ version: '0.2.0', logged_in_username: 'bob', site: { id: other.body.id, name: 'Branch' } });
      const [after] = await sql<{ secret_hash: string }>(t.db.url, `SELECT secret_hash FROM agents WHERE id = $1`, [Number(first.body.agent_id)]);
      expect(after.secret_hash).not.toBe(before.secret_hash);
      expect(await sql(t.db.url, `SELECT id FROM agents WHERE hostname = 'reg-ws-02'`)).toHaveLength(1);
      expect(seen).toEqual([
        { agentId: Number(first.body.agent_id), reenrolled: false },
        { agentId: Number(first.body.agent_id), reenrolled: true },
      ]);
    } finally {
      off();
    }
  });

  it('yields one agent when one hostname registers many times at the same moment: one 200, the others 409 (none carries its secret)', async () => {
    const d = await deployment();
    // one device (one hardware id) registering many times at once: the first makes the agent; a hardware id proves nothing (#30, N1)
    const hardware_id = 'a'.repeat(64);
    const answers = await Promise.all(Array.from({ length: 12 }, () => register(d.uuid, facts('reg-ws-race', { hardware_id }))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(11).fill(409)]);
    const [row] = await sql<{ id: number }>(t.db.url, `SELECT id FROM agents WHERE hostname = 'reg-ws-race'`);
    expect(answers.find((a) => a.status === 200)?.body.agent_id).toBe(String(row.id));
    expect(await sql(t.db.url, `SELECT id FROM agents WHERE hostname = 'reg-ws-race'`)).toHaveLength(1);
  });

  it('refuses an unknown token with 404, a revoked or expired deployment with 410, each with a clear {detail}', async () => {
    for (const token of [undefined, 'not-a-uuid', '6f1c9a52-0b7e-4a53-9a4f-0d2b9c3e7a11']) {
      const res = await register(token, facts('reg-ws-03'));
      expect([token, res.status, res.body]).toEqual([token, 404, { detail: 'unknown deployment: the enrollment token names none' }]);
    }
    const revoked = await deployment();
    expect((await t.http.delete(`/api/v3/agents/deployments/${revoked.id}/`).set(admin)).status).toBe(204);
    expect(await register(revoked.uuid, facts('reg-ws-03'))).toMatchObject({ status: 410, body: { detail: 'deployment revoked: ask for a new installer' } });
    const expiring = await deployment();
    clock.advance(24 * 3_600_000 + 1);
    expect(await register(expiring.uuid, facts('reg-ws-03'))).toMatchObject({ status: 410, body: { detail: 'deployment expired: ask for a new installer' } });
    expect(await sql(t.db.url, `SELECT id FROM agents WHERE hostname = 'reg-ws-03'`)).toEqual([]);
  });

  it('refuses facts that are not a device\'s with 400 naming the field', async () => {
    const d = await deployment();
    const bad = await register(d.uuid, facts('reg\nws', { plat: 'solaris' }));
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('validation error');
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['hostname', 'plat']);
  });

  it('opens nothing under /api/v3 with an agent secret', async () => {
    const res = await register((await deployment()).uuid, facts('reg-ws-04'));
    const tried = await t.http.get('/api/v3/agents/').set('X-API-KEY', res.body.agent_secret);
    expect(tried.status).toBe(401);
    expect(tried.body).toEqual({ detail: 'Invalid token' });
  });

  it('completes the enrollment log row of a deployment the enrollment function made, with the agent id', async () => {
    const { user } = await t.server.app.get(UsersService).create({ email: 'reg-user@example.com', password: 'password-123' });
    const d = await deployment();
    await sql(t.db.url, `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id, hostname, platform) VALUES ($1, $2, $3, $4, 'reg-ws-05', 'linux')`, [
      user.id,
      d.uuid,
      tenant.clientId,
      tenant.siteId,
    ]);
    const res = await register(d.uuid, facts('reg-ws-05'));
    const [row] = await sql<{ status: string; agent_id: number; completed_at: Date }>(t.db.url, `SELECT status, agent_id, completed_at FROM enrollment_log WHERE deployment_uuid = $1`, [d.uuid]);
    expect(row).toEqual({ status: 'completed', agent_id: Number(res.body.agent_id), completed_at: START });
  });

  describe('enrollment log rows of deployments never used', () => {
    const logRow = async (uuid: string, hostname: string): Promise<void> => {
      const { user } = await t.server.app.get(UsersService).create({ email: `${hostname}@example.com`, password: 'password-123' });
      await sql(t.db.url, `INSERT INTO enrollment_log (user_id, deployment_uuid, client_id, site_id, hostname, platform) VALUES ($1, $2, $3, $4, $5, 'linux')`, [
        user.id,
        uuid,
        tenant.clientId,
        tenant.siteId,
        hostname,
      ]);
    };
    const statusOf = async (uuid: string): Promise<string> =>
      (await sql<{ status: string }>(t.db.url, `SELECT status FROM enrollment_log WHERE deployment_uuid = $1`, [uuid]))[0].status;

    it('turn failed when the deployment is revoked before use; a used one stays completed', async () => {
      const unused = await deployment();
      const used = await deployment();
      await logRow(unused.uuid, 'reg-unused');
      await logRow(used.uuid, 'reg-used');
      await register(used.uuid, facts('reg-used'));
      for (const d of [unused, used]) expect((await t.http.delete(`/api/v3/agents/deployments/${d.id}/`).set(admin)).status).toBe(204);
      expect(await statusOf(unused.uuid)).toBe('failed');
      expect(await statusOf(used.uuid)).toBe('completed');
    });

    it('turn expired by the periodic sweep once the deployment expires unused, and only then', async () => {
      const d = await deployment();
      await logRow(d.uuid, 'reg-expiring');
      const sweep = t.server.app.get(EnrollmentSweep);
      await sweep.run();
      expect(await statusOf(d.uuid)).toBe('pending');
      clock.advance(24 * 3_600_000 + 1);
      expect(await sweep.run()).toBe(1);
      expect(await statusOf(d.uuid)).toBe('expired');
    });
  });
});
