import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { TransactionHost } from '../../database/transaction-host';
import { RmmEvents } from '../events/rmm-events';
import { AlertsService } from './alerts.service';

/** The severity of an agent_overdue alert (an agent silent for RMM_AGENT_OVERDUE_AFTER_SECONDS). */
export const OVERDUE_SEVERITY = 'error';
/** Agents coming back within this window have their agent_overdue alerts resolved in one statement. */
const BACK_BATCH_MS = 25;

/**
 * Availability: an agent that becomes overdue opens one agent_overdue alert; the agent coming back (its
 * channel connects again) resolves it by 'system'. agent.overdue is announced once per change by the status
 * sweep (the UPDATE decides), so several instances open one alert (and the unique index stands behind it);
 * with several instances each handles only the events it emitted itself ({ local: true }), so no work is done N times.
 * Agents coming back are collected for BACK_BATCH_MS and resolved in one UPDATE (a reconnect storm of
 * thousands of agents costs a handful of statements, not one per agent).
 */
@Injectable()
export class AvailabilityAlerts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('alerts');
  private readonly off: Array<() => void> = [];
  private readonly backPending = new Set<number>();
  private backTimer?: NodeJS.Timeout;

  constructor(
    private readonly alerts: AlertsService,
    private readonly events: RmmEvents,
    private readonly tx: TransactionHost,
  ) {}

  onApplicationBootstrap(): void {
    this.off.push(
      this.events.on('agent.overdue', ({ agentId }) => void this.overdue(agentId).catch((err: Error) => this.logger.warn(`agent_overdue alert of agent ${agentId} not opened: ${err.message}`)), { local: true }),
      this.events.on('agent.online', ({ agentId }) => this.back(agentId), { local: true }),
    );
  }

  onApplicationShutdown(): void {
    for (const off of this.off.splice(0)) off();
    clearTimeout(this.backTimer);
    this.backTimer = undefined;
    this.backPending.clear();
  }

  private async overdue(agentId: number): Promise<void> {
    const rows = await this.tx.rows<{ hostname: string; last_seen: Date | null }>(`SELECT hostname, last_seen FROM agents WHERE id = $1`, [agentId]);
    if (!rows[0]) return; // deleted meanwhile
    const since = rows[0].last_seen ? ` since ${new Date(rows[0].last_seen).toISOString()}` : '';
    await this.alerts.raise({ alertType: 'agent_overdue', agentId, severity: OVERDUE_SEVERITY, message: `agent ${rows[0].hostname} is overdue: not heard from${since}` });
  }

  private back(agentId: number): void {
    this.backPending.add(agentId);
    this.backTimer ??= setTimeout(() => {
      this.backTimer = undefined;
      const ids = [...this.backPending];
      this.backPending.clear();
      void this.alerts
        .resolveBySystemForAgents('agent_overdue', ids)
        .catch((err: Error) => this.logger.warn(`agent_overdue alerts of ${ids.length} agent(s) not resolved: ${err.message}`));
    }, BACK_BATCH_MS);
  }
}
