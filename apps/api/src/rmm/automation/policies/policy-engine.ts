import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { TransactionHost } from '../../../database/transaction-host';
import { AlertsService, RESOLVED_BY_SYSTEM } from '../../alerting/alerts/alerts.service';
import { RmmEvents } from '../../common/bus/rmm-events';
import { CheckSync } from '../checks/check-sync';
import { nextRun } from '../tasks/schedule';
import { PolicyCatalog } from './policy-catalog';
import { CheckStateRow, PolicyEngineRepository, Shadow, TaskStateRow } from './policy-engine.repository';
import { checkKey, matchReason, merge, OverrideFacts, PolicyFacts, taskKey } from './policy-merge';

/** Agents reconciled per transaction: a handful of statements each, whatever the number of agents in it. */
export const RECONCILE_BATCH = 2_000;
/** Changes arriving within this long are reconciled together (a bulk tag edit, a policy saved twice). */
const DEBOUNCE_MS = 200;
/** resolved_by of the open alerts of a check or task that stopped applying to its agent (docs/policies.md). */
const RESOLVED_POLICY_REMOVED = 'system: policy removed';

/** What a reconcile changed. */
export interface ReconcileOutcome {
  /** Agents whose checks or tasks changed. */
  changed: number[];
  /** Batches it ran (RECONCILE_BATCH agents each, a fixed number of statements per batch). */
  batches: number;
}

/**
 * The policy engine (issue #31, docs/policies.md "Propagation"): writes, for each agent, the state rows of the policy
 * items that win its merge (policy-merge.ts) — a row of `checks` per policy check (policy_check_id) and of `tasks`
 * per policy task (policy_task_id), with the effective values after the agent's overrides — marks the agent's own
 * items an enforced policy shadows, and deletes the rows of items that no longer apply (their open alerts resolved
 * first, `system: policy removed`). Batches of RECONCILE_BATCH agents, a fixed number of statements per batch.
 *
 * Run on `policies.changed`, `agents.regrouped` and `agent.registered` (debounced, on the instance that emitted
 * them), and every RMM_POLICY_RECONCILE_SECONDS over every agent (the job `policies.reconcile`, once across the
 * cluster), which repairs anything a lost event or a crash left undone. Agents whose check list changed are sent
 * it (CheckSync); the task scheduler reads the tasks rows as they are. One engine at a time across the cluster (an
 * advisory lock per batch transaction).
 */
