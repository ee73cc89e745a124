import { AlertEntity, NotificationChannelEntity, NotificationDeliveryEntity } from '@app/entities';
import { TransactionHost } from '../../../apps/api/src/database/transaction-host';
import { AlertsService } from '../../../apps/api/src/rmm/alerting/alerts/alerts.service';
import { DeliveryWorker } from '../../../apps/api/src/rmm/alerting/notifications/delivery-worker';
import { NotificationOutbox } from '../../../apps/api/src/rmm/alerting/notifications/notification-outbox';
import { toSyncedCheck } from '../../../apps/api/src/rmm/automation/checks/check-sync';
import { ChecksRepository } from '../../../apps/api/src/rmm/automation/checks/checks.repository';
import { LocalAgentChannel } from '../../../apps/api/src/rmm/fleet/agent-channel/agent-channel';
import { AgentPresenceService } from '../../../apps/api/src/rmm/fleet/presence/agent-presence.service';
import { until } from '../../utils/wait';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext } from '../medium.harness';

/**
 * Issue 30, finding N2 (what one agent can cost is bounded), on PostgreSQL with a fixed clock: a flapping check
 * stops paging, one agent's notifications per channel and hour are capped and summarised, and presence
 * notifications are debounced. Defaults of the configuration: RMM_ALERT_FLAP_LIMIT 5,
 * RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR 60, RMM_NOTIFY_OFFLINE_GRACE_SECONDS 60.
 */
