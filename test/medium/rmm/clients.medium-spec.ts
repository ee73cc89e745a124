import { AgentEntity, ClientEntity, SiteEntity } from '@app/entities';
import { ClientsService } from '../../../apps/api/src/rmm/tenancy/clients/clients.service';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext } from '../medium.harness';
import { EVERY_CLIENT } from '../../../apps/api/src/rmm/common/client-scope';

describe('ClientsService on PostgreSQL', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let clients: ClientsService;

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    clients = ctx.get(ClientsService);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('creates a client with its first site, the names trimmed, and reads it back with its sites', async () => {
    const created = await clients.createClientWithSite('  Acme Corp ', ' HQ ');
    expect(created).toMatchObject({ id: expect.any(Number), name: 'Acme Corp', sites: [{ id: expect.any(Number), name: 'HQ', clientId: created.id }] });
    expect(await ctx.repo(ClientEntity).findOneBy({ id: created.id })).toMatchObject({ name: 'Acme Corp' });
    expect((await clients.list()).find((c) => c.id === created.id)?.sites?.map((s) => s.name)).toEqual(['HQ']);
  });

  it('refuses a second client with the same name, and keeps only the first', async () => {
    const first = await f.newClient({ name: 'Globex' });
    await expect(clients.createClient('Globex')).rejects.toMatchObject({ message: 'a client named "Globex" already exists' });
    await expect(clients.createClient('  Globex  ')).rejects.toMatchObject({ message: 'a client named "Globex" already exists' });
    expect(await ctx.repo(ClientEntity).findBy({ name: 'Globex' })).toEqual([expect.objectContaining({ id: first.id })]);
  });

  it('refuses an empty or blank name, naming the field, and stores nothing', async () => {
    const before = await ctx.repo(ClientEntity).count();
    for (const name of ['', '   ']) {
      await expect(clients.createClient(name)).rejects.toMatchObject({ message: 'name must not be empty', fields: [{ field: 'name', message: 'must not be empty' }] });
    }
    await expect(clients.createClient('x'.repeat(201))).rejects.toMatchObject({ fields: [{ field: 'name', message: 'at most 200 characters' }] });
    expect(await ctx.repo(ClientEntity).count()).toBe(before);
  });

  it('keeps site names unique within a client only, and refuses a site for an unknown client', async () => {
    const a = await f.newClient();
    const b = await f.newClient();
    await f.newSite({ clientId: a.id, name: 'Main' });
    await expect(clients.createSite(a.id, 'Main', EVERY_CLIENT)).rejects.toMatchObject({ message: `client ${a.id} already has a site named "Main"` });
    await expect(clients.createSite(b.id, 'Main', EVERY_CLIENT)).resolves.toMatchObject({ clientId: b.id, name: 'Main' });
    await expect(clients.createSite(424242, 'Main', EVERY_CLIENT)).rejects.toMatchObject({ message: 'Not found' });
    expect(await ctx.repo(SiteEntity).countBy({ name: 'Main' })).toBe(2);
  });

  it('refuses to rename a client to a name another client has; an unknown client is not found', async () => {
    const a = await f.newClient({ name: 'Initech' });
    const b = await f.newClient();
    await expect(clients.renameClient(b.id, 'Initech', EVERY_CLIENT)).rejects.toMatchObject({ message: 'a client named "Initech" already exists' });
    expect((await ctx.repo(ClientEntity).findOneByOrFail({ id: b.id })).name).toBe(b.name);
    await expect(clients.renameClient(a.id, 'Initech Ltd', EVERY_CLIENT)).resolves.toMatchObject({ id: a.id, name: 'Initech Ltd' });
    await expect(clients.renameClient(424242, 'Nobody', EVERY_CLIENT)).rejects.toMatchObject({ message: 'Not found' });
  });

  it('refuses to delete a client or a site while agents belong to it, then deletes the client with its sites', async () => {
    const site = await f.newSite();
    const agent = await f.newAgent({ siteId: site.id });
    await expect(clients.deleteSite(site.clientId, site.id, EVERY_CLIENT)).rejects.toMatchObject({
      message: `site ${site.id} still has 1 agent(s): delete or move them first`,
    });
    await expect(clients.deleteClient(site.clientId, EVERY_CLIENT)).rejects.toMatchObject({
      message: `client ${site.clientId} still has 1 agent(s): delete or move them first`,
    });
    expect(await ctx.repo(ClientEntity).existsBy({ id: site.clientId })).toBe(true);

    await ctx.repo(AgentEntity).delete({ id: agent.id });
    await clients.deleteClient(site.clientId, EVERY_CLIENT);
    expect(await ctx.repo(ClientEntity).existsBy({ id: site.clientId })).toBe(false);
    expect(await ctx.repo(SiteEntity).existsBy({ id: site.id })).toBe(false); // sites go with their client
    await expect(clients.deleteClient(site.clientId, EVERY_CLIENT)).rejects.toMatchObject({ message: 'Not found' });
  });

  it('ensureClientAndSite makes the default tenant once and finds it afterwards', async () => {
    const first = await clients.ensureClientAndSite('Default', 'Default');
    const second = await clients.ensureClientAndSite('Default', 'Default');
    expect(second.client.id).toBe(first.client.id);
    expect(second.site.id).toBe(first.site.id);
    expect(await ctx.repo(ClientEntity).countBy({ name: 'Default' })).toBe(1);
    expect(await ctx.repo(SiteEntity).countBy({ clientId: first.client.id })).toBe(1);
  });
});
