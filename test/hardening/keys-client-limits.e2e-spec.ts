import { ApiKeyScope } from '@app/entities';
import { CONSOLE, createOperator, signIn } from '../utils/operators';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

const NOT_FOUND = { detail: 'Not found' };

interface MadeKey {
  id: number;
  secret: string;
}

/**
 * N4 (issue 30, point 5): a client-limited admin (a key or an operator with clients) lists, reads and revokes
 * only keys whose clients are all within its own; an unlimited key, or one with another client, does not exist
 * for it (404, absent from the list and its total), as operators already are. The probe: a B-limited admin key
 * answered 204 to DELETE /api/v3/keys/{id}/ of the unlimited admin key, which then got 401.
 */
describe('N4: limited admins manage only their clients’ keys', () => {
  const ADMIN = 'admin-key-for-keys-client-limits-0123456789';
  let t: TestApp;
  let clientA: number;
  let clientB: number;
  let adminKeyId: number;
  const admin = () => ({ 'X-API-KEY': ADMIN });

  /** A key made by the unlimited admin through POST /api/v3/keys/. */
  const newKey = async (name: string, scopes: ApiKeyScope[], clients?: number[]): Promise<MadeKey> => {
    const res = await t.http.post('/api/v3/keys/').set(admin()).send({ name, scopes, ...(clients ? { clients } : {}) });
    expect(res.status).toBe(201);
    return { id: res.body.id as number, secret: res.body.key as string };
  };
  const revokedAt = async (id: number): Promise<Date | null> => (await sql<{ revoked_at: Date | null }>(t.db.url, `SELECT revoked_at FROM api_keys WHERE id = $1`, [id]))[0].revoked_at;

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000' });
    clientA = (await createTenant(t, 'Alpha')).clientId;
    clientB = (await createTenant(t, 'Beta')).clientId;
    adminKeyId = (await sql<{ id: number }>(t.db.url, `SELECT id FROM api_keys WHERE clients IS NULL AND 'admin' = ANY(scopes) ORDER BY id LIMIT 1`))[0].id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('N4: a B-limited admin key gets 404 revoking the unlimited admin key, which keeps working, and does not see it listed', async () => {
    const limited = await newKey('beta-admin', ['admin'], [clientB]);
    const asLimited = { 'X-API-KEY': limited.secret };

    const revoke = await t.http.delete(`/api/v3/keys/${adminKeyId}/`).set(asLimited);
    expect([revoke.status, revoke.body]).toEqual([404, NOT_FOUND]);
    expect(await revokedAt(adminKeyId)).toBeNull();
    expect((await t.http.get('/api/v3/keys/').set(admin())).status).toBe(200); // the admin key still works

    const read = await t.http.get(`/api/v3/keys/${adminKeyId}/`).set(asLimited);
    expect([read.status, read.body]).toEqual([404, NOT_FOUND]);
    // Exactly as an id that does not exist.
    expect((await t.http.get('/api/v3/keys/999999/').set(asLimited)).body).toEqual(NOT_FOUND);
    expect((await t.http.delete('/api/v3/keys/999999/').set(asLimited)).status).toBe(404);

    const list = await t.http.get('/api/v3/keys/?limit=100').set(asLimited);
    expect(list.status).toBe(200);
    const ids = (list.body as Array<{ id: number; clients: number[] | null }>).map((k) => k.id);
    expect(ids).not.toContain(adminKeyId);
    expect(ids).toContain(limited.id);
    expect((list.body as Array<{ clients: number[] | null }>).every((k) => k.clients !== null && k.clients.every((c) => c === clientB))).toBe(true);
    expect(Number(list.headers['x-total-count'])).toBe(ids.length);
    // The unlimited admin still sees every key.
    const all = (await t.http.get('/api/v3/keys/').set(admin())).body as Array<{ id: number }>;
    expect(all.map((k) => k.id)).toEqual(expect.arrayContaining([adminKeyId, limited.id]));
  });

  it('N4: a B-limited admin lists, reads and revokes a key limited to B', async () => {
    const limited = await newKey('beta-admin-2', ['admin'], [clientB]);
    const asLimited = { 'X-API-KEY': limited.secret };
    const reader = await newKey('beta-reader', ['agents:read'], [clientB]);

    const list = (await t.http.get('/api/v3/keys/').set(asLimited)).body as Array<{ id: number }>;
    expect(list.map((k) => k.id)).toContain(reader.id);
    const read = await t.http.get(`/api/v3/keys/${reader.id}/`).set(asLimited);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: reader.id, name: 'beta-reader', scopes: ['agents:read'], clients: [clientB], revoked_at: null });
    expect(read.body).not.toHaveProperty('key');
    expect((await t.http.get('/api/v3/agents/').set('X-API-KEY', reader.secret)).status).toBe(200);

    expect((await t.http.delete(`/api/v3/keys/${reader.id}/`).set(asLimited)).status).toBe(204);
    expect(await revokedAt(reader.id)).not.toBeNull();
    expect((await t.http.get('/api/v3/agents/').set('X-API-KEY', reader.secret)).status).toBe(401);
    expect((await t.http.get(`/api/v3/keys/${reader.id}/`).set(asLimited)).body.revoked_at).toEqual(expect.any(String));
  });

  it('N4: a key limited to A and B is not manageable by a B-only admin, but is by an A+B admin', async () => {
    const bOnly = { 'X-API-KEY': (await newKey('beta-admin-3', ['admin'], [clientB])).secret };
    const both = { 'X-API-KEY': (await newKey('alpha-beta-admin', ['admin'], [clientA, clientB])).secret };
    const wide = await newKey('alpha-beta-reader', ['agents:read'], [clientA, clientB]);
    const alphaOnly = await newKey('alpha-reader', ['agents:read'], [clientA]);

    for (const id of [wide.id, alphaOnly.id]) {
      expect((await t.http.get(`/api/v3/keys/${id}/`).set(bOnly)).status).toBe(404);
      expect((await t.http.delete(`/api/v3/keys/${id}/`).set(bOnly)).status).toBe(404);
      expect(await revokedAt(id)).toBeNull();
    }
    const listed = ((await t.http.get('/api/v3/keys/').set(bOnly)).body as Array<{ id: number }>).map((k) => k.id);
    expect(listed).not.toContain(wide.id);
    expect(listed).not.toContain(alphaOnly.id);
    expect((await t.http.get('/api/v3/agents/').set('X-API-KEY', wide.secret)).status).toBe(200);

    // The A+B admin manages both (and still not the unlimited one).
    const bothListed = ((await t.http.get('/api/v3/keys/').set(both)).body as Array<{ id: number }>).map((k) => k.id);
    expect(bothListed).toEqual(expect.arrayContaining([wide.id, alphaOnly.id]));
    expect(bothListed).not.toContain(adminKeyId);
    expect((await t.http.delete(`/api/v3/keys/${wide.id}/`).set(both)).status).toBe(204);
    expect((await t.http.get('/api/v3/agents/').set('X-API-KEY', wide.secret)).status).toBe(401);
  });

  it('N4: a B-limited admin operator in the console is bound the same way', async () => {
    await createOperator(t, 'beta-admin@msp.example', 'admin', { clients: [clientB] });
    const cookie = { Cookie: await signIn(t, 'beta-admin@msp.example'), ...CONSOLE };
    const reader = await newKey('beta-reader-2', ['agents:read'], [clientB]);

    expect((await t.http.delete(`/api/v3/keys/${adminKeyId}/`).set(cookie)).status).toBe(404);
    expect(await revokedAt(adminKeyId)).toBeNull();
    expect((await t.http.get(`/api/v3/keys/${adminKeyId}/`).set(cookie)).status).toBe(404);
    const listed = ((await t.http.get('/api/v3/keys/').set(cookie)).body as Array<{ id: number }>).map((k) => k.id);
    expect(listed).not.toContain(adminKeyId);
    expect(listed).toContain(reader.id);
    expect((await t.http.delete(`/api/v3/keys/${reader.id}/`).set(cookie)).status).toBe(204);
    expect((await t.http.get('/api/v3/keys/').set(admin())).status).toBe(200);
  });
});
