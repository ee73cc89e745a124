import { createClient, SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * The unmodified @supabase/supabase-js client against this server: what operators already use with Supabase
 * works here with `createClient(PUBLIC_URL, DATA_ANON_KEY)`.
 */
describe('the data platform through @supabase/supabase-js', () => {
  let t: TestApp;
  let admin: SupabaseClient;
  const client = (key: string): SupabaseClient =>
    createClient(t.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      // Node 20 has no global WebSocket: give realtime the ws package (it is never connected here).
      realtime: { transport: WebSocket as never },
    });

  beforeAll(async () => {
    t = await startTestApp();
    admin = client(t.server.runtime.dataServiceRoleKey);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('admin.createUser, profile insert by the service role, signInWithPassword, getUser, update, select', async () => {
    const created = await admin.auth.admin.createUser({ email: 'carol@acme.test', password: 'carol-password', email_confirm: true });
    expect(created.error).toBeNull();
    const uid = created.data.user!.id;

    const profile = await admin.from('user_profiles').insert({ id: uid, rmm_client_id: 12, rmm_site_id: 34 }).select().single();
    expect(profile.error).toBeNull();
    expect(profile.data).toMatchObject({ id: uid, rmm_client_id: 12, rmm_site_id: 34, rmm_agent_id: null });

    const user = client(t.server.runtime.dataAnonKey);
    const signIn = await user.auth.signInWithPassword({ email: 'carol@acme.test', password: 'carol-password' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.session).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'bearer' });
    expect(signIn.data.user!.id).toBe(uid);

    const me = await user.auth.getUser();
    expect(me.error).toBeNull();
    expect(me.data.user!.email).toBe('carol@acme.test');

    const update = await user.from('user_profiles').update({ rmm_agent_id: 777 }).eq('id', uid);
    expect(update.error).toBeNull();
    expect(update.status).toBe(204);
    const mine = await user.from('user_profiles').select('rmm_agent_id').eq('id', uid).single();
    expect(mine.data).toEqual({ rmm_agent_id: 777 });

    const tenantMove = await user.from('user_profiles').update({ rmm_client_id: 1 }).eq('id', uid);
    expect(tenantMove.status).toBe(403);
    expect(tenantMove.error).toMatchObject({ code: '42501' });

    await admin.from('enrollment_log').insert({ user_id: uid, deployment_uuid: 'c0ffee00-0000-4000-8000-000000000001', client_id: 12, site_id: 34, hostname: 'CAROL-PC', platform: 'windows' });
    const log = await user.from('enrollment_log').select('*');
    expect(log.error).toBeNull();
    expect(log.data).toEqual([expect.objectContaining({ hostname: 'CAROL-PC', status: 'pending', user_id: uid })]);

    const refreshed = await user.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(signIn.data.session!.refresh_token);

    const out = await user.auth.signOut();
    expect(out.error).toBeNull();
  });

  it('reports a wrong password as supabase-js does (AuthApiError, code invalid_credentials, status 400)', async () => {
    expect((await admin.auth.admin.createUser({ email: 'frank@acme.test', password: 'frank-password', email_confirm: true })).error).toBeNull();
    const user = client(t.server.runtime.dataAnonKey);
    const res = await user.auth.signInWithPassword({ email: 'frank@acme.test', password: 'wrong' });
    expect(res.data.session).toBeNull();
    expect(res.error).toMatchObject({ name: 'AuthApiError', status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
  });

  it("does not show one user another's enrollment rows", async () => {
    // Another user with an enrollment row of their own, made here so that this test stands alone.
    const owner = await admin.auth.admin.createUser({ email: 'erin@acme.test', password: 'erin-password', email_confirm: true });
    expect(owner.error).toBeNull();
    await admin.from('enrollment_log').insert({ user_id: owner.data.user!.id, deployment_uuid: 'e1e1e1e1-0000-4000-8000-000000000001', client_id: 12, site_id: 34, hostname: 'ERIN-PC', platform: 'linux' });
    expect(await sql(t.db.url, 'SELECT 1 FROM enrollment_log WHERE user_id = $1', [owner.data.user!.id])).toHaveLength(1);
    const other = await admin.auth.admin.createUser({ email: 'dave@acme.test', password: 'dave-password', email_confirm: true });
    const user = client(t.server.runtime.dataAnonKey);
    await user.auth.signInWithPassword({ email: 'dave@acme.test', password: 'dave-password' });
    const log = await user.from('enrollment_log').select('*');
    expect(log.error).toBeNull();
    expect(log.data).toEqual([]);
    const list = await admin.auth.admin.listUsers();
    // Every user, as the database has them (the other tests of this file add theirs).
    const everyone = (await sql<{ email: string }>(t.db.url, 'SELECT email FROM auth.users')).map((u) => u.email).sort();
    expect(list.data.users.map((u) => u.email).sort()).toEqual(everyone);
    expect(everyone).toEqual(expect.arrayContaining(['dave@acme.test', 'erin@acme.test']));
    const del = await admin.auth.admin.deleteUser(other.data.user!.id);
    expect(del.error).toBeNull();
  });
});