@Injectable()
export class PolicyEngine implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('policies');
  private readonly off: Array<() => void> = [];
  private chain: Promise<unknown> = Promise.resolve();
  private pending = new Set<number>();
  private pendingAll = false;
  private timer: NodeJS.Timeout | null = null;
  /** Reconciles started by the debounce and not finished yet. */
  private readonly flushing = new Set<Promise<void>>();

  constructor(
    private readonly repo: PolicyEngineRepository,
    private readonly catalog: PolicyCatalog,
    private readonly tx: TransactionHost,
    private readonly alerts: AlertsService,
    private readonly events: RmmEvents,
    private readonly checks: CheckSync,
    private readonly clock: Clock,
    config: RuntimeConfig,
    jobs: Jobs,
  ) {
    jobs.every('policies.reconcile', { seconds: config.policyReconcileSeconds, mode: 'cluster-once' }, async () => {
      await this.reconcile('all');
      await this.alerts.resolveOrphanedCheckAlerts(RESOLVED_POLICY_REMOVED);
    });
  }

  onApplicationBootstrap(): void {
    // Local: the instance that made the change reconciles (the rows are in the database; the lists reach agents held
    // elsewhere through the AgentChannel); the cluster-once job repairs an instance that died meanwhile.
    this.off.push(
      this.events.on('policies.changed', ({ policyId }) => void this.policyChanged(policyId).catch((err: Error) => this.logger.warn(`policy ${policyId} not propagated: ${err.message}`)), { local: true }),
      this.events.on('agents.regrouped', ({ agentIds }) => this.schedule(agentIds), { local: true }),
      this.events.on('agent.registered', ({ agentId }) => this.schedule([agentId]), { local: true }),
    );
  }

  onApplicationShutdown(): void {
    for (const off of this.off.splice(0)) off();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Reconciles these agents (or all) within DEBOUNCE_MS, together with any other asked for meanwhile. */
  schedule(agentIds: number[] | 'all'): void {
    if (agentIds === 'all') this.pendingAll = true;
    else for (const id of agentIds) this.pending.add(id);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const run = this.flush();
      this.flushing.add(run);
      void run.finally(() => this.flushing.delete(run));
    }, DEBOUNCE_MS);
  }

  /** Resolves once everything scheduled so far (and anything scheduled meanwhile) has been reconciled (tests). */
  async settled(): Promise<void> {
    while (this.timer || this.flushing.size > 0) {
      if (this.timer) await new Promise((r) => setTimeout(r, DEBOUNCE_MS));
      await Promise.all([...this.flushing]);
    }
  }

  private async flush(): Promise<void> {
    const all = this.pendingAll;
    const ids = [...this.pending];
    this.pendingAll = false;
    this.pending = new Set();
    await this.reconcile(all ? 'all' : ids).catch((err: Error) => this.logger.warn(`policy reconcile failed: ${err.message}`));
  }

  /**
   * A policy changed: the agents that have rows of it, and those it matches now. A policy that is gone (its items'
   * rows went with it): every agent is reconciled and every list held here compared with what it was sent.
   */
  private async policyChanged(policyId: number | null): Promise<void> {
    const policy = policyId === null ? null : await this.catalog.one(policyId);
    if (!policy) this.schedule('all');
    else {
      const [holding, facts] = await Promise.all([this.repo.agentsWithRowsOf(policy.id), this.repo.allFacts()]);
      const matching = facts.filter((a) => matchReason(policy, a) !== null).map((a) => a.id);
      this.schedule([...new Set([...holding, ...matching])]);
    }
    // Items deleted with their rows (ON DELETE CASCADE) without beforeItemsRemoved: their alerts, and the lists of the
    // agents held here (compared by fingerprint with what each was sent; other instances' own reconcile does theirs).
    await this.settled();
    await this.alerts.resolveOrphanedCheckAlerts(RESOLVED_POLICY_REMOVED);
    await this.checks.reconcile();
  }

  /**
   * For the policies API, inside its transaction, before it deletes a policy (`policyId`) or some of its items
   * (`checkIds`, `taskIds` of policy_checks / policy_tasks): the open alerts of the agents' rows of those items are
   * resolved (`system: policy removed`) and, once the transaction commits, the agents get their new lists and are
   * reconciled (another policy's item may now win a key the removed one held). The rows themselves go with the items
   * (ON DELETE CASCADE).
   */
  async beforeItemsRemoved(items: { policyId?: number; checkIds?: number[]; taskIds?: number[] }): Promise<void> {
    const rows = await this.repo.rowsOfItems(items);
    await this.alerts.resolveForItems(
      rows.filter((r) => r.kind === 'check').map((r) => r.id),
      rows.filter((r) => r.kind === 'task').map((r) => r.id),
      RESOLVED_POLICY_REMOVED,
    );
    const agents = [...new Set(rows.map((r) => r.agent_id))];
    const after = (): void => {
      void this.checks.pushMany(agents).catch((err: Error) => this.logger.warn(`lists of ${agents.length} agent(s) not sent: ${err.message}`));
      this.schedule(agents);
      for (const agentId of agents) this.events.emit('agent.updated', { agentId });
    };
    if (this.tx.inTransaction) this.tx.afterCommit(after);
    else after();
  }

  /** Writes the agents' state rows (`all`: every agent, in id order); serialized on this instance. */
  reconcile(agentIds: number[] | 'all'): Promise<ReconcileOutcome> {
    const run = this.chain.then(() => this.reconcileNow(agentIds));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async reconcileNow(agentIds: number[] | 'all'): Promise<ReconcileOutcome> {
    const changed = new Set<number>();
    const listChanged = new Set<number>();
    let batches = 0;
    const runBatch = async (ids: number[]): Promise<void> => {
      batches++;
      const w = await this.tx.run(async () => {
        await this.repo.lock();
        // Read under the lock: a batch never writes from policies older than what another engine already wrote.
        return this.batch(ids, await this.catalog.all());
      });
      for (const id of w.changed) changed.add(id);
      for (const id of w.checksChanged) listChanged.add(id);
    };
    if (agentIds === 'all') {
      let after = 0;
      for (;;) {
        const ids = await this.repo.agentIdsAfter(after, RECONCILE_BATCH);
        if (ids.length === 0) break;
        await runBatch(ids);
        after = ids[ids.length - 1];
      }
    } else {
      const unique = [...new Set(agentIds)].sort((a, b) => a - b);
      for (let i = 0; i < unique.length; i += RECONCILE_BATCH) await runBatch(unique.slice(i, i + RECONCILE_BATCH));
    }
    if (listChanged.size > 0) await this.checks.pushMany([...listChanged]);
    for (const agentId of changed) this.events.emit('agent.updated', { agentId });
    return { changed: [...changed], batches };
  }

  /** One batch, inside its transaction: facts read, merged, written. */
  private async batch(agentIds: number[], policies: PolicyFacts[]): Promise<{ changed: number[]; checksChanged: number[] }> {
    const facts = await this.repo.facts(agentIds);
    const ownChecks = await this.repo.ownChecks(agentIds);
    const ownTasks = await this.repo.ownTasks(agentIds);
    const overrides = await this.repo.overrides(agentIds);
    const by = <T extends { agentId: number }>(rows: T[]): Map<number, T[]> => {
      const m = new Map<number, T[]>();
      for (const r of rows) {
        const list = m.get(r.agentId);
        if (list) list.push(r);
        else m.set(r.agentId, [r]);
      }
      return m;
    };
    const checksOf = by(ownChecks);
    const tasksOf = by(ownTasks);
    const overridesOf = by(overrides);
    const now = this.clock.now();
    const nextOf = new Map<string, string | null>();
    const next = (schedule: string): string | null => {
      if (!nextOf.has(schedule)) {
        let at: string | null;
        try {
          at = nextRun(schedule, now).toISOString();
        } catch {
          at = null; // a schedule that does not parse never fires (the policies API refuses one)
        }
        nextOf.set(schedule, at);
      }
      return nextOf.get(schedule)!;
    };

    const checkRows: CheckStateRow[] = [];
    const taskRows: TaskStateRow[] = [];
    const checkShadows: Shadow[] = [];
    const taskShadows: Shadow[] = [];
    for (const agent of facts) {
      const own = {
        checks: (checksOf.get(agent.id) ?? [])
          .filter((c) => c.enabled)
          .map(({ agentId: _a, enabled: _e, ...c }) => ({ ...c, key: checkKey(c.checkType, c.checkType === 'script' ? { ...c.settings, script: c.scriptId } : c.settings) })),
        tasks: (tasksOf.get(agent.id) ?? []).filter((t) => t.enabled).map(({ agentId: _a, enabled: _e, ...t }) => ({ ...t, key: taskKey(t.scriptId, t.args, t.schedule) })),
      };
      const effective = merge(agent, policies, own, (overridesOf.get(agent.id) ?? []) as OverrideFacts[]);
      const shadowedChecks = new Map<number, number>();
      for (const item of effective.checks) {
        if (item.source.type === 'agent') {
          if (item.shadowed_by?.type === 'policy') shadowedChecks.set(item.source.id, item.shadowed_by.item_id);
          continue;
        }
        if (item.shadowed_by !== null) continue;
        const { script: _script, ...settings } = item.def.settings;
        checkRows.push({
          agent_id: agent.id,
          policy_check_id: item.source.item_id,
          check_type: item.def.checkType,
          name: item.def.name,
          settings: item.def.checkType === 'script' ? settings : item.def.settings,
          script_id: item.def.scriptId,
          run_interval: item.def.runInterval,
          fails_b4_alert: item.def.failsB4Alert,
          severity: item.def.severity,
          enabled: !item.disabled,
        });
      }
      const shadowedTasks = new Map<number, number>();
      for (const item of effective.tasks) {
        if (item.source.type === 'agent') {
          if (item.shadowed_by?.type === 'policy') shadowedTasks.set(item.source.id, item.shadowed_by.item_id);
          continue;
        }
        if (item.shadowed_by !== null) continue;
        taskRows.push({
          agent_id: agent.id,
          policy_task_id: item.source.item_id,
          name: item.def.name,
          script_id: item.def.scriptId,
          args: item.def.args ?? [],
          schedule: item.def.schedule,
          timeout: item.def.timeout,
          queue_if_offline: item.def.queueIfOffline,
          skip_in_maintenance: item.def.skipInMaintenance,
          enabled: !item.disabled,
          next_run_at: next(item.def.schedule),
        });
      }
      // Every own row is written: a row no longer shadowed (or disabled meanwhile) is cleared.
      for (const c of checksOf.get(agent.id) ?? []) checkShadows.push({ id: c.id, by: shadowedChecks.get(c.id) ?? null });
      for (const t of tasksOf.get(agent.id) ?? []) taskShadows.push({ id: t.id, by: shadowedTasks.get(t.id) ?? null });
    }

    // Items that no longer apply: their open alerts resolve (policy removed), then they go.
    const goneChecks = await this.repo.goneChecks(agentIds, checkRows);
    const goneTasks = await this.repo.goneTasks(agentIds, taskRows);
    await this.alerts.resolveForItems(goneChecks, goneTasks, RESOLVED_POLICY_REMOVED);
    const deletedChecksOf = await this.repo.deleteChecks(goneChecks);
    const deletedTasksOf = await this.repo.deleteTasks(goneTasks);
    const writtenChecks = await this.repo.upsertChecks(checkRows);
    const writtenTasks = await this.repo.upsertTasks(taskRows);
    const shadowedChecks = await this.repo.shadowChecks(checkShadows);
    const shadowedTasks = await this.repo.shadowTasks(taskShadows);
    // Items that stopped running on their agent (disabled by an override, shadowed by an enforced item): nothing
    // would ever resolve their open alerts.
    await this.alerts.resolveForItems(
      [...writtenChecks.filter((c) => !c.enabled).map((c) => c.id), ...shadowedChecks.filter((c) => c.by !== null).map((c) => c.id)],
      [...writtenTasks.filter((t) => !t.enabled).map((t) => t.id), ...shadowedTasks.filter((t) => t.by !== null).map((t) => t.id)],
      RESOLVED_BY_SYSTEM,
    );
    const checksChanged = [...deletedChecksOf, ...writtenChecks.map((c) => c.agent_id), ...shadowedChecks.map((c) => c.agent_id)];
    const changed = [...checksChanged, ...deletedTasksOf, ...writtenTasks.map((t) => t.agent_id), ...shadowedTasks.map((t) => t.agent_id)];
    return { changed: [...new Set(changed)], checksChanged: [...new Set(checksChanged)] };
  }
}
