import { createHash } from 'node:crypto';
import { AlertEntity, ApiKeyEntity } from '@app/entities';
import { AlertsService } from '../../../apps/api/src/rmm/alerting/alerts/alerts.service';
import { ApiKeysService } from '../../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext, MEDIUM_START } from '../medium.harness';
import { EVERY_CLIENT } from '../../../apps/api/src/rmm/common/client-scope';

const HOUR = 3_600_000;

describe('AlertsService on PostgreSQL', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let alerts: AlertsService;
  const active = async (agentId: number) => (await alerts.list({ agentId, resolved: false }, { limit: 100, offset: 0 }, EVERY_CLIENT))[0].map((a) => a.id);
  const resolved = async (agentId: number) => (await alerts.list({ agentId, resolved: true }, { limit: 100, offset: 0 }, EVERY_CLIENT))[0].map((a) => a.id);

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    alerts = ctx.get(AlertsService);
  });
  beforeEach(() => ctx.clock.set(MEDIUM_START));
  afterAll(async () => {
    await ctx?.close();
  });

  it('acknowledges an alert with who and when, and keeps it active', async () => {
    const alert = await f.newAlert();
    const acked = await alerts.acknowledge(alert.id, 'noc-dashboard', EVERY_CLIENT);
    expect(acked).toMatchObject({ acknowledged: true, acknowledgedBy: 'noc-dashboard', acknowledgedAt: MEDIUM_START, resolved: false });
    expect(await active(alert.agentId)).toEqual([alert.id]);
  });

  it('keeps the first acknowledgement: a later one by another key at a later time changes nothing', async () => {
    const alert = await f.newAlert();
    await alerts.acknowledge(alert.id, 'first', EVERY_CLIENT);
    ctx.clock.advance(HOUR);
    const again = await alerts.acknowledge(alert.id, 'second', EVERY_CLIENT);
    expect(again).toMatchObject({ acknowledgedBy: 'first', acknowledgedAt: MEDIUM_START });
    expect(await ctx.repo(AlertEntity).findOneByOrFail({ id: alert.id })).toMatchObject({ acknowledgedBy: 'first', acknowledgedAt: MEDIUM_START });
  });

  it('resolves an alert once: it leaves the active list, and a second resolution keeps the first', async () => {
    const alert = await f.newAlert();
    const other = await f.newAlert({ agentId: alert.agentId, alertType: 'agent_overdue', severity: 'error' });
    ctx.clock.advance(HOUR);
    expect(await alerts.resolve(alert.id, 'ops', EVERY_CLIENT)).toMatchObject({ resolved: true, resolvedBy: 'ops', resolvedAt: new Date(MEDIUM_START.getTime() + HOUR) });
    expect(await active(alert.agentId)).toEqual([other.id]);
    expect(await resolved(alert.agentId)).toEqual([alert.id]);
    ctx.clock.advance(HOUR);
    expect(await alerts.resolve(alert.id, 'late', EVERY_CLIENT)).toMatchObject({ resolvedBy: 'ops', resolvedAt: new Date(MEDIUM_START.getTime() + HOUR) });
  });

});

