import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { packageVersion } from '../../../config/app-config';
import { RuntimeConfig } from '../../../config/runtime-config';
import { RmmEventName, RmmEvents } from '../../common/bus/rmm-events';
import { emailMessage, httpBody, Notification } from './notification-messages';
import { AttemptOutcome, NotificationSenders, signature, WEBHOOK_TIMEOUT_MS } from './notification-senders';
import { ClaimedDelivery, NotificationsRepository } from './notifications.repository';
import { verdict } from './retry-policy';

/** How often each instance looks for due deliveries when nothing woke it. */
export const POLL_MS = 1_000;
/**
 * A claimed delivery is this instance's for this long: longer than any attempt (the webhook timeout, an SMTP
 * exchange), so that only an instance that died leaves it to another one.
 */
export const LEASE_SECONDS = Math.ceil((6 * WEBHOOK_TIMEOUT_MS) / 1000);

/** Finished deliveries are kept this many days (GET …/deliveries/), then deleted by PRUNE_EVERY_MS passes (once across the cluster). */
export const KEEP_DELIVERIES_DAYS = 30;
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 10_000;

/** How long freed slots wait for company before they are claimed (while more than half are busy). */
const CLAIM_GATHER_MS = 20;

/** While a channel's circuit is open, one probe delivery per this fraction of RMM_NOTIFY_CIRCUIT_MINUTES (3 min of 15). */
export const PROBE_FRACTION = 5;

/** The circuit breaker's times in seconds: how long a channel fails before it opens, and the spacing of its probes. */
export function circuitSeconds(circuitMinutes: number): { openAfter: number; probeEvery: number } {
  const openAfter = circuitMinutes * 60;
  return { openAfter, probeEvery: openAfter / PROBE_FRACTION };
}

/** This server's version (package.json), in User-Agent. */
const SERVER_VERSION = packageVersion();

/** The local events after whose commit there are new deliveries: they wake the worker at once. */
const WAKE_ON: RmmEventName[] = ['alert.created', 'alert.resolved', 'alert.acknowledged', 'agent.offline', 'agent.overdue', 'agent.online', 'task.run', 'agent.registered'];

