import { Injectable } from '@nestjs/common';
import type { AlertSeverity, CheckType } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { AgentFacts, CheckDef, OverrideFacts, Own, TaskDef } from './policy-merge';

/** One agent's state row of a policy check, as the engine wants it. */
export interface CheckStateRow {
  agent_id: number;
  policy_check_id: number;
  check_type: CheckType;
  name: string;
  settings: Record<string, unknown>;
  script_id: number | null;
  run_interval: number;
  fails_b4_alert: number;
  severity: AlertSeverity;
  enabled: boolean;
}

/** One agent's state row of a policy task. `next_run_at`: for a new row, or one whose schedule or enabled changed. */
export interface TaskStateRow {
  agent_id: number;
  policy_task_id: number;
  name: string;
  script_id: number;
  args: string[];
  schedule: string;
  timeout: number | null;
  queue_if_offline: boolean;
  skip_in_maintenance: boolean;
  enabled: boolean;
  next_run_at: string | null;
}

/** An own row's shadowing: the policy item that won its key (null: none). */
export interface Shadow {
  id: number;
  by: number | null;
}

const uniq = (ids: number[]): number[] => [...new Set(ids)];

/**
 * The policy engine's SQL (policy-engine.ts): the facts of a batch of agents, read in four statements, and the
 * state rows written set-based (a jsonb recordset per statement), never one statement per agent.
 */
@Injectable()
export class PolicyEngineRepository {
  constructor(private readonly tx: TransactionHost) {}

  /**
   * One engine at a time across the cluster (a transaction-level advisory lock): two reconciles of the same
   * agents never interleave their upserts and deletes.
   */
  async lock(): Promise<void> {
    await this.tx.exec(`SELECT pg_advisory_xact_lock(hashtext('rmm.policy-engine'))`);
  }

  /** The next `limit` agent ids after `after`, in id order (a reconcile of every agent walks them in batches). */
  async agentIdsAfter(after: number, limit: number): Promise<number[]> {
    const rows = await this.tx.rows<{ id: number }>(`SELECT id FROM agents WHERE id > $1 ORDER BY id LIMIT $2`, [after, limit]);
    return rows.map((r) => r.id);
  }

  /** Every agent's facts (one statement; for working out which agents a changed policy matches). */
  allFacts(): Promise<AgentFacts[]> {
    return this.tx.rows<AgentFacts>(`SELECT id, client_id AS "clientId", site_id AS "siteId", tags, plat, monitoring_type AS "monitoringType" FROM agents`);
  }

