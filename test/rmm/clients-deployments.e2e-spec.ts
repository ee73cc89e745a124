import { AGENT_UPDATE_PUBLIC_KEY } from '../../apps/api/src/rmm/fleet/agent-binaries/agent-update-key';
import { FixedClock } from '../../apps/api/src/common/clock';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { createKey, insertAgent } from '../utils/rmm-fixtures';

/** Clients and sites, deployments and their download URL (before and after revocation and expiry). */
describe('/api/v3 clients, sites and deployments', () => {
  const ADMIN = 'admin-key-for-deployment-tests-0123456789';
  const START = new Date('2026-11-22T12:00:00Z');
  const clock = new FixedClock(START);
  let t: TestApp;
  const admin = () => ({ 'X-API-KEY': ADMIN });

  beforeAll(async () => {
    // This file creates (and is refused) more than 20 deployments a minute with one key; that limit has its own tests.
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, PUBLIC_URL: 'https://rmm.example.test', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' }, { clock });
  });
  afterAll(async () => {
    await t?.close();
  });
  // Tests move the clock; each starts from the same time, whatever ran before it.
  beforeEach(() => clock.set(START));

  describe('clients and sites', () => {
    it('creates a client with its first site (admin) and lists clients with their sites', async () => {
      const created = await t.http.post('/api/v3/clients/').set(admin()).send({ name: 'Acme', site_name: 'HQ' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), name: 'Acme', sites: [{ id: expect.any(Number), name: 'HQ' }], agent_update: 'auto', custom_fields: {} });
      const list = await t.http.get('/api/v3/clients').set(admin());
      expect(list.status).toBe(200);
      expect(list.body).toContainEqual(created.body);
      expect(list.body.map((c: { id: number }) => c.id)).toEqual([...list.body.map((c: { id: number }) => c.id)].sort((a, b) => a - b));
    });

    it('needs admin to create a client; clients:write manages sites and names', async () => {
      const writer = await createKey(t, ['clients:read', 'clients:write']);
      expect((await t.http.post('/api/v3/clients/').set('X-API-KEY', writer).send({ name: 'Globex' })).status).toBe(403);
      const c = (await t.http.post('/api/v3/clients/').set(admin()).send({ name: 'Globex' })).body;
      expect(c.sites).toEqual([]);
      const site = await t.http.post(`/api/v3/clients/${c.id}/sites/`).set('X-API-KEY', writer).send({ name: 'Branch' });
      expect(site.status).toBe(201);
      expect(site.body).toEqual({ id: expect.any(Number), name: 'Branch', client: c.id, custom_fields: {} });
      const renamed = await t.http.put(`/api/v3/clients/${c.id}/sites/${site.body.id}/`).set('X-API-KEY', writer).send({ name: 'Branch 2' });
      expect(renamed.body.name).toBe('Branch 2');
      const sites = await t.http.get(`/api/v3/clients/${c.id}/sites/`).set('X-API-KEY', writer);
      expect(sites.body).toEqual([{ id: site.body.id, name: 'Branch 2', client: c.id, custom_fields: {} }]);
      const client = await t.http.patch(`/api/v3/clients/${c.id}`).set('X-API-KEY', writer).send({ name: 'Globex Corp' });
      expect(client.body).toEqual({ id: c.id, name: 'Globex Corp', sites: [{ id: site.body.id, name: 'Branch 2' }], agent_update: 'auto', custom_fields: {} });
    });

    it('refuses duplicate names and bad bodies with 400, unknown ids with 404', async () => {
      expect((await t.http.post('/api/v3/clients/').set(admin()).send({ name: 'Vandelay' })).status).toBe(201);
      const dup = await t.http.post('/api/v3/clients/').set(admin()).send({ name: 'Vandelay' });
      expect(dup.status).toBe(400);
      expect(dup.body.detail).toMatch(/already exists/);
      const empty = await t.http.post('/api/v3/clients/').set(admin()).send({ name: '' });
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ detail: 'validation error', errors: [expect.objectContaining({ field: 'name' })] });
      const notJson = await t.http.post('/api/v3/clients/').set(admin()).set('Content-Type', 'application/json').send('{"name":');
      expect(notJson.status).toBe(400);
      expect(notJson.body.detail).toBe('validation error');
      expect((await t.http.get('/api/v3/clients/9999/sites/').set(admin())).body).toEqual({ detail: 'Not found' });
      expect((await t.http.get('/api/v3/clients/abc/sites/').set(admin())).status).toBe(404);
      expect((await t.http.put('/api/v3/clients/9999/').set(admin()).send({ name: 'x' })).status).toBe(404);
    });

    it('refuses to delete a client or site that still has agents (400 with the reason); deletes an empty one', async () => {
      const c = (await t.http.post('/api/v3/clients/').set(admin()).send({ name: 'Initech', site_name: 'Main' })).body;
      const agent = await insertAgent(t, { hostname: 'INITECH-01', clientId: c.id, siteId: c.sites[0].id });
      const site = await t.http.delete(`/api/v3/clients/${c.id}/sites/${c.sites[0].id}/`).set(admin());
      expect(site.status).toBe(400);
      expect(site.body.detail).toMatch(/still has 1 agent/);
      const client = await t.http.delete(`/api/v3/clients/${c.id}/`).set(admin());
      expect(client.status).toBe(400);
      expect(client.body.detail).toMatch(/still has 1 agent/);
      await sql(t.db.url, 'DELETE FROM agents WHERE id = $1', [agent]);
      expect((await t.http.delete(`/api/v3/clients/${c.id}/`).set(admin())).status).toBe(204);
      expect((await t.http.get(`/api/v3/clients/${c.id}/sites/`).set(admin())).status).toBe(404);
    });
  });

  describe('deployments', () => {
    let tenant: { client: number; site: number };
    beforeAll(async () => {
      const c = (await t.http.post('/api/v3/clients/').set(admin()).send({ name: 'Umbrella', site_name: 'Lab' })).body;
      tenant = { client: c.id, site: c.sites[0].id };
    });

    it('creates a deployment exactly as the enrollment function calls it (201, the spec fields, download under PUBLIC_URL)', async () => {
      const key = await createKey(t, ['deployments:write']);
      const res = await t.http
        .post('/api/v3/agents/deployments/')
        .set('X-API-KEY', key)
        .send({ client: tenant.client, site: tenant.site, expires: '2026-11-23T12:00:00.000Z', arch: 'amd64' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        client: tenant.client,
        site: tenant.site,
        expiry: '2026-11-23T12:00:00.000Z',
        install_flags: null,
        download_url: `https://rmm.example.test/deploy/${res.body.uuid}`,
        arch: 'amd64',
        created_at: expect.any(String),
        max_registrations: null,
        registrations: 0,
      });
    });

    it('defaults expiry to 24 hours and keeps install flags', async () => {
      const res = await t.http.post('/api/v3/agents/deployments').set(admin()).send({ client: tenant.client, site: tenant.site, arch: 'arm64-mac', install_flags: '--silent' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ expiry: '2026-11-23T12:00:00.000Z', arch: 'arm64-mac', install_flags: '--silent' });
    });

    const bad: [string, (x: { client: number; site: number }) => Record<string, unknown>, string][] = [
      ['no client', (x) => ({ site: x.site }), 'client'],
      ['no site', (x) => ({ client: x.client }), 'site'],
      ['a client that is not a number', (x) => ({ client: 'one', site: x.site }), 'client'],
      ['a fractional client', (x) => ({ client: 1.5, site: x.site }), 'client'],
      ['a client beyond int32', (x) => ({ client: 99999999999, site: x.site }), 'client'],
      ['an unknown arch', (x) => ({ ...x, arch: 'x86' }), 'arch'],
      ['an expiry that is not ISO 8601', (x) => ({ ...x, expires: 'tomorrow' }), 'expires'],
      ['an expiry in the past', (x) => ({ ...x, expires: '2026-11-22T11:59:59Z' }), 'expires'],
      ['an expiry more than a year ahead', (x) => ({ ...x, expires: '2030-01-01T00:00:00Z' }), 'expires'],
      ['install_flags that are not a string', (x) => ({ ...x, install_flags: 42 }), 'install_flags'],
      // Finding 4: a line break in the flags added lines to the installer configuration.
      ['install_flags with a newline', (x) => ({ ...x, install_flags: '--quiet\nRMM_SERVER_URL=http://attacker.example' }), 'install_flags'],
      ['install_flags with a carriage return', (x) => ({ ...x, install_flags: '--quiet\rRMM_SERVER_URL=http://attacker.example' }), 'install_flags'],
      ['install_flags with a NUL', (x) => ({ ...x, install_flags: '--quiet\u0000' }), 'install_flags'],
      ['install_flags with a tab', (x) => ({ ...x, install_flags: '--a\t--b' }), 'install_flags'],
      ['install_flags with a DEL', (x) => ({ ...x, install_flags: '--a\u007f' }), 'install_flags'],
    ];
    it.each(bad)('refuses %s with 400 naming the field', async (_name, body, field) => {
      const res = await t.http.post('/api/v3/agents/deployments/').set(admin()).send(body(tenant));
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('validation error');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('refuses control characters in install_flags with 400 naming install_flags, and creates nothing', async () => {
      const before = await sql(t.db.url, 'SELECT count(*)::int AS n FROM deployments');
      const res = await t.http
        .post('/api/v3/agents/deployments/')
        .set(admin())
        .send({ ...tenant, install_flags: '--quiet\nRMM_SERVER_URL=http://attacker.example' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        detail: 'validation error',
        errors: [{ field: 'install_flags', message: 'install_flags must not contain control characters' }],
      });
      expect(await sql(t.db.url, 'SELECT count(*)::int AS n FROM deployments')).toEqual(before);
    });

    it("serves a shell installer whose only embedded values are the server URL, the token and the server's update key, single-quoted; install_flags stay out", async () => {
      const flags = '--log "debug" #not-a-comment \u2028RMM_SERVER_URL=http://attacker.example \\ é';
      const d = (await t.http.post('/api/v3/agents/deployments/').set(admin()).send({ ...tenant, install_flags: flags })).body;
      expect(d.install_flags).toBe(flags);
      const res = await t.http.get(new URL(d.download_url).pathname).query({ platform: 'linux' });
      expect(res.status).toBe(200);
      const text = res.text;
      expect(text.startsWith('#!/bin/sh\n')).toBe(true);
      expect(text).not.toContain('attacker');
      expect(text.split('\n').filter((l) => l.startsWith('RMM_SERVER='))).toEqual(["RMM_SERVER='https://rmm.example.test'"]);
      expect(text.split('\n').filter((l) => l.startsWith('RMM_TOKEN='))).toEqual([`RMM_TOKEN='${d.uuid}'`]);
      expect(text.split('\n').filter((l) => l.startsWith('RMM_UPDATE_KEY='))).toEqual([`RMM_UPDATE_KEY='${t.server.app.get<string>(AGENT_UPDATE_PUBLIC_KEY)}'`]);
    });

    it('refuses an unknown platform with 400 naming platform (and records nothing)', async () => {
      const d = (await t.http.post('/api/v3/agents/deployments/').set(admin()).send(tenant)).body;
      const res = await t.http.get(new URL(d.download_url).pathname).query({ platform: 'beos' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'validation error', errors: [{ field: 'platform', message: expect.stringContaining('linux, darwin, windows') }] });
      expect(await sql(t.db.url, 'SELECT count(*)::int AS n FROM deployment_downloads WHERE deployment_id = $1', [d.id])).toEqual([{ n: 0 }]);
    });

    it('keeps control characters out of install_flags in the database too (CHECK), whoever writes', async () => {
      const [{ id }] = await sql<{ id: number }>(
        t.db.url,
        `INSERT INTO deployments (client_id, site_id, expires_at) VALUES ($1, $2, now() + interval '1 hour') RETURNING id`,
        [tenant.client, tenant.site],
      );
      await expect(sql(t.db.url, `UPDATE deployments SET install_flags = E'a\\nb' WHERE id = $1`, [id])).rejects.toMatchObject({ code: '23514' });
      await expect(sql(t.db.url, `UPDATE deployments SET install_flags = repeat('a', 1001) WHERE id = $1`, [id])).rejects.toMatchObject({ code: '23514' });
    });

    it('refuses an unknown client and a site of another client', async () => {
      const other = (await t.http.post('/api/v3/clients/').set(admin()).send({ name: 'Hooli', site_name: 'Campus' })).body;
      const foreign = await t.http.post('/api/v3/agents/deployments/').set(admin()).send({ client: tenant.client, site: other.sites[0].id });
      expect(foreign.status).toBe(400);
      expect(foreign.body.errors).toEqual([{ field: 'site', message: `site ${other.sites[0].id} does not belong to client ${tenant.client}` }]);
      const unknown = await t.http.post('/api/v3/agents/deployments/').set(admin()).send({ client: 424242, site: tenant.site });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].field).toBe('client');
    });

    it('serves the installer while active, 410 after revocation, and records every download', async () => {
      const d = (await t.http.post('/api/v3/agents/deployments/').set(admin()).send({ client: tenant.client, site: tenant.site, arch: 'amd64' })).body;
      const path = new URL(d.download_url).pathname;
      const ok = await t.http.get(path).set('User-Agent', 'installer-test/1.0');
      expect(ok.status).toBe(200);
      expect(ok.headers['content-type']).toBe('text/x-shellscript; charset=utf-8');
      expect(ok.headers['content-disposition']).toMatch(/^attachment; filename="rmm-agent-install-linux-[0-9a-f]{8}\.sh"$/);
      expect(ok.text).toContain(`RMM_TOKEN='${d.uuid}'`);
      const win = await t.http.get(path).query({ platform: 'windows' }).set('User-Agent', 'installer-test/1.0');
      expect(win.headers['content-disposition']).toMatch(/^attachment; filename="rmm-agent-install-[0-9a-f]{8}\.ps1"$/);
      expect(win.text).toContain(`$RmmToken = '${d.uuid}'`);

      const list = await t.http.get('/api/v3/agents/deployments/').set(admin());
      expect(list.body.map((x: { id: number }) => x.id)).toContain(d.id);

      expect((await t.http.delete(`/api/v3/agents/deployments/${d.id}/`).set(admin())).status).toBe(204);
      const gone = await t.http.get(path);
      expect(gone.status).toBe(410);
      expect(gone.body).toEqual({ detail: 'deployment revoked' });
      expect((await t.http.get('/api/v3/agents/deployments/').set(admin())).body.map((x: { id: number }) => x.id)).not.toContain(d.id);
      expect((await t.http.delete(`/api/v3/agents/deployments/${d.id}/`).set(admin())).status).toBe(204); // idempotent

      const downloads = await sql(t.db.url, 'SELECT status, ip, user_agent FROM deployment_downloads WHERE deployment_id = $1 ORDER BY id', [d.id]);
      expect(downloads).toEqual([
        { status: 200, ip: '127.0.0.1', user_agent: 'installer-test/1.0' },
        { status: 200, ip: '127.0.0.1', user_agent: 'installer-test/1.0' },
        { status: 410, ip: '127.0.0.1', user_agent: null },
      ]);
    });

    it('answers 410 once a deployment expires (moved clock) and 404 for an unknown one', async () => {
      const d = (await t.http.post('/api/v3/agents/deployments/').set(admin()).send({ client: tenant.client, site: tenant.site, expires: '2026-11-22T13:00:00Z' })).body;
      const path = new URL(d.download_url).pathname;
      expect((await t.http.get(path)).status).toBe(200);
      clock.set(new Date('2026-11-22T13:00:01Z'));
      try {
        const expired = await t.http.get(path);
        expect(expired.status).toBe(410);
        expect(expired.body).toEqual({ detail: 'deployment expired' });
        expect((await t.http.get('/api/v3/agents/deployments/').set(admin())).body.map((x: { id: number }) => x.id)).not.toContain(d.id);
      } finally {
        clock.set(new Date('2026-11-22T12:00:00Z'));
      }
      expect((await t.http.get('/deploy/00000000-0000-4000-8000-000000000000')).body).toEqual({ detail: 'Not found' });
      expect((await t.http.get('/deploy/not-a-uuid')).status).toBe(404);
      expect((await t.http.delete('/api/v3/agents/deployments/999999/').set(admin())).status).toBe(404);
    });

    it('pages the active list with limit/offset and X-Total-Count', async () => {
      for (let i = 0; i < 3; i++) {
        expect((await t.http.post('/api/v3/agents/deployments/').set(admin()).send({ client: tenant.client, site: tenant.site })).status).toBe(201);
      }
      const all = (await t.http.get('/api/v3/agents/deployments/').set(admin())).body;
      expect(all.length).toBeGreaterThanOrEqual(3);
      const page = await t.http.get('/api/v3/agents/deployments/?limit=2&offset=1').set(admin());
      expect(page.status).toBe(200);
      expect(page.body).toEqual(all.slice(1, 3));
      expect(page.headers['x-total-count']).toBe(String(all.length));
      expect((await t.http.get('/api/v3/agents/deployments/?limit=0').set(admin())).status).toBe(400);
      expect((await t.http.get('/api/v3/agents/deployments/?limit=abc').set(admin())).status).toBe(400);
    });

    it('needs deployments:read to list and deployments:write to create or revoke', async () => {
      const reader = await createKey(t, ['deployments:read']);
      expect((await t.http.get('/api/v3/agents/deployments/').set('X-API-KEY', reader)).status).toBe(200);
      expect((await t.http.post('/api/v3/agents/deployments/').set('X-API-KEY', reader).send({ client: tenant.client, site: tenant.site })).status).toBe(403);
      expect((await t.http.delete('/api/v3/agents/deployments/1/').set('X-API-KEY', reader)).status).toBe(403);
    });
  });
});
