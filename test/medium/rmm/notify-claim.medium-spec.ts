import { NotificationChannelEntity } from '@app/entities';
import { TransactionHost } from '../../../apps/api/src/database/transaction-host';
import { DeliveryWorker } from '../../../apps/api/src/rmm/alerting/notifications/delivery-worker';
import { NotificationsRepository } from '../../../apps/api/src/rmm/alerting/notifications/notifications.repository';
import { createMediumContext, MediumContext } from '../medium.harness';

const LEASE = 60;
const PER_CHANNEL = 4;
const PROBE = 180;

/**
 * The claim's SQL on PostgreSQL (issue 30, N2 point 3: a slow receiver delays only itself): round-robin by channel,
 * oldest first within one, at most PER_CHANNEL of a channel leased whoever leased them (another instance's leases
 * are rows, counted), one spaced probe for a channel whose circuit is open, and claims made at once by several
 * connections (as several instances) together never past a channel's limit.
 */
describe('N2 point 3: fair claim of notification deliveries', () => {
  let ctx: MediumContext;
  let tx: TransactionHost;
  let repo: NotificationsRepository;

  beforeAll(async () => {
    ctx = await createMediumContext();
    tx = ctx.get(TransactionHost);
    repo = ctx.get(NotificationsRepository);
    // Only the claim here: the app's worker would claim (and send) the rows under test.
    await ctx.get(DeliveryWorker).beforeApplicationShutdown();
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(async () => {
    await tx.exec('DELETE FROM notification_channels');
  });

  const channel = async (name: string, o: Partial<NotificationChannelEntity> = {}): Promise<number> =>
    (await ctx.repo(NotificationChannelEntity).save(ctx.repo(NotificationChannelEntity).create({ name, type: 'webhook', url: 'https://hooks.example.com/', minSeverity: 'info', events: ['alert.created'], ...o }))).id;
  /** `n` due deliveries of a channel, the first the oldest (due i seconds apart, in the past), tagged `<tag>-<i>`. */
  const due = (channelId: number, tag: string, n: number, o: { lockedForSeconds?: number; dueInSeconds?: number } = {}) =>
    tx.exec(
      `INSERT INTO notification_deliveries (channel_id, event, severity, payload, next_attempt_at, created_at, locked_until)
       SELECT $1, 'alert.created', 'error', jsonb_build_object('tag', $2 || '-' || g), now() - interval '1 hour' + g * interval '1 second' + $4 * interval '1 second',
              now() - interval '1 hour' + g * interval '1 second', CASE WHEN $5::int IS NULL THEN NULL ELSE now() + $5 * interval '1 second' END
         FROM generate_series(1, $3::int) g`,
      [channelId, tag, n, o.dueInSeconds ?? 0, o.lockedForSeconds ?? null],
    );
  const tags = (claimed: Array<{ payload: unknown }>): string[] => claimed.map((c) => (c.payload as { tag: string }).tag);

  it('takes one of each channel in turn, oldest first within each, and never more than the limit of one channel in flight', async () => {
    const flood = await channel('flood');
    const few = await channel('few');
    const one = await channel('one');
    await due(flood, 'a', 500);
    await due(few, 'b', 3);
    await due(one, 'c', 1);

    const first = await repo.claim(6, LEASE, PER_CHANNEL, PROBE);
    expect(tags(first).sort()).toEqual(['a-1', 'a-2', 'a-3', 'b-1', 'b-2', 'c-1'].sort());
    // The flood's fourth slot is its last: it has 3 in flight now, 497 due.
    const second = await repo.claim(100, LEASE, PER_CHANNEL, PROBE);
    expect(tags(second).sort()).toEqual(['a-4', 'b-3']);
    expect(await repo.claim(100, LEASE, PER_CHANNEL, PROBE)).toEqual([]);

    // An attempt recorded gives its slot back: the next oldest of that channel, and only one.
    const a1 = first.find((d) => tags([d])[0] === 'a-1')!;
    expect(await repo.finishAttempt(a1.id, a1.attempts, { kind: 'retry', statusCode: null, error: 'timed out', delaySeconds: 30 })).toBe(true);
    expect(tags(await repo.claim(100, LEASE, PER_CHANNEL, PROBE))).toEqual(['a-5']);
  });

  it("counts another instance's live leases and not a dead one's, and a new channel's first delivery goes ahead of a flood's backlog", async () => {
    const busy = await channel('busy elsewhere');
    await due(busy, 'live', 3, { lockedForSeconds: 50 }); // leased by a live instance
    await due(busy, 'dead', 2, { lockedForSeconds: -5 }); // leased by one that died: free again, and due
    const flood = await channel('flood');
    await due(flood, 'f', 300);
    expect(tags(await repo.claim(5, LEASE, PER_CHANNEL, PROBE)).sort()).toEqual(['dead-1', 'f-1', 'f-2', 'f-3', 'f-4']);

    // A delivery written now for a quiet channel is claimed by the next claim, however many the flood has due.
    const quiet = await channel('quiet');
    await due(quiet, 'q', 1, { dueInSeconds: 3_599 });
    expect(tags(await repo.claim(32, LEASE, PER_CHANNEL, PROBE))).toEqual(['q-1']);
  });

  it('claims from several connections at once (as several instances) without passing one limit of a channel', async () => {
    const hang = await channel('hanging');
    await due(hang, 'h', 200);
    const claims = await Promise.all(Array.from({ length: 6 }, () => repo.claim(32, LEASE, PER_CHANNEL, PROBE)));
    const all = claims.flat();
    expect(all.length).toBeLessThanOrEqual(PER_CHANNEL);
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
    const [{ leased }] = await tx.rows<{ leased: number }>(`SELECT count(*)::int AS leased FROM notification_deliveries WHERE channel_id = $1 AND locked_until > now()`, [hang]);
    expect(leased).toBe(all.length);
    // what one claim missed while another held the channel, the next takes, up to the limit and no further
    await repo.claim(32, LEASE, PER_CHANNEL, PROBE);
    const [{ now }] = await tx.rows<{ now: number }>(`SELECT count(*)::int AS now FROM notification_deliveries WHERE channel_id = $1 AND locked_until > now()`, [hang]);
    expect(now).toBe(PER_CHANNEL);
  });

  it('opens the circuit of a channel failing for the set time, claims one probe at a time no earlier than its probe time, and a success closes it', async () => {
    const down = await channel('down');
    await due(down, 'd', 50);
    const failed = (reason: string) => repo.channelFailed(down, reason, 900, PROBE);
    const read = () => ctx.repo(NotificationChannelEntity).findOneByOrFail({ id: down });

    expect((await failed('the receiver answered 503'))?.opened).toBeNull();
    expect(await failed('the receiver answered 503')).toBeNull(); // nothing changed: not written
    let c = await read();
    expect(c).toMatchObject({ lastFailure: 'the receiver answered 503', circuitOpenedAt: null });
    expect(c.failingSince).toBeInstanceOf(Date);
    // failing for 15 minutes, then one more failure opens it
    await tx.exec(`UPDATE notification_channels SET failing_since = now() - interval '15 minutes 1 second' WHERE id = $1`, [down]);
    const opened = await failed('timed out: the receiver did not answer within 10 s');
    expect(opened?.opened).toBeInstanceOf(Date);
    c = await read();
    expect(c.circuitOpenedAt).toBeInstanceOf(Date);
    expect(c.lastFailure).toBe('timed out: the receiver did not answer within 10 s');
    expect(c.circuitProbeAt!.getTime() - c.circuitOpenedAt!.getTime()).toBe(PROBE * 1000);

    // open, probe not yet due: nothing; probe due: one, and the next one PROBE seconds later
    expect(await repo.claim(32, LEASE, PER_CHANNEL, PROBE)).toEqual([]);
    await tx.exec(`UPDATE notification_channels SET circuit_probe_at = now() - interval '1 second' WHERE id = $1`, [down]);
    const probe = await repo.claim(32, LEASE, PER_CHANNEL, PROBE);
    expect(tags(probe)).toEqual(['d-1']);
    c = await read();
    expect(c.circuitProbeAt!.getTime()).toBeGreaterThan(Date.now() + (PROBE - 5) * 1000);
    // the probe's lease still live: no second one even when its time came
    await tx.exec(`UPDATE notification_channels SET circuit_probe_at = now() - interval '1 second' WHERE id = $1`, [down]);
    expect(await repo.claim(32, LEASE, PER_CHANNEL, PROBE)).toEqual([]);

    // the probe goes through: closed, failures forgotten, the backlog claimed as for any channel again
    expect(await repo.finishDelivered([{ id: probe[0].id, attempts: probe[0].attempts, statusCode: 200, channelId: down }])).toEqual(new Set([probe[0].id]));
    c = await read();
    expect(c).toMatchObject({ failingSince: null, lastFailure: null, circuitOpenedAt: null, circuitProbeAt: null });
    expect(tags(await repo.claim(32, LEASE, PER_CHANNEL, PROBE))).toEqual(['d-2', 'd-3', 'd-4', 'd-5']);
  });
});