describe('ApiKeysService on PostgreSQL', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let keys: ApiKeysService;

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    keys = ctx.get(ApiKeysService);
  });
  beforeEach(() => ctx.clock.set(MEDIUM_START));
  afterAll(async () => {
    await ctx?.close();
  });

  it('stores only a SHA-256 hash of the secret and its 12-character prefix', async () => {
    const { key, secret } = await keys.create({ name: ' psa ', scopes: ['agents:read', 'deployments:write'] });
    expect(secret).toMatch(/^rmm_[A-Za-z0-9_-]{40}$/);
    const row = await ctx.repo(ApiKeyEntity).findOneByOrFail({ id: key.id });
    expect(row).toMatchObject({ name: 'psa', prefix: secret.slice(0, 12), scopes: ['agents:read', 'deployments:write'], revokedAt: null, expiresAt: null });
    expect(row.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await keys.verify(secret, ctx.clock.now())).toMatchObject({ id: key.id });
  });

  it('refuses an empty name or unknown scopes, and stores nothing', async () => {
    const before = await ctx.repo(ApiKeyEntity).count();
    await expect(keys.create({ name: '  ', scopes: ['admin'] })).rejects.toMatchObject({ message: 'name must not be empty' });
    await expect(keys.create({ name: 'x', scopes: ['root' as never] })).rejects.toMatchObject({ fields: [{ field: 'scopes', message: 'unknown scope root' }] });
    expect(await ctx.repo(ApiKeyEntity).count()).toBe(before);
  });

  it('does not verify a wrong secret, even one with the right prefix, nor an empty one', async () => {
    const { secret } = await f.newKey();
    const forged = secret.slice(0, 12) + 'x'.repeat(secret.length - 12);
    expect(await keys.verify(forged, ctx.clock.now())).toBeNull();
    expect(await keys.verify('', ctx.clock.now())).toBeNull();
  });

  it('does not verify a revoked key; revoking again keeps the first time', async () => {
    const { key, secret } = await f.newKey();
    expect((await keys.revoke(key.id)).revokedAt).toEqual(MEDIUM_START);
    expect(await keys.verify(secret, ctx.clock.now())).toBeNull();
    ctx.clock.advance(HOUR);
    expect((await keys.revoke(key.id)).revokedAt).toEqual(MEDIUM_START);
    expect((await ctx.repo(ApiKeyEntity).findOneByOrFail({ id: key.id })).revokedAt).toEqual(MEDIUM_START);
    await expect(keys.revoke(999999)).rejects.toThrow(); // an unknown key
  });

  it('verifies a key until the instant it expires, not at or after it', async () => {
    const expiresAt = new Date(MEDIUM_START.getTime() + HOUR);
    const { key, secret } = await f.newKey({ expiresAt });
    expect(await keys.verify(secret, ctx.clock.now())).toMatchObject({ id: key.id });
    ctx.clock.set(new Date(expiresAt.getTime() - 1));
    expect(await keys.verify(secret, ctx.clock.now())).toMatchObject({ id: key.id });
    ctx.clock.set(expiresAt);
    expect(await keys.verify(secret, ctx.clock.now())).toBeNull();
    ctx.clock.advance(HOUR);
    expect(await keys.verify(secret, ctx.clock.now())).toBeNull();
  });

  it('ensure is idempotent: the same secret twice is one key with the same id', async () => {
    const secret = 'operator-given-secret-0123456789';
    const first = await keys.ensure(secret, 'admin (env)', ['admin']);
    const second = await keys.ensure(secret, 'admin (env)', ['admin']);
    expect(second.id).toBe(first.id);
    expect(await ctx.repo(ApiKeyEntity).countBy({ name: 'admin (env)' })).toBe(1);
    expect(await keys.verify(secret, ctx.clock.now())).toMatchObject({ id: first.id, scopes: ['admin'] });
  });

  it('ensure brings back a revoked or expired key with the given name and scopes, keeping its id', async () => {
    const secret = 'function-key-secret-0123456789';
    const { key } = await f.newKey({ secret, name: 'old name', scopes: ['agents:read'], expiresAt: new Date(MEDIUM_START.getTime() + HOUR) });
    await keys.revoke(key.id);
    ctx.clock.advance(2 * HOUR);
    expect(await keys.verify(secret, ctx.clock.now())).toBeNull();

    const restored = await keys.ensure(secret, 'enroll-rmm function', ['deployments:write']);
    expect(restored).toMatchObject({ id: key.id, name: 'enroll-rmm function', scopes: ['deployments:write'], revokedAt: null, expiresAt: null });
    expect(await keys.verify(secret, ctx.clock.now())).toMatchObject({ id: key.id });
    expect(await ctx.repo(ApiKeyEntity).countBy({ prefix: secret.slice(0, 12) })).toBe(1);
  });
});
