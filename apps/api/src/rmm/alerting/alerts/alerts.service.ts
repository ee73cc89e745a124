import { Injectable } from '@nestjs/common';
import { AlertEntity, AlertSeverity, AlertType } from '@app/entities';
import { Clock } from '../../../common/clock';
import { notFound } from '../../../common/errors/domain-error';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { TransactionHost } from '../../../database/transaction-host';
import { RmmEvents } from '../../common/bus/rmm-events';
import { NotificationOutbox } from '../notifications/notification-outbox';
import { toAlertDto } from '../../common/resources/alert.dto';
import { RuntimeConfig } from '../../../config/runtime-config';
import { Jobs } from '../../../common/jobs/jobs';
import { AlertFilter, AlertSubject, AlertsRepository, FLAP_WINDOW_MS, SystemAlert } from './alerts.repository';

/** resolved_by of an alert the server resolved by itself (its cause went away). */
export const RESOLVED_BY_SYSTEM = 'system';

@Injectable()
export class AlertsService {
  constructor(
    private readonly repo: AlertsRepository,
    private readonly clock: Clock,
    private readonly events: RmmEvents,
    private readonly tx: TransactionHost,
    private readonly outbox: NotificationOutbox,
    private readonly config: RuntimeConfig,
    jobs: Jobs,
  ) {
    // Once across the cluster: one statement over the flapping subjects.
    jobs.every('alerts.flapping', { seconds: 60, mode: 'cluster-once' }, () => this.endFlapping());
  }

  /** `clients`: the caller's (alerts of other clients' agents do not exist for it: 404, absent from lists). */
  list(filter: AlertFilter, page: Page, clients: ClientScope): Promise<[AlertEntity[], number]> {
    return this.repo.list(filter, page, clients);
  }

  async get(id: number, clients: ClientScope): Promise<AlertEntity> {
    const a = await this.repo.findVisible(id, clients);
    if (!a) throw notFound();
    return a;
  }

  /**
   * Marks an open alert seen (not resolved): who (the key's name) and when. The UPDATE decides: a second
   * acknowledgement, or one of a resolved alert, changes nothing and answers the alert as it is (200, not an
   * error: the caller's intent, "seen", holds). alert.acknowledged only when this call changed it. 404, and
   * nothing changed, for an alert the caller may not see.
   */
  async acknowledge(id: number, by: string, clients: ClientScope): Promise<AlertEntity> {
    await this.get(id, clients);
    const changed = await this.tx.run(async () => {
      const done = await this.repo.acknowledge(id, by, this.clock.now());
      if (done) await this.outbox.alerts('alert.acknowledged', [id]);
      return done;
    });
    const after = await this.get(id, clients);
    if (changed) this.events.emit('alert.acknowledged', { agentId: after.agentId, alert: toAlertDto(after) });
    return after;
  }

  /** Resolves the alert: it leaves the active list. The UPDATE decides: idempotent, alert.resolved once. */
  async resolve(id: number, by: string, clients: ClientScope): Promise<AlertEntity> {
    await this.get(id, clients);
    const changed = await this.tx.run(async () => {
      const done = await this.repo.resolve(id, by, this.clock.now());
      if (done) await this.outbox.alerts('alert.resolved', [id]);
      return done;
    });
    const after = await this.get(id, clients);
    if (changed) this.events.emit('alert.resolved', { agentId: after.agentId, alert: toAlertDto(after) });
    return after;
  }

  /** Opens agent_overdue for the overdue agents without one (`agentIds`: among these only); alert.created for each. */
  async openOverdue(severity: AlertSeverity, agentIds?: number[]): Promise<AlertEntity[]> {
    const created = await this.tx.run(async () => this.notified('alert.created', await this.repo.openOverdue(severity, this.clock.now(), agentIds)));
    for (const a of created) this.events.emit('alert.created', { agentId: a.agentId, alert: toAlertDto(a) });
    return created;
  }

  /** Resolves by 'system' the agent_overdue alerts of agents that are online; alert.resolved for each. */
  async resolveOverdueOfOnline(): Promise<AlertEntity[]> {
    const resolved = await this.tx.run(async () => this.notified('alert.resolved', await this.repo.resolveOverdueOfOnline(RESOLVED_BY_SYSTEM, this.clock.now())));
    for (const a of resolved) this.events.emit('alert.resolved', { agentId: a.agentId, alert: toAlertDto(a) });
    return resolved;
  }

