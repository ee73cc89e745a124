import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentPresenceService } from './agent-presence.service';
import { AlertsService } from '../../alerting/alerts/alerts.service';

/** The severity of an agent_overdue alert (an agent silent for RMM_AGENT_OVERDUE_AFTER_SECONDS). */
export const OVERDUE_SEVERITY = 'error';

/**
 * Availability: an agent that becomes overdue opens one agent_overdue alert; the agent coming back (its channel
 * connects again, or a heartbeat of its open channel after a sweep) resolves it by 'system'. Both are done
 * directly by the instance that made the change (AgentPresenceService's listener: the one whose UPDATE turned
 * the agent overdue, the one the agent connected to), never on an event coming back through pub/sub. Each batch of
 * agents costs one statement. Every RMM_RECONCILE_SECONDS one instance of the cluster (the cluster-once job
 * `availability.reconcile`) also repairs what was missed (a crash between the status write and the alert, a failed
 * statement): it opens agent_overdue for every overdue agent without one and resolves those of agents that are
 * online, in two set-based statements; the partial unique index UQ_alerts_open_overdue and the UPDATE's NOT
 * resolved keep two runs at once (a lead moving) from doubling anything.
 */
@Injectable()
export class AvailabilityAlerts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('alerts');
  private off?: () => void;
  private reconciling?: Promise<unknown>;

  constructor(
    private readonly alerts: AlertsService,
    private readonly presence: AgentPresenceService,
    config: RuntimeConfig,
    jobs: Jobs,
  ) {
    // Once across the cluster: two statements over every agent, whoever runs them.
    jobs.every('availability.reconcile', { seconds: config.reconcileSeconds, mode: 'cluster-once' }, () => this.reconcile());
  }

  onApplicationBootstrap(): void {
    const back = (ids: number[]): void =>
      void this.alerts.resolveBySystemForAgents('agent_overdue', ids).catch((err: Error) => this.logger.warn(`agent_overdue alerts of ${ids.length} agent(s) not resolved: ${err.message}`));
    this.off = this.presence.listen({
      overdue: (ids) =>
        void this.alerts.openOverdue(OVERDUE_SEVERITY, ids).catch((err: Error) => this.logger.warn(`agent_overdue alerts of ${ids.length} agent(s) not opened: ${err.message}`)),
      connected: back,
      back,
    });
  }

  onApplicationShutdown(): void {
    this.off?.();
  }

  /** Opens what is missing and resolves what is over, per the agents' status now (one run at a time). */
  reconcile(): Promise<{ opened: number; resolved: number }> {
    const run = (this.reconciling ?? Promise.resolve()).then(async () => {
      const opened = await this.alerts.openOverdue(OVERDUE_SEVERITY);
      const resolved = await this.alerts.resolveOverdueOfOnline();
      return { opened: opened.length, resolved: resolved.length };
    });
    this.reconciling = run.catch(() => undefined);
    return run;
  }
}
