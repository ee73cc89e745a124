import { NotificationChannelEntity, NotificationDeliveryEntity } from '@app/entities';
import { TransactionHost } from '../../../apps/api/src/database/transaction-host';
import { AgentPresenceService } from '../../../apps/api/src/rmm/fleet/presence/agent-presence.service';
import { AlertsService } from '../../../apps/api/src/rmm/alerting/alerts/alerts.service';
import { DeliveryWorker } from '../../../apps/api/src/rmm/alerting/notifications/delivery-worker';
import { EVERY_CLIENT } from '../../../apps/api/src/rmm/common/client-scope';
import { toAlertDto } from '../../../apps/api/src/rmm/common/resources/alert.dto';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext } from '../medium.harness';

/**
 * The outbox on PostgreSQL (issue 23): a notification is written in the transaction of its cause, so a change
 * rolled back has none and a committed one always has its own; presence writes theirs in the same statement as
 * the status change, for a whole batch of agents.
 */
describe('notification outbox on PostgreSQL', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let alerts: AlertsService;
  let tx: TransactionHost;
  const deliveries = () => ctx.repo(NotificationDeliveryEntity).find({ order: { createdAt: 'ASC' } });

  beforeAll(async () => {
    // agent.offline at the close, as before the debounce (issue 30, N2): this file is about where notifications go
    ctx = await createMediumContext({ config: { notifyOfflineGraceSeconds: 0 } });
    f = new MediumFactory(ctx);
    alerts = ctx.get(AlertsService);
    tx = ctx.get(TransactionHost);
    // Only the outbox here: the worker would claim (and count attempts of) the rows under test.
    await ctx.get(DeliveryWorker).beforeApplicationShutdown();
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(async () => {
    await tx.exec('DELETE FROM notification_channels');
  });

  const channel = (o: Partial<NotificationChannelEntity> = {}): Promise<NotificationChannelEntity> =>
    ctx.repo(NotificationChannelEntity).save(
      ctx.repo(NotificationChannelEntity).create({ name: 'c', type: 'webhook', url: 'https://hooks.example.com/', minSeverity: 'info', events: ['alert.created', 'alert.resolved', 'agent.offline', 'agent.overdue'], ...o }),
    );

  it('writes nothing when the alert is rolled back, and the deliveries when it commits', async () => {
    const c = await channel();
    const agent = await f.newAgent();
    await expect(
      tx.run(async () => {
        await alerts.raise({ alertType: 'enrollment_conflict', agentId: agent.id, severity: 'error', message: 'rolled back' });
        expect(await tx.rows(`SELECT id FROM notification_deliveries WHERE channel_id = $1`, [c.id])).toHaveLength(1); // inside, it is there
        throw new Error('the change fails after the alert');
      }),
    ).rejects.toThrow('the change fails');
    expect(await deliveries()).toEqual([]);
    expect((await alerts.list({ agentId: agent.id, resolved: false }, { offset: 0 }, EVERY_CLIENT))[1]).toBe(0);

    const alert = await alerts.raise({ alertType: 'enrollment_conflict', agentId: agent.id, severity: 'error', message: 'committed' });
    const rows = await deliveries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channelId: c.id, event: 'alert.created', severity: 'error', status: 'pending', attempts: 0 });
    expect(rows[0].payload).toMatchObject({ event: 'alert.created', agent: { id: String(agent.id), hostname: agent.hostname }, alert: { id: alert!.id, message: 'committed', resolved: false } });
    await tx.exec('DELETE FROM notification_deliveries');
  });

  it('carries the alert exactly as the API answers it (its SQL and toAlertDto are one field list), and the agent with its client and site', async () => {
    await channel({ events: ['alert.created', 'alert.acknowledged', 'alert.resolved'] });
    const client = await f.newClient({ name: 'Payload & Co' });
    const site = await f.newSite({ clientId: client.id, name: 'HQ' });
    const agent = await f.newAgent({ clientId: client.id, siteId: site.id });
    const check = await f.newCheck({ agentId: agent.id });
    const raised = await alerts.raise({ alertType: 'check_failure', agentId: agent.id, checkId: check.id, severity: 'warning', message: 'disk "C:" at 95 %' });
    ctx.clock.advance(1_234);
    await alerts.acknowledge(raised!.id, 'ops key', EVERY_CLIENT);
    ctx.clock.advance(5_678);
    const resolved = await alerts.resolve(raised!.id, 'ops key', EVERY_CLIENT);
    const rows = await deliveries();
    expect(rows.map((r) => r.event)).toEqual(['alert.created', 'alert.acknowledged', 'alert.resolved']);
    // every field of the last one (acknowledged and resolved: no null date) is what GET /api/v3/alerts/{id}/ answers
    expect(rows[2].payload.alert).toEqual(toAlertDto(resolved));
    expect(Object.keys(rows[2].payload.alert as object).sort()).toEqual(Object.keys(toAlertDto(resolved)).sort());
    expect((rows[0].payload.alert as { acknowledged_at: unknown }).acknowledged_at).toBeNull();
    expect(rows[0].payload.agent).toEqual({ id: String(agent.id), hostname: agent.hostname, plat: agent.plat, client: { id: client.id, name: 'Payload & Co' }, site: { id: site.id, name: 'HQ' } });
    await tx.exec('DELETE FROM notification_deliveries');
  });

  it('writes one delivery per subscribed channel and alert, one statement for a batch of overdue alerts', async () => {
    const all = await channel();
    const errorsOnly = await channel({ minSeverity: 'error' });
    await channel({ events: ['agent.online'] }); // not subscribed
    const disabled = await channel({ enabled: false });
    const client = await f.newClient();
    const limited = await channel({ clients: [client.id] });
    const agents = await Promise.all([1, 2, 3].map(() => f.newAgent({ status: 'overdue' })));
    const opened = await alerts.openOverdue('error', agents.map((a) => a.id));
    expect(opened).toHaveLength(3);
    const rows = await deliveries();
    expect(rows.map((r) => r.channelId).sort()).toEqual([all.id, all.id, all.id, errorsOnly.id, errorsOnly.id, errorsOnly.id].sort());
    expect(rows.some((r) => r.channelId === disabled.id || r.channelId === limited.id)).toBe(false);
    await tx.exec('DELETE FROM notification_deliveries');
  });

  it('writes agent.offline and agent.overdue in the statement that changes the status, for every agent of the batch', async () => {
    const c = await channel({ events: ['agent.offline', 'agent.overdue'], minSeverity: 'warning' });
    const presence = ctx.get(AgentPresenceService);
    const agents = await Promise.all([1, 2].map(() => f.newAgent({ status: 'online', lastSeen: new Date(ctx.clock.now().getTime() - 600_000) })));
    const changed = await presence.markSilent(ctx.clock.now(), 120, 300);
    expect(changed.offline.sort()).toEqual(agents.map((a) => a.id).sort());
    expect(changed.overdue.sort()).toEqual(agents.map((a) => a.id).sort());
    const rows = (await deliveries()).filter((r) => r.channelId === c.id);
    expect(rows.map((r) => `${r.event} ${r.severity} ${(r.payload.agent as { id: string }).id}`).sort()).toEqual(
      agents.flatMap((a) => [`agent.offline warning ${a.id}`, `agent.overdue error ${a.id}`]).sort(),
    );
    await tx.exec('DELETE FROM notification_deliveries');
  });

  it("sends an agent's agent.online to every channel it was sent the agent.offline of, whatever its min_severity, once per page (issue 29, point 4)", async () => {
    const presence = ctx.get(AgentPresenceService);
    const elsewhere = await f.newClient();
    const paged = await channel({ events: ['agent.offline', 'agent.online'], minSeverity: 'warning' });
    await channel({ events: ['agent.offline', 'agent.online'], minSeverity: 'warning', clients: [elsewhere.id] });
    const news = await channel({ events: ['agent.online'], minSeverity: 'info' });
    const offlineOnly = await channel({ events: ['agent.offline'], minSeverity: 'warning' });
    const agent = await f.newAgent({ status: 'online', lastSeen: new Date(ctx.clock.now().getTime() - 600_000) });
    const names = (rows: NotificationDeliveryEntity[]): string[] =>
      rows.filter((r) => (r.payload.agent as { id: string }).id === String(agent.id)).map((r) => `${r.event} ${r.severity} ${r.channelId}`).sort();

    expect((await presence.markSilent(ctx.clock.now(), 120, 3_600)).offline).toEqual([agent.id]);
    expect(names(await deliveries())).toEqual([`agent.offline warning ${paged.id}`, `agent.offline warning ${offlineOnly.id}`].sort());
    // made after the page: it was not sent one, so no recovery either; a channel's min_severity raised meanwhile changes nothing
    const later = await channel({ events: ['agent.offline', 'agent.online'], minSeverity: 'warning' });
    await tx.exec(`UPDATE notification_channels SET min_severity = 'error' WHERE id = $1`, [paged.id]);
    await tx.exec('DELETE FROM notification_deliveries');

    const conn = await presence.connect(agent.id, ctx.clock.now());
    // paged (at error now) is owed it; news lists it at info; not notTheirs (never sent the page), not offlineOnly
    // (does not list agent.online), not later (made after the page)
    expect(names(await deliveries())).toEqual([`agent.online info ${paged.id}`, `agent.online info ${news.id}`].sort());
    // Owed once per page: the next offline is not sent to paged (at error now), so neither is the next return.
    await tx.exec('DELETE FROM notification_deliveries');
    await presence.disconnect(conn);
    expect(names(await deliveries())).toEqual([`agent.offline warning ${offlineOnly.id}`, `agent.offline warning ${later.id}`].sort());
    await tx.exec('DELETE FROM notification_deliveries');
    await presence.connect(agent.id, ctx.clock.now());
    expect(names(await deliveries())).toEqual([`agent.online info ${later.id}`, `agent.online info ${news.id}`].sort());
    await tx.exec('DELETE FROM notification_deliveries');
  });

  it('prunes finished deliveries after 30 days, never a pending one', async () => {
    const c = await channel();
    const row = (status: string, daysAgo: number) =>
      tx.rows<{ id: string }>(
        `INSERT INTO notification_deliveries (channel_id, event, severity, payload, status, created_at) VALUES ($1, 'alert.created', 'error', '{}', $2, now() - $3 * interval '1 day') RETURNING id`,
        [c.id, status, daysAgo],
      );
    const [oldDelivered] = await row('delivered', 31);
    const [oldFailed] = await row('failed', 45);
    const [oldPending] = await row('pending', 40);
    const [recent] = await row('delivered', 29);
    expect(await ctx.get(DeliveryWorker).prune()).toBe(2);
    // (only the rows made here: the agent_overdue alerts the previous test's agents open, a moment after their
    // presence changed, may write their own deliveries for this channel)
    const mine = [oldDelivered.id, oldFailed.id, oldPending.id, recent.id];
    const left = (await tx.rows<{ id: string }>(`SELECT id FROM notification_deliveries WHERE id = ANY($1::uuid[])`, [mine])).map((r) => r.id).sort();
    expect(left).toEqual([oldPending.id, recent.id].sort());
    expect(left).not.toContain(oldDelivered.id);
    expect(left).not.toContain(oldFailed.id);
    await tx.exec('DELETE FROM notification_deliveries');
  });
});