  /**
   * Opens a system alert (check_failure, task_failure, agent_overdue, enrollment_conflict) unless one is open for its subject, and
   * announces alert.created; null when one was already open (never a second, even under concurrent callers).
   * Flapping (docs/notifications.md): the open is counted in its subject's history; the open that makes it more
   * than RMM_ALERT_FLAP_LIMIT in 30 minutes is notified as alert.flapping instead of alert.created, and while the
   * subject flaps its alerts are not notified at all (they are still announced on the events WebSockets).
   */
  async raise(alert: SystemAlert): Promise<AlertEntity | null> {
    const created = await this.tx.run(async () => {
      const at = this.clock.now();
      const opened = await this.repo.openOnce(alert, at);
      if (!opened) return null;
      const flap = await this.repo.recordOpen(alert, opened.id, at, this.config.alertFlapLimit);
      if (flap === 'steady') await this.outbox.alerts('alert.created', [opened.id]);
      else if (flap === 'started') await this.outbox.alerts('alert.flapping', [opened.id]);
      return flap === 'steady' ? opened : ((await this.repo.findById(opened.id)) ?? opened);
    });
    if (created) this.events.emit('alert.created', { agentId: created.agentId, alert: toAlertDto(created) });
    return created;
  }

  /**
   * Ends the flapping of every subject stable for 30 minutes (the job alerts.flapping): its kept alert is resolved
   * by 'system' (alert.resolved, notified again) if its cause went away, else stays open as an ordinary alert.
   */
  async endFlapping(): Promise<AlertEntity[]> {
    const now = this.clock.now();
    const resolved = await this.tx.run(async () =>
      this.notified('alert.resolved', await this.repo.endFlapping(new Date(now.getTime() - FLAP_WINDOW_MS), now, RESOLVED_BY_SYSTEM)),
    );
    for (const a of resolved) this.events.emit('alert.resolved', { agentId: a.agentId, alert: toAlertDto(a) });
    return resolved;
  }

  /** Its cause went away: the open alert of the subject is resolved by 'system' and alert.resolved announced. */
  async resolveBySystem(subject: AlertSubject): Promise<AlertEntity[]> {
    const resolved = await this.tx.run(async () => this.notified('alert.resolved', await this.repo.resolveOpen(subject, RESOLVED_BY_SYSTEM, this.clock.now())));
    for (const a of resolved) this.events.emit('alert.resolved', { agentId: a.agentId, alert: toAlertDto(a) });
    return resolved;
  }

  /** resolveBySystem of one alert kind keyed by agent, for many agents at once (one statement). */
  async resolveBySystemForAgents(alertType: AlertType, agentIds: number[]): Promise<AlertEntity[]> {
    if (agentIds.length === 0) return [];
    const resolved = await this.tx.run(async () =>
      this.notified('alert.resolved', await this.repo.resolveOpenOfAgents(alertType, agentIds, RESOLVED_BY_SYSTEM, this.clock.now())),
    );
    for (const a of resolved) this.events.emit('alert.resolved', { agentId: a.agentId, alert: toAlertDto(a) });
    return resolved;
  }

  /**
   * Their checks and tasks stop (a policy no longer applies, an override disables one, an enforced item shadows
   * one): their open alerts are resolved by `by` in one statement, notified, and alert.resolved announced after
   * the commit of the caller's transaction.
   */
  async resolveForItems(checkIds: number[], taskIds: number[], by: string = RESOLVED_BY_SYSTEM): Promise<AlertEntity[]> {
    if (checkIds.length === 0 && taskIds.length === 0) return [];
    const resolved = await this.tx.run(async () => this.notified('alert.resolved', await this.repo.resolveOpenOfItems(checkIds, taskIds, by, this.clock.now())));
    for (const a of resolved) this.events.emit('alert.resolved', { agentId: a.agentId, alert: toAlertDto(a) });
    return resolved;
  }

  /** Open check_failure alerts of checks deleted without resolving them (a policy item's cascade): resolved by `by`. */
  async resolveOrphanedCheckAlerts(by: string): Promise<AlertEntity[]> {
    const resolved = await this.tx.run(async () => this.notified('alert.resolved', await this.repo.resolveOrphanedCheckAlerts(by, this.clock.now())));
    for (const a of resolved) this.events.emit('alert.resolved', { agentId: a.agentId, alert: toAlertDto(a) });
    return resolved;
  }

  /**
   * Writes the alerts' notifications into the outbox, in the transaction that changed them (the caller's
   * tx.run): an alert never commits without them, and a rolled-back change has none.
   */
  private async notified(event: 'alert.created' | 'alert.resolved', alerts: AlertEntity[]): Promise<AlertEntity[]> {
    await this.outbox.alerts(event, alerts.map((a) => a.id));
    return alerts;
  }

  /** The agent's open (unresolved) alerts, oldest first. */
  openFor(agentId: number): Promise<AlertEntity[]> {
    return this.repo.openFor(agentId);
  }
}
