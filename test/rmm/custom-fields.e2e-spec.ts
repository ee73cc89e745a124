import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';
import { AuditService } from '../../apps/api/src/rmm/access/audit/audit.service';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';

/** Custom fields (docs/custom-fields.md): definitions, values per agent, site and client, secrets, client limits. */
describe('/api/v3 custom fields', () => {
  const ADMIN = 'admin-key-for-custom-fields-0123456789';
  let t: TestApp;
  let acme: { clientId: number; siteId: number };
  let globex: { clientId: number; siteId: number };
  let ws1: number;
  let mac1: number;
  const admin = () => ({ 'X-API-KEY': ADMIN });
  const define = (body: Record<string, unknown>) => t.http.post('/api/v3/custom-fields/').set(admin()).send(body);

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    acme = await createTenant(t, 'Acme');
    globex = await createTenant(t, 'Globex', 'Plant');
    ws1 = await insertAgent(t, { hostname: 'ACME-WS-01', ...acme });
    mac1 = await insertAgent(t, { hostname: 'GLOBEX-MAC', ...globex, plat: 'darwin' });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('definitions', () => {
    let siteCodeId: number;

    it('creates a field (201) and answers it, then lists, gets and pages them', async () => {
      const res = await define({ name: 'site_code', label: 'Site code', scope: 'agent', type: 'text', default: 'UNSET' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number), name: 'site_code', label: 'Site code', scope: 'agent', type: 'text', options: null, default: 'UNSET', required: false,
        created_at: expect.any(String), updated_at: expect.any(String),
      });
      siteCodeId = res.body.id;
      expect((await define({ name: 'rack', label: 'Rack', scope: 'site', type: 'select', options: ['a1', 'b2'], required: true })).status).toBe(201);
      expect((await define({ name: 'contract', label: 'Contract', scope: 'client', type: 'date' })).status).toBe(201);
      const list = await t.http.get('/api/v3/custom-fields/').set(admin());
      expect(list.status).toBe(200);
      expect(list.body.map((f: { scope: string; name: string }) => `${f.scope}.${f.name}`)).toEqual(['agent.site_code', 'client.contract', 'site.rack']);
      const page = await t.http.get('/api/v3/custom-fields/?limit=1&offset=1').set(admin());
      expect(page.body.map((f: { name: string }) => f.name)).toEqual(['contract']);
      expect(page.headers['x-total-count']).toBe('3');
      expect((await t.http.get('/api/v3/custom-fields/?scope=site').set(admin())).body.map((f: { name: string }) => f.name)).toEqual(['rack']);
      expect((await t.http.get(`/api/v3/custom-fields/${siteCodeId}/`).set(admin())).body.name).toBe('site_code');
    });

    it('shows a reader only the scopes it may read, and lets only admin write', async () => {
      const agentsReader = await createKey(t, ['agents:read']);
      const clientsReader = await createKey(t, ['clients:read']);
      const scriptsOnly = await createKey(t, ['scripts:read']);
      const tech = await createKey(t, ['agents:write', 'agents:read', 'clients:read', 'clients:write']);
      expect((await t.http.get('/api/v3/custom-fields/').set('X-API-KEY', agentsReader)).body.map((f: { name: string }) => f.name)).toEqual(['site_code']);
      expect((await t.http.get('/api/v3/custom-fields/').set('X-API-KEY', clientsReader)).body.map((f: { name: string }) => f.name)).toEqual(['contract', 'rack']);
      expect((await t.http.get(`/api/v3/custom-fields/${siteCodeId}/`).set('X-API-KEY', clientsReader)).status).toBe(404);
      expect((await t.http.get('/api/v3/custom-fields/').set('X-API-KEY', scriptsOnly)).status).toBe(403);
      const write = await t.http.post('/api/v3/custom-fields/').set('X-API-KEY', tech).send({ name: 'x', label: 'X', scope: 'agent', type: 'text' });
      expect(write.status).toBe(403);
    });

    it.each([
      [{ name: 'Bad', label: 'x', scope: 'agent', type: 'text' }, 'name'],
      [{ name: 'ok', label: '', scope: 'agent', type: 'text' }, 'label'],
      [{ name: 'ok', label: 'x', scope: 'device', type: 'text' }, 'scope'],
      [{ name: 'ok', label: 'x', scope: 'agent', type: 'json' }, 'type'],
      [{ name: 'ok', label: 'x', scope: 'agent', type: 'select' }, 'options'],
      [{ name: 'ok', label: 'x', scope: 'agent', type: 'text', options: ['a'] }, 'options'],
      [{ name: 'ok', label: 'x', scope: 'agent', type: 'select', options: ['a', 'a'] }, 'options'],
      [{ name: 'ok', label: 'x', scope: 'agent', type: 'number', default: '3' }, 'default'],
      [{ name: 'ok', label: 'x', scope: 'agent', type: 'secret', default: 'pw' }, 'default'],
    ])('refuses %j with 400 naming the field', async (body, field) => {
      const res = await define(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('refuses a name taken in the same scope (400), not in another', async () => {
      const taken = await define({ name: 'site_code', label: 'Again', scope: 'agent', type: 'text' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ detail: 'a agent field named "site_code" already exists' });
      const other = await define({ name: 'site_code', label: 'Client site code', scope: 'client', type: 'text' });
      expect(other.status).toBe(201);
      expect((await t.http.delete(`/api/v3/custom-fields/${other.body.id}/`).set(admin())).status).toBe(204);
    });

    it('refuses the 201st field', async () => {
      await sql(t.db.url, `INSERT INTO custom_fields (name, label, scope, type) SELECT 'filler_' || g, 'F', 'client', 'text' FROM generate_series(1, 197) g`);
      const res = await define({ name: 'one_too_many', label: 'x', scope: 'agent', type: 'text' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'at most 200 custom fields' });
      await sql(t.db.url, `DELETE FROM custom_fields WHERE name LIKE 'filler\\_%'`);
    });

    it('PATCH changes the label at any time, the type only while no value exists; DELETE drops the values', async () => {
      const f = await define({ name: 'temp', label: 'Temp', scope: 'agent', type: 'text' });
      expect((await t.http.patch(`/api/v3/custom-fields/${f.body.id}/`).set(admin()).send({ type: 'number' })).body.type).toBe('number');
      expect((await t.http.put(`/api/v3/agents/${ws1}/custom-fields/`).set(admin()).send({ temp: 21.5 })).status).toBe(200);
      const refused = await t.http.patch(`/api/v3/custom-fields/${f.body.id}/`).set(admin()).send({ type: 'text' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ detail: 'custom field temp has values: its name, scope and type cannot change (delete the values, or the field)' });
      const relabelled = await t.http.patch(`/api/v3/custom-fields/${f.body.id}/`).set(admin()).send({ label: 'Temperature', required: true });
      expect(relabelled.body).toEqual(expect.objectContaining({ label: 'Temperature', required: true, type: 'number' }));
      expect((await t.http.delete(`/api/v3/custom-fields/${f.body.id}/`).set(admin())).status).toBe(204);
      expect(await sql(t.db.url, `SELECT 1 FROM custom_field_values WHERE field_id = $1`, [f.body.id])).toEqual([]);
      expect((await t.http.get(`/api/v3/custom-fields/${f.body.id}/`).set(admin())).status).toBe(404);
    });
  });

  describe('values', () => {
    beforeAll(async () => {
      await define({ name: 'admin_password', label: 'Admin password', scope: 'agent', type: 'secret' });
      await define({ name: 'cores', label: 'Cores', scope: 'agent', type: 'number' });
      await define({ name: 'roles', label: 'Roles', scope: 'agent', type: 'multiselect', options: ['web', 'db', 'cache'] });
      await define({ name: 'managed', label: 'Managed', scope: 'client', type: 'boolean', default: true });
    });

    it("sets an agent's values (a partial merge, null clears) and answers every field of the scope, announcing agent.updated", async () => {
      const updated: number[] = [];
      const off = t.server.app.get(RmmEvents).on('agent.updated', (e) => updated.push(e.agentId));
      const first = await t.http.put(`/api/v3/agents/${ws1}/custom-fields/`).set(admin()).send({ site_code: 'NYC-1', cores: 8, roles: ['web', 'db'], admin_password: 'hunter2' });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ site_code: 'NYC-1', cores: 8, roles: ['web', 'db'], admin_password: '********' });
      const second = await t.http.put(`/api/v3/agents/${ws1}/custom-fields/`).set(admin()).send({ cores: null });
      expect(second.body).toEqual({ site_code: 'NYC-1', cores: null, roles: ['web', 'db'], admin_password: '********' });
      const [stored] = await sql(t.db.url, `SELECT v.value FROM custom_field_values v JOIN custom_fields f ON f.id = v.field_id WHERE f.name = 'admin_password' AND v.agent_id = $1`, [ws1]);
      expect(stored.value).toBe('hunter2');
      await until('two agent.updated', async () => updated.length >= 2);
      off();
      expect(updated).toEqual([ws1, ws1]);
    });

    it('carries custom_fields in the agent list and detail, defaults applied, a secret never answered', async () => {
      const detail = await t.http.get(`/api/v3/agents/${ws1}/`).set(admin());
      expect(detail.body.custom_fields).toEqual({ site_code: 'NYC-1', cores: null, roles: ['web', 'db'], admin_password: '********' });
      const list = await t.http.get('/api/v3/agents/').set(admin());
      const other = list.body.find((a: { agent_id: string }) => a.agent_id === String(mac1));
      expect(other.custom_fields).toEqual({ site_code: 'UNSET', cores: null, roles: null, admin_password: null });
      expect(JSON.stringify(list.body)).not.toContain('hunter2');
      expect(JSON.stringify(detail.body)).not.toContain('hunter2');
    });

    it.each([
      [{ cores: '8' }, 'cores', 'must be a finite number'],
      [{ roles: ['web', 'mail'] }, 'roles', 'must be a list of web, db, cache'],
      [{ site_code: 'x'.repeat(4097) }, 'site_code', 'at most 4096 characters'],
      [{ nope: 1 }, 'nope', 'no agent field nope'],
      [{ rack: 'a1' }, 'rack', 'no agent field rack'],
    ])('refuses %j with 400 naming the field, writing nothing', async (body, field, message) => {
      const res = await t.http.put(`/api/v3/agents/${ws1}/custom-fields/`).set(admin()).send({ site_code: 'CHANGED', ...body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'validation error', errors: [{ field, message }] });
      expect((await t.http.get(`/api/v3/agents/${ws1}/`).set(admin())).body.custom_fields.site_code).toBe('NYC-1');
    });

    it("sets a client's and a site's values, carried in their reads", async () => {
      const client = await t.http.put(`/api/v3/clients/${acme.clientId}/custom-fields/`).set(admin()).send({ contract: '2027-01-31' });
      expect(client.status).toBe(200);
      expect(client.body).toEqual({ contract: '2027-01-31', managed: true });
      const bad = await t.http.put(`/api/v3/clients/${acme.clientId}/custom-fields/`).set(admin()).send({ contract: '2027-02-30' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ field: 'contract', message: 'must be a date YYYY-MM-DD' }]);
      const site = await t.http.put(`/api/v3/clients/${acme.clientId}/sites/${acme.siteId}/custom-fields/`).set(admin()).send({ rack: 'b2' });
      expect(site.body).toEqual({ rack: 'b2' });
      expect((await t.http.put(`/api/v3/clients/${acme.clientId}/sites/${acme.siteId}/custom-fields/`).set(admin()).send({ rack: 'c3' })).status).toBe(400);
      expect((await t.http.put(`/api/v3/clients/${globex.clientId}/sites/${acme.siteId}/custom-fields/`).set(admin()).send({ rack: 'b2' })).status).toBe(404);
      expect((await t.http.get(`/api/v3/clients/${acme.clientId}/`).set(admin())).body.custom_fields).toEqual({ contract: '2027-01-31', managed: true });
      const clients = await t.http.get('/api/v3/clients/').set(admin());
      expect(clients.body.find((c: { id: number }) => c.id === globex.clientId).custom_fields).toEqual({ contract: null, managed: true });
      const sites = await t.http.get(`/api/v3/clients/${acme.clientId}/sites/`).set(admin());
      expect(sites.body).toEqual([{ id: acme.siteId, name: 'HQ', client: acme.clientId, custom_fields: { rack: 'b2' } }]);
    });

    it('applies client limits: another client\'s agent, client or site is 404; agents:write alone cannot set a client\'s', async () => {
      const limited = (await t.server.app.get(require('../../apps/api/src/rmm/access/api-keys/api-keys.service').ApiKeysService).create({
        name: 'acme-tech', scopes: ['agents:write', 'agents:read', 'clients:write', 'clients:read'], clients: [acme.clientId],
      })).secret as string;
      expect((await t.http.put(`/api/v3/agents/${mac1}/custom-fields/`).set('X-API-KEY', limited).send({ site_code: 'X' })).status).toBe(404);
      expect((await t.http.put(`/api/v3/clients/${globex.clientId}/custom-fields/`).set('X-API-KEY', limited).send({ managed: false })).status).toBe(404);
      expect((await t.http.put(`/api/v3/clients/${globex.clientId}/sites/${globex.siteId}/custom-fields/`).set('X-API-KEY', limited).send({ rack: 'a1' })).status).toBe(404);
      expect((await t.http.put(`/api/v3/agents/${ws1}/custom-fields/`).set('X-API-KEY', limited).send({ site_code: 'NYC-2' })).body.site_code).toBe('NYC-2');
      const agentsOnly = await createKey(t, ['agents:write']);
      expect((await t.http.put(`/api/v3/clients/${acme.clientId}/custom-fields/`).set('X-API-KEY', agentsOnly).send({ managed: false })).status).toBe(403);
      await t.http.put(`/api/v3/agents/${ws1}/custom-fields/`).set(admin()).send({ site_code: 'NYC-1' });
    });

    it('audits a change with before and after, a secret as "********"', async () => {
      const res = await t.http.put(`/api/v3/agents/${ws1}/custom-fields/`).set(admin()).set('X-Request-Id', 'cf-audit-1').send({ admin_password: 'correct-horse', site_code: 'NYC-9' });
      expect(res.status).toBe(200);
      await t.server.app.get(AuditService).flush();
      const [row] = await sql(t.db.url, `SELECT action, status, changes FROM audit_log WHERE request_id = 'cf-audit-1'`);
      expect(row).toEqual({
        action: 'PUT /api/v3/agents/{agentId}/custom-fields/',
        status: 200,
        changes: { before: { admin_password: '********', site_code: 'NYC-1' }, after: { admin_password: '********', site_code: 'NYC-9' } },
      });
      const audit = await t.http.get('/api/v3/audit/?path=/api/v3/agents/').set(admin());
      expect(JSON.stringify(audit.body)).not.toMatch(/correct-horse|hunter2/);
      expect(audit.body[0]).toEqual(expect.objectContaining({ changes: { before: { admin_password: '********', site_code: 'NYC-1' }, after: { admin_password: '********', site_code: 'NYC-9' } } }));
      expect(t.logs.join('\n')).not.toMatch(/correct-horse|hunter2/);
    });
  });
});