describe('N2: what one agent can cost (medium)', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let tx: TransactionHost;

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    tx = ctx.get(TransactionHost);
    // Only the outbox here: the worker would claim (and fail, and count) the rows under test.
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
      ctx.repo(NotificationChannelEntity).create({ name: 'c', type: 'webhook', url: 'https://hooks.example.com/', minSeverity: 'info', events: ['alert.created', 'alert.resolved'], ...o }),
    );
  const deliveries = async (agentId: number): Promise<NotificationDeliveryEntity[]> =>
    (await ctx.repo(NotificationDeliveryEntity).find({ order: { createdAt: 'ASC' } })).filter((d) => (d.payload.agent as { id: string } | null)?.id === String(agentId));
  const events = async (agentId: number): Promise<string[]> => (await deliveries(agentId)).map((d) => d.event);

  it('N2: a check whose results alternate at its own interval becomes flapping after its fifth cycle in 30 minutes: one alert.flapping, then no created/resolved until stable for 30 minutes', async () => {
    await channel();
    const agent = await f.newAgent();
    const check = await f.newCheck({ agentId: agent.id, checkType: 'memory', settings: { threshold_percent: 90 }, failsB4Alert: 1 });
    expect(check.runInterval).toBe(120);
    // The agent's connection, held here, given its checks (as the check sync does): results go through the gate.
    const local = ctx.get(LocalAgentChannel);
    const detach = local.attach(agent.id, { send: () => undefined });
    const [synced] = await ctx.get(ChecksRepository).toRun(agent.id);
    local.send(agent.id, { type: 'checks.sync', checks: [toSyncedCheck(synced)] });
    let stored = 0;
    const result = async (status: 'failing' | 'passing'): Promise<void> => {
      ctx.clock.advance(check.runInterval * 1000); // at its own interval
      local.dispatch(agent.id, 'check.result', { type: 'check.result', checkId: check.id, status, moreInfo: `${status} ${stored}` });
      const want = ++stored;
      await until(`result ${want} stored`, async () => (await tx.rows<{ n: number }>(`SELECT count(*)::int n FROM check_results WHERE check_id = $1`, [check.id]))[0].n === want);
    };
    const alerts = (): Promise<AlertEntity[]> => ctx.repo(AlertEntity).find({ where: { checkId: check.id }, order: { id: 'ASC' } });
    try {
      const start = ctx.clock.now().getTime();
      for (let cycle = 1; cycle <= 5; cycle++) {
        await result('failing');
        await result('passing');
      }
      expect(await events(agent.id)).toEqual(Array.from({ length: 5 }, () => ['alert.created', 'alert.resolved']).flat());
      expect((await alerts()).map((a) => [a.resolved, a.flapping])).toEqual(Array.from({ length: 5 }, () => [true, false]));

      // the sixth open within 30 minutes: more than RMM_ALERT_FLAP_LIMIT (5) → flapping, notified once
      await result('failing');
      expect(ctx.clock.now().getTime() - start).toBeLessThan(30 * 60_000);
      const flapping = (await alerts())[5];
      expect(flapping).toMatchObject({ resolved: false, flapping: true });
      expect((await events(agent.id)).slice(10)).toEqual(['alert.flapping']);
      const [notice] = (await deliveries(agent.id)).slice(10);
      expect(notice).toMatchObject({ severity: 'warning', payload: { event: 'alert.flapping', alert: { id: flapping.id, flapping: true, resolved: false } } });

      // it keeps flipping: nothing more is notified, and its alert stays open (no new alert rows)
      for (let i = 0; i < 6; i++) await result(i % 2 === 0 ? 'passing' : 'failing');
      await result('passing');
      expect((await events(agent.id)).length).toBe(11);
      expect((await alerts()).map((a) => a.id)).toEqual((await alerts()).slice(0, 6).map((a) => a.id));
      expect((await alerts())[5]).toMatchObject({ resolved: false, flapping: true });

      // stable (passing) for less than 30 minutes: still flapping
      ctx.clock.advance(29 * 60_000);
      expect(await ctx.get(AlertsService).endFlapping()).toEqual([]);
      expect((await alerts())[5]).toMatchObject({ resolved: false, flapping: true });
      // 30 minutes stable: resolved by system, notified again (the all-clear), flapping over
      ctx.clock.advance(60_000);
      const ended = await ctx.get(AlertsService).endFlapping();
      expect(ended.map((a) => a.id)).toEqual([flapping.id]);
      expect((await alerts())[5]).toMatchObject({ resolved: true, resolvedBy: 'system', flapping: false });
      expect((await events(agent.id)).slice(11)).toEqual(['alert.resolved']);
      // and the next failure is an ordinary alert again
      await result('failing');
      expect((await events(agent.id)).slice(12)).toEqual(['alert.created']);
      expect((await alerts())[6]).toMatchObject({ resolved: false, flapping: false });
    } finally {
      detach();
    }
  });

  it('N2: past RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR (60) an agent’s notifications to a channel are summarised in one notifications.suppressed, due at the end of the hour; other agents and channels keep their own budget', async () => {
    const c = await channel({ events: ['alert.created', 'alert.resolved', 'enrollment.completed'] });
    const other = await channel({ events: ['enrollment.completed'] });
    const noisy = await f.newAgent();
    const quiet = await f.newAgent();
    const outbox = ctx.get(NotificationOutbox);
    for (let i = 0; i < 65; i++) await outbox.agents('enrollment.completed', [noisy.id]);
    await ctx.get(AlertsService).raise({ alertType: 'enrollment_conflict', agentId: noisy.id, severity: 'error', message: 'one more, of another kind' });
    await outbox.agents('enrollment.completed', [quiet.id]);

    const rows = await deliveries(noisy.id);
    const toC = rows.filter((d) => d.channelId === c.id);
    expect(toC.filter((d) => d.event !== 'notifications.suppressed')).toHaveLength(60);
    const summaries = toC.filter((d) => d.event === 'notifications.suppressed');
    expect(summaries).toHaveLength(1);
    const [{ window_end }] = await tx.rows<{ window_end: Date }>(`SELECT date_trunc('hour', now()) + interval '1 hour' AS window_end`);
    expect(summaries[0]).toMatchObject({ status: 'pending', severity: 'warning', nextAttemptAt: window_end });
    expect(summaries[0].payload).toMatchObject({
      event: 'notifications.suppressed',
      agent: { id: String(noisy.id), hostname: noisy.hostname },
      suppressed: { count: 6, events: ['alert.created', 'enrollment.completed'], limit: 60, until: window_end.toISOString() },
    });
    // the other channel has its own 60 (it does not list alert.created): 60 and a summary of 5
    const toOther = rows.filter((d) => d.channelId === other.id);
    expect(toOther.filter((d) => d.event === 'enrollment.completed')).toHaveLength(60);
    expect(toOther.find((d) => d.event === 'notifications.suppressed')?.payload).toMatchObject({ suppressed: { count: 5, events: ['enrollment.completed'] } });
    // another agent is not held back by the noisy one
    expect((await deliveries(quiet.id)).map((d) => d.event)).toEqual(['enrollment.completed', 'enrollment.completed']);

    // A new hour is a new budget (and a new summary when it runs out again).
    await tx.exec(`UPDATE notification_budgets SET window_start = window_start - interval '1 hour' WHERE agent_id = $1`, [noisy.id]);
    await outbox.agents('enrollment.completed', [noisy.id]);
    expect((await deliveries(noisy.id)).filter((d) => d.channelId === c.id && d.event === 'enrollment.completed')).toHaveLength(61);
    expect(await outbox.pruneBudgets()).toBe(0); // the rows were just moved to this hour again
  });

  it('N2: agent.offline only after RMM_NOTIFY_OFFLINE_GRACE_SECONDS offline, agent.online only after a notified offline', async () => {
    await channel({ events: ['agent.offline', 'agent.online'] });
    const agent = await f.newAgent();
    const presence = ctx.get(AgentPresenceService);
    // the first connect is no news (enrollment.completed says it), and reconnecting within the grace says nothing
    let conn = await presence.connect(agent.id, ctx.clock.now());
    for (let i = 0; i < 5; i++) {
      await presence.disconnect(conn);
      ctx.clock.advance(59_000);
      await presence.sweepSilent();
      conn = await presence.connect(agent.id, ctx.clock.now());
    }
    expect(await events(agent.id)).toEqual([]);
    expect((await tx.rows<{ status: string }>(`SELECT status FROM agents WHERE id = $1`, [agent.id]))[0].status).toBe('online');
    // offline past the grace: paged once (by the sweep), and its return is the all-clear
    await presence.disconnect(conn);
    ctx.clock.advance(59_000);
    await presence.sweepSilent();
    expect(await events(agent.id)).toEqual([]);
    ctx.clock.advance(1_000);
    await presence.sweepSilent();
    await presence.sweepSilent();
    expect(await events(agent.id)).toEqual(['agent.offline']);
    await presence.connect(agent.id, ctx.clock.now());
    expect(await events(agent.id)).toEqual(['agent.offline', 'agent.online']);
  });
});
