import { createClient, SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { ClientsService } from '../../apps/api/src/rmm/tenancy/clients/clients.service';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * The default configuration: the function fronts this server's own backend and data platform.
 * A user signs in with the real supabase-js client, calls the function through it, downloads the
 * installer, reads the enrollment's status, and stores the agent id in their profile (spec steps 1-5).
 */
describe('enrolling a device against this server (default configuration)', () => {
  let t: TestApp;
  let supabase: SupabaseClient;
  let userId: string;
  let tenant: { clientId: number; siteId: number };

  beforeAll(async () => {
    t = await startTestApp();
    const acme = await t.server.app.get(ClientsService).ensureClientAndSite('Acme', 'HQ');
    tenant = { clientId: acme.client.id, siteId: acme.site.id };
    userId = (await t.server.app.get(UsersService).create({ email: 'it@acme.test', password: 'acme-password', ...tenant })).user.id;
    supabase = createClient(t.url, t.server.runtime.dataAnonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const { error } = await supabase.auth.signInWithPassword({ email: 'it@acme.test', password: 'acme-password' });
    expect(error).toBeNull();
  });
  afterAll(async () => {
    await supabase?.auth.signOut().catch(() => undefined);
    await t?.close();
  });

  it('issues a 24-hour deployment on this backend whose download URL serves an installer', async () => {
    const { data, error } = await supabase.functions.invoke('enroll-rmm', { body: { hostname: 'ACME-WS-01', platform: 'windows' } });
    expect(error).toBeNull();
    expect(data).toEqual({ download_url: expect.any(String), deployment_uuid: expect.any(String), expires_at: expect.any(String) });
    expect(new Date(data.expires_at).getTime() - Date.now()).toBeGreaterThan(86_400_000 - 60_000);

    // The deployment exists on the backend for the user's tenant, with the function's expiry.
    const rows = await sql(t.db.url, 'SELECT client_id, site_id, arch, expires_at FROM deployments WHERE uuid = $1', [data.deployment_uuid]);
    expect(rows).toEqual([{ client_id: tenant.clientId, site_id: tenant.siteId, arch: 'amd64', expires_at: new Date(data.expires_at) }]);

    // Step 2: the installer downloads (following redirects).
    const download = await fetch(data.download_url);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);

    // The enrollment is visible to its owner through the status endpoint, without any backend key.
    const session = (await supabase.auth.getSession()).data.session!;
    const status = await fetch(`${t.url}/functions/v1/enroll-rmm/status?deployment_uuid=${data.deployment_uuid}`, {
      headers: { Authorization: `Bearer ${session.access_token}` },
    });
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ status: 'pending', agent_id: null, hostname: 'ACME-WS-01', expires_at: data.expires_at });

    // And in enrollment_log through the data platform, under row-level security.
    // (this enrollment's row: other tests of this file enroll the same user too)
    const log = await supabase.from('enrollment_log').select('deployment_uuid, status, client_id, site_id').eq('deployment_uuid', data.deployment_uuid);
    expect(log.error).toBeNull();
    expect(log.data).toEqual([{ deployment_uuid: data.deployment_uuid, status: 'pending', client_id: tenant.clientId, site_id: tenant.siteId }]);
  });

  it('lets the user record the agent id in their profile (step 5: PATCH answers 204)', async () => {
    const res = await supabase.from('user_profiles').update({ rmm_agent_id: 4242 }).eq('id', userId);
    expect(res.error).toBeNull();
    expect(res.status).toBe(204);
    expect(await sql(t.db.url, 'SELECT rmm_agent_id FROM user_profiles WHERE id = $1', [userId])).toEqual([{ rmm_agent_id: 4242 }]);
  });

  it('hides one user\'s enrollment from another (status 404)', async () => {
    const mine = await supabase.functions.invoke('enroll-rmm', { body: { hostname: 'ACME-WS-02', platform: 'darwin' } });
    await t.server.app.get(UsersService).create({ email: 'other@acme.test', password: 'other-password' });
    const other = await t.http.post('/auth/v1/token?grant_type=password').set('apikey', t.server.runtime.dataAnonKey).send({ email: 'other@acme.test', password: 'other-password' });
    const res = await t.http
      .get(`/functions/v1/enroll-rmm/status?deployment_uuid=${mine.data.deployment_uuid}`)
      .set('Authorization', `Bearer ${other.body.access_token}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Enrollment not found' });
    expect(res.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
  });

  it('reads a pending enrollment older than 24 hours as expired', async () => {
    const { data } = await supabase.functions.invoke('enroll-rmm', { body: { hostname: 'OLD', platform: 'linux' } });
    await sql(t.db.url, `UPDATE enrollment_log SET requested_at = now() - interval '25 hours' WHERE deployment_uuid = $1`, [data.deployment_uuid]);
    const token = (await supabase.auth.getSession()).data.session!.access_token;
    const res = await t.http.get(`/functions/v1/enroll-rmm/status?deployment_uuid=${data.deployment_uuid}`).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('expired');
  });

  it('answers the status endpoint 401 without a token and 400 without a uuid', async () => {
    expect((await t.http.get('/functions/v1/enroll-rmm/status?deployment_uuid=x')).body).toEqual({ error: 'Missing Bearer token' });
    const token = (await supabase.auth.getSession()).data.session!.access_token;
    const res = await t.http.get('/functions/v1/enroll-rmm/status').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'deployment_uuid is required' });
  });
});
