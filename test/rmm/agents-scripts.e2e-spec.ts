import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';

/** Agents (list, filters, detail, delete), scripts (CRUD) and runscript's validation. */
describe('/api/v3 agents and scripts', () => {
  const ADMIN = 'admin-key-for-agent-tests-0123456789';
  let t: TestApp;
  let acme: { clientId: number; siteId: number };
  let globex: { clientId: number; siteId: number };
  let ws1: number;
  let srv1: number;
  let mac1: number;
  const admin = () => ({ 'X-API-KEY': ADMIN });

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    acme = await createTenant(t, 'Acme');
    globex = await createTenant(t, 'Globex', 'Plant');
    ws1 = await insertAgent(t, { hostname: 'ACME-WS-01', ...acme, patchesPending: 3 });
    srv1 = await insertAgent(t, { hostname: 'ACME-SRV-01', ...acme, monitoringType: 'server' });
    mac1 = await insertAgent(t, { hostname: 'GLOBEX-MAC', ...globex, plat: 'darwin', status: 'offline' });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('agents', () => {
    it('lists agents with the spec fields, agent_id a string of digits, ordered by id', async () => {
      const res = await t.http.get('/api/v3/agents/').set(admin());
      expect(res.status).toBe(200);
      expect(res.body.map((a: { agent_id: string }) => a.agent_id)).toEqual([String(ws1), String(srv1), String(mac1)]);
      expect(res.body[0]).toEqual({
        agent_id: String(ws1),
        hostname: 'ACME-WS-01',
        client: { id: acme.clientId, name: 'Acme' },
        site: { id: acme.siteId, name: 'HQ' },
        plat: 'windows',
        monitoring_type: 'workstation',
        operating_system: 'Windows 11 Pro 23H2',
        version: '2.8.0',
        last_seen: expect.any(String),
        never_connected: false,
        status: 'online',
        logged_in_username: 'alice',
        public_ip: '203.0.113.7',
        local_ip: '10.0.0.12',
        cpu_model: 'Intel Core i7',
        total_ram: 15.8,
        disks: [{ device: 'C:', free: '120.5 GB', total: '475.8 GB', percent: 75 }],
        tags: [],
        maintenance: false,
        maintenance_until: null,
        custom_fields: {},
      });
    });

    it('filters by hostname (exact), client, site and monitoring_type', async () => {
      const ids = async (q: string) => (await t.http.get(`/api/v3/agents?${q}`).set(admin())).body.map((a: { agent_id: string }) => a.agent_id);
      expect(await ids('hostname=ACME-WS-01')).toEqual([String(ws1)]);
      expect(await ids('hostname=ACME-WS')).toEqual([]);
      expect(await ids(`client=${globex.clientId}`)).toEqual([String(mac1)]);
      expect(await ids(`site=${acme.siteId}`)).toEqual([String(ws1), String(srv1)]);
      expect(await ids('monitoring_type=server')).toEqual([String(srv1)]);
      expect(await ids(`client=${acme.clientId}&monitoring_type=workstation`)).toEqual([String(ws1)]);
    });

    it.each([
      ['client=abc', 'client'],
      ['site=-1', 'site'],
      ['monitoring_type=laptop', 'monitoring_type'],
      ['limit=5000', 'limit'],
    ])('refuses the filter %s with 400 naming it', async (q, field) => {
      const res = await t.http.get(`/api/v3/agents/?${q}`).set(admin());
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('pages with limit/offset and X-Total-Count', async () => {
      const res = await t.http.get('/api/v3/agents/?limit=1&offset=1').set(admin());
      expect(res.body.map((a: { agent_id: string }) => a.agent_id)).toEqual([String(srv1)]);
      expect(res.headers['x-total-count']).toBe('3');
      expect((await t.http.get('/api/v3/agents/').set(admin())).headers['x-total-count']).toBeUndefined();
    });

    it('answers the detail with patches_pending and wmi_detail; 404 for an unknown or malformed id', async () => {
      const res = await t.http.get(`/api/v3/agents/${ws1}/`).set(admin());
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ agent_id: String(ws1), hostname: 'ACME-WS-01', patches_pending: 3, wmi_detail: { make_model: 'Dell Latitude 7440' } });
      expect((await t.http.get('/api/v3/agents/99999/').set(admin())).body).toEqual({ detail: 'Not found' });
      expect((await t.http.get('/api/v3/agents/abc').set(admin())).status).toBe(404);
      expect((await t.http.get('/api/v3/agents/1e3').set(admin())).status).toBe(404);
    });

    it('keeps /api/v3/agents/deployments/ for deployments', async () => {
      const res = await t.http.get('/api/v3/agents/deployments/').set(admin());
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
    });

    it("deletes an agent's record with its checks, tasks and alerts (204), then 404", async () => {
      const doomed = await insertAgent(t, { hostname: 'DOOMED', ...acme });
      const [script] = await sql(t.db.url, `INSERT INTO scripts (name, shell, body) VALUES ('doomed-script', 'bash', 'true') RETURNING id`);
      await sql(t.db.url, `INSERT INTO checks (agent_id, check_type, name) VALUES ($1, 'ping', 'p')`, [doomed]);
      await sql(t.db.url, `INSERT INTO tasks (agent_id, script_id, name, schedule) VALUES ($1, $2, 't', '* * * * *')`, [doomed, script.id]);
      await sql(t.db.url, `INSERT INTO alerts (agent_id, alert_type, severity, message) VALUES ($1, 'agent_overdue', 'error', 'gone')`, [doomed]);
      const writer = await createKey(t, ['agents:write']);
      expect((await t.http.delete(`/api/v3/agents/${doomed}`).set('X-API-KEY', writer)).status).toBe(204);
      for (const table of ['checks', 'tasks', 'alerts']) {
        expect(await sql(t.db.url, `SELECT 1 FROM ${table} WHERE agent_id = $1`, [doomed])).toEqual([]);
      }
      expect((await t.http.delete(`/api/v3/agents/${doomed}/`).set('X-API-KEY', writer)).status).toBe(404);
      expect(await sql(t.db.url, `SELECT 1 FROM scripts WHERE id = $1`, [script.id])).toHaveLength(1);
    });

    it('needs agents:read to read and agents:write to delete', async () => {
      const reader = await createKey(t, ['agents:read']);
      expect((await t.http.get('/api/v3/agents/').set('X-API-KEY', reader)).status).toBe(200);
      expect((await t.http.delete(`/api/v3/agents/${ws1}/`).set('X-API-KEY', reader)).body).toEqual({ detail: 'permission denied' });
      expect((await t.http.get('/api/v3/agents/').set('X-API-KEY', await createKey(t, ['scripts:read']))).status).toBe(403);
      expect((await t.http.get('/api/v3/agents/')).status).toBe(401);
    });
  });

  describe('scripts', () => {
    /** A script of this test's own (201), so no test depends on another's. */
    const newScript = async (body: Record<string, unknown>): Promise<{ id: number }> => {
      const res = await t.http.post('/api/v3/scripts/').set(admin()).send({ shell: 'bash', body: 'echo', ...body });
      expect(res.status).toBe(201);
      return res.body;
    };

    it('creates a script (201) and lists it with the spec fields', async () => {
      const res = await t.http
        .post('/api/v3/scripts/')
        .set(admin())
        .send({ name: 'Clear temp', shell: 'powershell', description: 'Frees disk space', body: 'Remove-Item $env:TEMP\\* -Recurse', args: ['-Force'], default_timeout: 120 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Clear temp',
        shell: 'powershell',
        description: 'Frees disk space',
        args: ['-Force'],
        default_timeout: 120,
        body: 'Remove-Item $env:TEMP\\* -Recurse',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const scriptId = res.body.id;
      const list = await t.http.get('/api/v3/scripts').set(admin());
      expect(list.body).toContainEqual({ id: scriptId, name: 'Clear temp', shell: 'powershell', description: 'Frees disk space', args: ['-Force'], default_timeout: 120 });
    });

    it('changes a script with PUT or PATCH (the fields given)', async () => {
      const scriptId = (
        await newScript({ name: 'Clean up', shell: 'powershell', description: 'Frees disk space', body: 'Remove-Item $env:TEMP\\* -Recurse', default_timeout: 120 })
      ).id;
      const res = await t.http.patch(`/api/v3/scripts/${scriptId}/`).set(admin()).send({ description: null, default_timeout: 60 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Clean up', description: null, default_timeout: 60 });
      const put = await t.http.put(`/api/v3/scripts/${scriptId}`).set(admin()).send({ name: 'Clean up files' });
      expect(put.body.name).toBe('Clean up files');
      expect((await t.http.get(`/api/v3/scripts/${scriptId}/`).set(admin())).body.body).toBe('Remove-Item $env:TEMP\\* -Recurse');
    });

    it.each([
      [{ shell: 'bash', body: 'x' }, 'name'],
      [{ name: 's1', shell: 'zsh', body: 'x' }, 'shell'],
      [{ name: 's1', shell: 'bash' }, 'body'],
      [{ name: 's1', shell: 'bash', body: 'x', default_timeout: 301 }, 'default_timeout'],
      [{ name: 's1', shell: 'bash', body: 'x', args: 'one' }, 'args'],
      [{ name: 's1', shell: 'bash', body: 'x', args: [1] }, 'args'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await t.http.post('/api/v3/scripts/').set(admin()).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('refuses a duplicate name, and deleting a script a task still runs', async () => {
      await newScript({ name: 'Taken name' });
      const dup = await t.http.post('/api/v3/scripts/').set(admin()).send({ name: 'Taken name', shell: 'bash', body: 'x' });
      expect(dup.status).toBe(400);
      expect(dup.body.detail).toMatch(/already exists/);
      const used = (await newScript({ name: 'Used' })).id;
      await sql(t.db.url, `INSERT INTO tasks (agent_id, script_id, name, schedule) VALUES ($1, $2, 't', '0 * * * *')`, [ws1, used]);
      const refused = await t.http.delete(`/api/v3/scripts/${used}/`).set(admin());
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toMatch(/used by 1 task/);
      const free = (await newScript({ name: 'Free' })).id;
      expect((await t.http.delete(`/api/v3/scripts/${free}/`).set(admin())).status).toBe(204);
      expect((await t.http.get(`/api/v3/scripts/${free}/`).set(admin())).status).toBe(404);
    });

    it('needs scripts:read to list and scripts:write to change', async () => {
      const reader = await createKey(t, ['scripts:read']);
      expect((await t.http.get('/api/v3/scripts/').set('X-API-KEY', reader)).status).toBe(200);
      expect((await t.http.post('/api/v3/scripts/').set('X-API-KEY', reader).send({ name: 'x', shell: 'bash', body: 'x' })).status).toBe(403);
    });
  });

  describe('POST /api/v3/agents/{agent_id}/runscript/', () => {
    let scriptId: number;
    beforeAll(async () => {
      scriptId = (await t.http.post('/api/v3/scripts/').set(admin()).send({ name: 'Uptime', shell: 'bash', body: 'uptime' })).body.id;
    });
    const run = (agent: number | string, body: unknown, key = ADMIN) => t.http.post(`/api/v3/agents/${agent}/runscript/`).set('X-API-KEY', key).send(body as object);

    it('answers 409 {detail: agent is not connected} for a valid request (no agent channel yet)', async () => {
      const res = await run(ws1, { script: scriptId, output: 'wait', args: ['-a'], timeout: 90 });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'agent is not connected' });
      expect((await run(ws1, { script: scriptId })).status).toBe(409);
    });

    it.each([
      [{}, 'script'],
      [{ script: 'one' }, 'script'],
      [{ script: 1, output: 'later' }, 'output'],
      [{ script: 1, timeout: 301 }, 'timeout'],
      [{ script: 1, timeout: 0 }, 'timeout'],
      [{ script: 1, args: 'x' }, 'args'],
    ])('validates the body first: %j → 400 naming %s', async (body, field) => {
      const res = await run(99999, body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('then the agent (404), then the script (400 naming script)', async () => {
      expect((await run(99999, { script: scriptId })).body).toEqual({ detail: 'Not found' });
      const noScript = await run(ws1, { script: 424242 });
      expect(noScript.status).toBe(400);
      expect(noScript.body.errors).toEqual([{ field: 'script', message: 'no script 424242' }]);
    });

    it('needs scripts:run', async () => {
      expect((await run(ws1, { script: scriptId }, await createKey(t, ['scripts:read', 'agents:read']))).status).toBe(403);
      expect((await run(ws1, { script: scriptId }, await createKey(t, ['scripts:run']))).status).toBe(409);
    });
  });
});
