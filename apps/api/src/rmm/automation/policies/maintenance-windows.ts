import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { Jobs } from '../../../common/jobs/jobs';
import { TransactionHost } from '../../../database/transaction-host';
import { RmmEvents } from '../../common/bus/rmm-events';
import { PolicyCatalog } from './policy-catalog';
import { PolicyEngineRepository } from './policy-engine.repository';
import { windowMaintenance } from './policy-merge';

/** How often the windows are applied: an agent enters or leaves a window within this long of its edge. */
const WINDOWS_SECONDS = 30;
/** A policy or an agent's tags changed: the windows are applied again this soon (changes meanwhile coalesced). */
const CHANGE_DELAY_MS = 300;

/**
 * The policies' maintenance windows (issue #31 point 8, docs/policies.md): every WINDOWS_SECONDS, once across the
 * cluster (the job `policies.maintenance-windows`), each agent inside a window of a policy that matches it gets
 * agents.maintenance_until (the window's end; the latest when several) and maintenance_policy_id; when none holds it
 * any more both are cleared. Two statements whatever the number of agents (the agents' facts read in one; the
 * windows computed here; one UPDATE from a recordset that sets and clears). The operator's own switch
 * (agents.maintenance) is not touched. A change of a policy or of agents' tags (`policies.changed`, `agents.regrouped`,
 * on the instance that made it) applies them again at once, so a window added or removed is in force in a second, not
 * at the next tick.
 */
@Injectable()
export class MaintenanceWindows implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('policies');
  private readonly off: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly catalog: PolicyCatalog,
    private readonly repo: PolicyEngineRepository,
    private readonly tx: TransactionHost,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
    jobs: Jobs,
  ) {
    jobs.every('policies.maintenance-windows', { seconds: WINDOWS_SECONDS, mode: 'cluster-once', atStart: true }, () => this.apply());
  }

  onApplicationBootstrap(): void {
    this.off.push(
      this.events.on('policies.changed', () => this.soon(), { local: true }),
      this.events.on('agents.regrouped', () => this.soon(), { local: true }),
    );
  }

  onApplicationShutdown(): void {
    for (const off of this.off.splice(0)) off();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private soon(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.apply().catch((err: Error) => this.logger.warn(`maintenance windows not applied: ${err.message}`));
    }, CHANGE_DELAY_MS);
  }

  /** Applies the windows as they are now; the agents whose maintenance changed. */
  async apply(): Promise<number[]> {
    const now = this.clock.now();
    const policies = (await this.catalog.all()).filter((p) => p.enabled && p.maintenanceWindows.length > 0);
    const inWindow: Array<{ id: number; until: string; policy: number }> = [];
    if (policies.length > 0) {
      for (const agent of await this.repo.allFacts()) {
        const m = windowMaintenance(agent, policies, now);
        if (m.active && m.until && m.source) inWindow.push({ id: agent.id, until: m.until.toISOString(), policy: m.source.id });
      }
    }
    const changed = await this.tx.run(async () => {
      const rows = await this.repo.applyWindows(inWindow);
      for (const id of rows) this.events.emit('agent.updated', { agentId: id });
      return rows;
    });
    return changed;
  }
}