/**
 * The outbox's sender, on every instance (docs/notifications.md, "Durable delivery"): claims due deliveries
 * (NotificationsRepository.claim: FOR UPDATE SKIP LOCKED and a lease; fair across channels, at most
 * RMM_NOTIFY_CHANNEL_CONCURRENCY of one channel in flight across the cluster), at most RMM_NOTIFY_CONCURRENCY in
 * flight here, sends each once, and records the outcome by retry-policy.ts's rule, and on its channel: a channel
 * that fails for RMM_NOTIFY_CIRCUIT_MINUTES opens its circuit (one probe at a time, spaced), its next success
 * closes it. It wakes at once after a local change
 * that wrote deliveries (the events this instance emits after its commit) and polls every POLL_MS for the rest
 * (other instances' rows, retries coming due, leases of dead instances running out).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('notifications');
  private readonly inFlight = new Set<Promise<void>>();
  private readonly poll: Job;
  private readonly pruner: Job;
  private offs: Array<() => void> = [];
  private stopped = false;
  /** Delivered attempts waiting to be recorded (recordDelivered). */
  private readonly delivered: Array<{ row: { id: string; attempts: number; statusCode: number | null; channelId: number }; resolve: () => void; reject: (err: Error) => void }> = [];
  private recording = false;
  private gather?: NodeJS.Timeout;

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly senders: NotificationSenders,
    private readonly events: RmmEvents,
    private readonly config: RuntimeConfig,
    jobs: Jobs,
  ) {
    // Every instance: each claims for its own free slots (SKIP LOCKED spreads the rows). A wake runs it at once.
    this.poll = jobs.every('notifications.poll', { seconds: POLL_MS / 1000, mode: 'every-instance' }, () => this.fill());
    // Once across the cluster: a DELETE over every delivery.
    this.pruner = jobs.every('notifications.prune', { seconds: PRUNE_EVERY_MS / 1000, mode: 'cluster-once' }, () => this.prune());
  }

  onApplicationBootstrap(): void {
    this.offs = WAKE_ON.map((e) => this.events.on(e, () => this.wake(), { local: true }));
    this.wake();
  }

  /** Before the database closes: attempts under way end and are recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const off of this.offs) off();
    clearTimeout(this.gather);
    await Promise.all([this.poll.stop(), this.pruner.stop()]);
    // Attempts under way end (each within its timeout); what they do not record, their lease gives back.
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Deletes finished deliveries older than KEEP_DELIVERIES_DAYS, a batch at a time (one instance does it, the job's
   * leader; a row deleted by another run meanwhile is simply not found). How many it deleted.
   */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.repo.prune(KEEP_DELIVERIES_DAYS, PRUNE_BATCH);
      total += n;
      if (n < PRUNE_BATCH || this.stopped) return total;
    }
  }

  /** Claims and starts what is due now, unless a claim is running (then once more after it): the job's run, now. */
  wake(): void {
    if (this.stopped) return;
    void this.poll.runNow();
  }

  private async fill(): Promise<void> {
    for (;;) {
      const free = this.config.notifyConcurrency - this.inFlight.size;
      if (free <= 0 || this.stopped) return;
      const { probeEvery } = circuitSeconds(this.config.notifyCircuitMinutes);
      const claimed = await this.repo.claim(free, LEASE_SECONDS, this.config.notifyChannelConcurrency, probeEvery);
      for (const d of claimed) this.start(d);
      if (claimed.length < free) return;
    }
  }

  private start(d: ClaimedDelivery): void {
    const run: Promise<void> = this.deliver(d)
      .then(() => undefined)
      .catch((err: Error) => this.logger.warn(`notification ${d.id} not recorded: ${err.message}`))
      .finally(() => {
        this.inFlight.delete(run);
        // Slots freed one by one are claimed together: at once when half are free, else after CLAIM_GATHER_MS (a
        // claim per notification would be most of a burst's database work).
        if (this.inFlight.size <= this.config.notifyConcurrency / 2) this.wake();
        else this.gather ??= setTimeout(() => ((this.gather = undefined), this.wake()), CLAIM_GATHER_MS);
      });
    this.inFlight.add(run);
  }

  /** One attempt of a claimed delivery, and its outcome recorded. */
  async deliver(d: ClaimedDelivery, options: { once?: boolean } = {}): Promise<AttemptOutcome> {
    const outcome = d.channel.enabled ? await this.attempt(d) : { status: null, error: 'the channel is disabled', final: true };
    const now = new Date();
    const v = verdict(
      { ...outcome, final: outcome.final || options.once },
      d,
      { baseSeconds: this.config.notifyRetryBaseSeconds, retryForSeconds: this.config.notifyRetryForSeconds },
      now,
    );
    switch (v.kind) {
      case 'delivered':
        await this.recordDelivered(d, outcome.status);
        break;
      case 'retry':
        await this.repo.finishAttempt(d.id, d.attempts, { kind: 'retry', statusCode: outcome.status, error: outcome.error, delaySeconds: v.delaySeconds });
        break;
      case 'failed':
        await this.repo.finishAttempt(d.id, d.attempts, { kind: 'failed', statusCode: outcome.status, error: outcome.error });
        break;
      case 'disable': {
        const reason = `the receiver answered 410 Gone at ${now.toISOString()}`;
        await this.repo.finishAttempt(d.id, d.attempts, { kind: 'failed', statusCode: 410, error: `${reason}: the channel is disabled` });
        await this.repo.disable(d.channelId, reason);
        this.logger.warn(`notification channel ${d.channelId} disabled: ${reason}`);
        break;
      }
    }
    // Then the channel's own record (its circuit; a success closed it with the delivery): a disabled channel was
    // not tried, a 410 disabled it anyway.
    if (d.channel.enabled && v.kind !== 'delivered' && v.kind !== 'disable') await this.channelFailed(d, outcome);
    return outcome;
  }

  /** Records a failed attempt on its channel; says so in the log when it opened the channel's circuit. */
  private async channelFailed(d: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    const reason = outcome.error ?? (outcome.status === null ? 'no answer' : `the receiver answered ${outcome.status}`);
    const { openAfter, probeEvery } = circuitSeconds(this.config.notifyCircuitMinutes);
    const changed = await this.repo.channelFailed(d.channelId, reason, openAfter, probeEvery);
    if (changed?.opened) {
      this.logger.warn(
        `notification channel ${d.channelId} circuit open: every attempt has failed since ${changed.failingSince.toISOString()} (last: ${reason}); one probe every ${probeEvery} s until one succeeds`,
      );
    }
  }

  /**
   * Records a delivered attempt with the others that end meanwhile: one statement per batch (one batch at a time;
   * those ending while it runs go in the next). Resolves once this one is written.
   */
  private recordDelivered(d: ClaimedDelivery, statusCode: number | null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.delivered.push({ row: { id: d.id, attempts: d.attempts, statusCode, channelId: d.channelId }, resolve, reject });
      if (!this.recording) {
        this.recording = true;
        setImmediate(() => void this.flushDelivered());
      }
    });
  }

  private async flushDelivered(): Promise<void> {
    while (this.delivered.length > 0) {
      const batch = this.delivered.splice(0, 1_000);
      try {
        await this.repo.finishDelivered(batch.map((b) => b.row));
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err as Error);
      }
    }
    this.recording = false;
  }

  /** Sends it by its channel's type. */
  private attempt(d: ClaimedDelivery): Promise<AttemptOutcome> {
    const n: Notification = { id: d.id, event: d.event, severity: d.severity, at: d.createdAt, payload: d.payload };
    const c = d.channel;
    if (c.type === 'email') return this.senders.mail(c.recipients, emailMessage(n, this.config.publicUrl));
    const body = httpBody(c.type, n, this.config.publicUrl);
    const headers: Record<string, string> = {
      ...c.headers,
      'Content-Type': 'application/json',
      'User-Agent': `rmm-server/${SERVER_VERSION}`,
      'X-RMM-Event': d.event,
      'X-RMM-Delivery': d.id,
    };
    if (c.secret) headers['X-RMM-Signature'] = signature(c.secret, body, Math.floor(Date.now() / 1000));
    return this.senders.post(c.url!, body, headers);
  }
}