  /**
   * Puts these agents in their window's maintenance (maintenance_until, maintenance_policy_id) and takes every other
   * agent a window held out of it, in one statement; the agents whose values changed.
   */
  async applyWindows(inWindow: Array<{ id: number; until: string; policy: number }>): Promise<number[]> {
    const rows = await this.tx.rows<{ id: number }>(
      `WITH w AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS w(id int, until timestamptz, policy int))
       UPDATE agents a SET maintenance_until = w.until, maintenance_policy_id = w.policy
         FROM agents x LEFT JOIN w ON w.id = x.id
        WHERE a.id = x.id AND (w.id IS NOT NULL OR x.maintenance_policy_id IS NOT NULL)
          AND (a.maintenance_until, a.maintenance_policy_id) IS DISTINCT FROM (w.until, w.policy)
        RETURNING a.id`,
      [JSON.stringify(inWindow)],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The state rows of these policy items (`policyId`: of every item of that policy), locked: the policies API is about
   * to delete the items, and their rows go with them (ON DELETE CASCADE).
   */
  rowsOfItems(items: { policyId?: number; checkIds?: number[]; taskIds?: number[] }): Promise<Array<{ kind: 'check' | 'task'; id: number; agent_id: number }>> {
    return this.tx.rows(
      `SELECT 'check' AS kind, c.id, c.agent_id FROM checks c JOIN policy_checks pc ON pc.id = c.policy_check_id
        WHERE pc.policy_id = $1 OR pc.id = ANY($2::int[])
       UNION ALL
       SELECT 'task', t.id, t.agent_id FROM tasks t JOIN policy_tasks pt ON pt.id = t.policy_task_id
        WHERE pt.policy_id = $1 OR pt.id = ANY($3::int[])`,
      [items.policyId ?? null, items.checkIds ?? [], items.taskIds ?? []],
    );
  }

  /** The agents that have a state row (check or task) of an item of this policy. */
  async agentsWithRowsOf(policyId: number): Promise<number[]> {
    const rows = await this.tx.rows<{ agent_id: number }>(
      `SELECT c.agent_id FROM checks c JOIN policy_checks pc ON pc.id = c.policy_check_id WHERE pc.policy_id = $1
       UNION SELECT t.agent_id FROM tasks t JOIN policy_tasks pt ON pt.id = t.policy_task_id WHERE pt.policy_id = $1`,
      [policyId],
    );
    return rows.map((r) => r.agent_id);
  }

  facts(agentIds: number[]): Promise<AgentFacts[]> {
    return this.tx.rows<AgentFacts>(
      `SELECT id, client_id AS "clientId", site_id AS "siteId", tags, plat, monitoring_type AS "monitoringType"
         FROM agents WHERE id = ANY($1::int[]) ORDER BY id`,
      [agentIds],
    );
  }

  /** The agents' own checks (policy_check_id null), the enabled ones (a disabled own check applies to nothing). */
  ownChecks(agentIds: number[]): Promise<Array<Omit<Own<CheckDef>, 'key'> & { agentId: number; enabled: boolean }>> {
    return this.tx.rows(
      `SELECT id, agent_id AS "agentId", check_type AS "checkType", name, settings, script_id AS "scriptId", run_interval AS "runInterval",
              fails_b4_alert AS "failsB4Alert", severity, enabled
         FROM checks WHERE agent_id = ANY($1::int[]) AND policy_check_id IS NULL ORDER BY id`,
      [agentIds],
    );
  }

  ownTasks(agentIds: number[]): Promise<Array<Omit<Own<TaskDef>, 'key'> & { agentId: number; enabled: boolean }>> {
    return this.tx.rows(
      `SELECT id, agent_id AS "agentId", name, script_id AS "scriptId", args, schedule, timeout, queue_if_offline AS "queueIfOffline",
              skip_in_maintenance AS "skipInMaintenance", enabled
         FROM tasks WHERE agent_id = ANY($1::int[]) AND policy_task_id IS NULL ORDER BY id`,
      [agentIds],
    );
  }

  overrides(agentIds: number[]): Promise<Array<OverrideFacts & { agentId: number }>> {
    return this.tx.rows(
      `SELECT agent_id AS "agentId", policy_id AS "policyId", key, disabled, settings, run_interval AS "runInterval", fails_b4_alert AS "failsB4Alert"
         FROM policy_overrides WHERE agent_id = ANY($1::int[])`,
      [agentIds],
    );
  }

  /** The batch's policy check rows that are no longer wanted (ids), so their alerts resolve before they go. */
  async goneChecks(agentIds: number[], wanted: CheckStateRow[]): Promise<number[]> {
    const rows = await this.tx.rows<{ id: number }>(
      `SELECT c.id FROM checks c
        WHERE c.agent_id = ANY($1::int[]) AND c.policy_check_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($2::jsonb) AS w(agent_id int, policy_check_id int)
                           WHERE w.agent_id = c.agent_id AND w.policy_check_id = c.policy_check_id)`,
      [agentIds, JSON.stringify(wanted.map((w) => ({ agent_id: w.agent_id, policy_check_id: w.policy_check_id })))],
    );
    return rows.map((r) => r.id);
  }

  async goneTasks(agentIds: number[], wanted: TaskStateRow[]): Promise<number[]> {
    const rows = await this.tx.rows<{ id: number }>(
      `SELECT t.id FROM tasks t
        WHERE t.agent_id = ANY($1::int[]) AND t.policy_task_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($2::jsonb) AS w(agent_id int, policy_task_id int)
                           WHERE w.agent_id = t.agent_id AND w.policy_task_id = t.policy_task_id)`,
      [agentIds, JSON.stringify(wanted.map((w) => ({ agent_id: w.agent_id, policy_task_id: w.policy_task_id })))],
    );
    return rows.map((r) => r.id);
  }

  /** Deletes checks (their results go with them; their alerts keep the agent, check_id set null); their agents. */
  async deleteChecks(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.tx.rows<{ agent_id: number }>(`DELETE FROM checks WHERE id = ANY($1::int[]) RETURNING agent_id`, [ids]);
    return uniq(rows.map((r) => r.agent_id));
  }

  async deleteTasks(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.tx.rows<{ agent_id: number }>(`DELETE FROM tasks WHERE id = ANY($1::int[]) RETURNING agent_id`, [ids]);
    return uniq(rows.map((r) => r.agent_id));
  }

  /**
   * Inserts the missing state rows and updates those whose effective values changed, in one statement; the rows
   * it wrote (a row already as wanted is not touched: no update, no updated_at moved). Status, fail count, last
   * run and history stay: a changed check keeps its state until the agent's next result, as an edited own check.
   */
  async upsertChecks(rows: CheckStateRow[]): Promise<Array<{ id: number; agent_id: number; enabled: boolean }>> {
    if (rows.length === 0) return [];
    return this.tx.rows(
      `INSERT INTO checks (agent_id, policy_check_id, check_type, name, settings, script_id, run_interval, fails_b4_alert, severity, enabled)
       SELECT w.agent_id, w.policy_check_id, w.check_type, w.name, w.settings, w.script_id, w.run_interval, w.fails_b4_alert, w.severity, w.enabled
         FROM jsonb_to_recordset($1::jsonb) AS w(agent_id int, policy_check_id int, check_type text, name text, settings jsonb, script_id int,
                                                 run_interval int, fails_b4_alert int, severity text, enabled boolean)
       ON CONFLICT (agent_id, policy_check_id) WHERE policy_check_id IS NOT NULL DO UPDATE SET
         check_type = excluded.check_type, name = excluded.name, settings = excluded.settings, script_id = excluded.script_id,
         run_interval = excluded.run_interval, fails_b4_alert = excluded.fails_b4_alert, severity = excluded.severity, enabled = excluded.enabled,
         updated_at = now()
       WHERE (checks.check_type, checks.name, checks.settings, checks.script_id, checks.run_interval, checks.fails_b4_alert, checks.severity, checks.enabled)
             IS DISTINCT FROM (excluded.check_type, excluded.name, excluded.settings, excluded.script_id, excluded.run_interval, excluded.fails_b4_alert, excluded.severity, excluded.enabled)
       RETURNING id, agent_id, enabled`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * As upsertChecks, for tasks. next_run_at: a new row's is the given one; a row whose schedule changed, or that is
   * enabled again, takes the given one too (the first due time after now, as an edited own task); a disabled one has none.
   */
  async upsertTasks(rows: TaskStateRow[]): Promise<Array<{ id: number; agent_id: number; enabled: boolean }>> {
    if (rows.length === 0) return [];
    return this.tx.rows(
      `INSERT INTO tasks (agent_id, policy_task_id, name, script_id, args, schedule, timeout, queue_if_offline, skip_in_maintenance, enabled, next_run_at)
       SELECT w.agent_id, w.policy_task_id, w.name, w.script_id, w.args, w.schedule, w.timeout, w.queue_if_offline, w.skip_in_maintenance, w.enabled,
              CASE WHEN w.enabled THEN w.next_run_at END
         FROM jsonb_to_recordset($1::jsonb) AS w(agent_id int, policy_task_id int, name text, script_id int, args jsonb, schedule text, timeout int,
                                                 queue_if_offline boolean, skip_in_maintenance boolean, enabled boolean, next_run_at timestamptz)
       ON CONFLICT (agent_id, policy_task_id) WHERE policy_task_id IS NOT NULL DO UPDATE SET
         name = excluded.name, script_id = excluded.script_id, args = excluded.args, schedule = excluded.schedule, timeout = excluded.timeout,
         queue_if_offline = excluded.queue_if_offline, skip_in_maintenance = excluded.skip_in_maintenance, enabled = excluded.enabled,
         next_run_at = CASE WHEN NOT excluded.enabled THEN NULL
                            WHEN tasks.schedule <> excluded.schedule OR NOT tasks.enabled OR tasks.next_run_at IS NULL THEN excluded.next_run_at
                            ELSE tasks.next_run_at END
       WHERE (tasks.name, tasks.script_id, tasks.args, tasks.schedule, tasks.timeout, tasks.queue_if_offline, tasks.skip_in_maintenance, tasks.enabled)
             IS DISTINCT FROM (excluded.name, excluded.script_id, excluded.args, excluded.schedule, excluded.timeout, excluded.queue_if_offline, excluded.skip_in_maintenance, excluded.enabled)
       RETURNING id, agent_id, enabled`,
      [JSON.stringify(rows)],
    );
  }

  /** Sets shadowed_by_policy_check_id of own checks where it changed (one statement); the rows it changed. */
  shadowChecks(shadows: Shadow[]): Promise<Array<{ id: number; agent_id: number; by: number | null }>> {
    if (shadows.length === 0) return Promise.resolve([]);
    return this.tx.rows(
      `UPDATE checks c SET shadowed_by_policy_check_id = s.by
         FROM jsonb_to_recordset($1::jsonb) AS s(id int, by int)
        WHERE c.id = s.id AND c.shadowed_by_policy_check_id IS DISTINCT FROM s.by
        RETURNING c.id, c.agent_id, s.by`,
      [JSON.stringify(shadows)],
    );
  }

  shadowTasks(shadows: Shadow[]): Promise<Array<{ id: number; agent_id: number; by: number | null }>> {
    if (shadows.length === 0) return Promise.resolve([]);
    return this.tx.rows(
      `UPDATE tasks t SET shadowed_by_policy_task_id = s.by
         FROM jsonb_to_recordset($1::jsonb) AS s(id int, by int)
        WHERE t.id = s.id AND t.shadowed_by_policy_task_id IS DISTINCT FROM s.by
        RETURNING t.id, t.agent_id, s.by`,
      [JSON.stringify(shadows)],
    );
  }
}
