import { Injectable } from '@nestjs/common';
import type { MaintenanceWindow, PolicyExclusions, PolicyTargets } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { AgentFacts, CheckDef, OverrideFacts, TaskDef } from './policy-merge';

/** A policy check as stored (its settings without the script, which is script_id). */
export interface PolicyCheckRow extends CheckDef {
  id: number;
  key: string;
  position: number;
}

export interface PolicyTaskRow extends TaskDef {
  id: number;
  key: string;
  position: number;
}

/** A policy with its items, as the API shows it (policies.mapper.ts). */
export interface PolicyRow {
  id: number;
  name: string;
  description: string | null;
  enabled: boolean;
  enforced: boolean;
  priority: number;
  targets: PolicyTargets;
  exclude: PolicyExclusions;
  maintenanceWindows: MaintenanceWindow[];
  checks: PolicyCheckRow[];
  tasks: PolicyTaskRow[];
  createdAt: Date;
  updatedAt: Date;
}

export interface PolicyFields {
  name: string;
  description: string | null;
  enabled: boolean;
  enforced: boolean;
  priority: number;
  targets: PolicyTargets;
  exclude: PolicyExclusions;
  maintenanceWindows: MaintenanceWindow[];
}

export type NewCheckItem = CheckDef & { key: string; position: number };
export type NewTaskItem = TaskDef & { key: string; position: number };

/** One agent as the effective policy needs it. */
export interface AgentOfPolicy extends AgentFacts {
  maintenance: boolean;
  clientName: string | null;
  siteName: string | null;
}

/** Agents alike for matching, and how many. */
export type AgentGroup = Omit<AgentFacts, 'id'> & { n: number };

export type OwnCheck = CheckDef & { id: number; enabled: boolean };
export type OwnTask = TaskDef & { id: number; enabled: boolean };

const POLICY_SQL = `
  SELECT p.id, p.name, p.description, p.enabled, p.enforced, p.priority, p.targets, p.exclude,
    p.maintenance_windows AS "maintenanceWindows", p.created_at AS "createdAt", p.updated_at AS "updatedAt",
    coalesce((SELECT json_agg(json_build_object('id', c.id, 'key', c.key, 'position', c.position, 'checkType', c.check_type, 'name', c.name,
        'settings', c.settings, 'scriptId', c.script_id, 'runInterval', c.run_interval, 'failsB4Alert', c.fails_b4_alert, 'severity', c.severity)
        ORDER BY c.position, c.id) FROM policy_checks c WHERE c.policy_id = p.id), '[]') AS checks,
    coalesce((SELECT json_agg(json_build_object('id', t.id, 'key', t.key, 'position', t.position, 'name', t.name, 'scriptId', t.script_id,
        'args', t.args, 'schedule', t.schedule, 'timeout', t.timeout, 'queueIfOffline', t.queue_if_offline, 'skipInMaintenance', t.skip_in_maintenance)
        ORDER BY t.position, t.id) FROM policy_tasks t WHERE t.policy_id = p.id), '[]') AS tasks
  FROM policies p`;

/**
 * A limited caller's policies: those whose targets.clients is a non-empty subset of its clients ($n: a JSON array).
 * Policies without clients target every client's agents: an unlimited caller's only.
 */
const visibleTo = (param: number): string =>
  `(jsonb_typeof(p.targets->'clients') = 'array' AND jsonb_array_length(p.targets->'clients') > 0 AND p.targets->'clients' <@ $${param}::jsonb)`;

const fixDates = (r: PolicyRow): PolicyRow => ({ ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) });

@Injectable()
export class PoliciesRepository {
  constructor(private readonly tx: TransactionHost) {}

  async list(page: Page, clients: ClientScope): Promise<[PolicyRow[], number]> {
    const params: unknown[] = [];
    let where = '';
    if (clients !== null) {
      params.push(JSON.stringify(clients));
      where = ` WHERE ${visibleTo(params.length)}`;
    }
    params.push(page.limit ?? null, page.offset);
    const rows = await this.tx.rows<PolicyRow>(`${POLICY_SQL}${where} ORDER BY p.id LIMIT $${params.length - 1} OFFSET $${params.length}`, params);
    const [{ n }] = await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM policies p${where}`, clients === null ? [] : [params[0]]);
    return [rows.map(fixDates), n];
  }

  /** One policy, if the caller may see it. `lock`: FOR UPDATE (in a transaction). */
  async findById(id: number, clients: ClientScope, lock = false): Promise<PolicyRow | null> {
    if (lock) await this.tx.rows('SELECT id FROM policies WHERE id = $1 FOR UPDATE', [id]);
    const params: unknown[] = [id];
    let where = 'WHERE p.id = $1';
    if (clients !== null) {
      params.push(JSON.stringify(clients));
      where += ` AND ${visibleTo(2)}`;
    }
    const [row] = await this.tx.rows<PolicyRow>(`${POLICY_SQL} ${where}`, params);
    return row ? fixDates(row) : null;
  }

  /** Holds creations one at a time until the transaction ends (the 500 limit is counted under it). */
  async lockForCreate(): Promise<number> {
    await this.tx.exec(`SELECT pg_advisory_xact_lock(hashtext('policies.create'))`);
    const [{ n }] = await this.tx.rows<{ n: number }>('SELECT count(*)::int AS n FROM policies');
    return n;
  }

  async insert(f: PolicyFields): Promise<number> {
    const [{ id }] = await this.tx.rows<{ id: number }>(
      `INSERT INTO policies (name, description, enabled, enforced, priority, targets, exclude, maintenance_windows)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [f.name, f.description, f.enabled, f.enforced, f.priority, JSON.stringify(f.targets), JSON.stringify(f.exclude), JSON.stringify(f.maintenanceWindows)],
    );
    return id;
  }

  async update(id: number, f: PolicyFields): Promise<void> {
    await this.tx.exec(
      `UPDATE policies SET name = $2, description = $3, enabled = $4, enforced = $5, priority = $6, targets = $7, exclude = $8,
         maintenance_windows = $9, updated_at = now() WHERE id = $1`,
      [id, f.name, f.description, f.enabled, f.enforced, f.priority, JSON.stringify(f.targets), JSON.stringify(f.exclude), JSON.stringify(f.maintenanceWindows)],
    );
  }

  /**
   * Makes the policy's checks `items`: a stored item whose key is in the list is updated in place (it keeps its id,
   * so the agents' state rows of it and their history stay), the others are deleted, new keys inserted. Three statements.
   */
  async replaceChecks(policyId: number, items: NewCheckItem[]): Promise<void> {
    await this.tx.exec('DELETE FROM policy_checks WHERE policy_id = $1 AND NOT (key = ANY($2::text[]))', [policyId, items.map((i) => i.key)]);
    if (items.length === 0) return;
    const json = JSON.stringify(items);
    await this.tx.exec(
      `UPDATE policy_checks c SET position = i.position, check_type = i."checkType", name = i.name, settings = i.settings, script_id = i."scriptId",
         run_interval = i."runInterval", fails_b4_alert = i."failsB4Alert", severity = i.severity
       FROM jsonb_to_recordset($2::jsonb) AS i(key text, position int, "checkType" text, name text, settings jsonb, "scriptId" int, "runInterval" int, "failsB4Alert" int, severity text)
       WHERE c.policy_id = $1 AND c.key = i.key`,
      [policyId, json],
    );
    await this.tx.exec(
      `INSERT INTO policy_checks (policy_id, key, position, check_type, name, settings, script_id, run_interval, fails_b4_alert, severity)
       SELECT $1, i.key, i.position, i."checkType", i.name, i.settings, i."scriptId", i."runInterval", i."failsB4Alert", i.severity
       FROM jsonb_to_recordset($2::jsonb) AS i(key text, position int, "checkType" text, name text, settings jsonb, "scriptId" int, "runInterval" int, "failsB4Alert" int, severity text)
       WHERE NOT EXISTS (SELECT 1 FROM policy_checks c WHERE c.policy_id = $1 AND c.key = i.key)`,
      [policyId, json],
    );
  }

  /** As replaceChecks, for tasks. */
  async replaceTasks(policyId: number, items: NewTaskItem[]): Promise<void> {
    await this.tx.exec('DELETE FROM policy_tasks WHERE policy_id = $1 AND NOT (key = ANY($2::text[]))', [policyId, items.map((i) => i.key)]);
    if (items.length === 0) return;
    const json = JSON.stringify(items);
    const recordset = `jsonb_to_recordset($2::jsonb) AS i(key text, position int, name text, "scriptId" int, args jsonb, schedule text, timeout int, "queueIfOffline" boolean, "skipInMaintenance" boolean)`;
    await this.tx.exec(
      `UPDATE policy_tasks t SET position = i.position, name = i.name, script_id = i."scriptId", args = i.args, schedule = i.schedule, timeout = i.timeout,
         queue_if_offline = i."queueIfOffline", skip_in_maintenance = i."skipInMaintenance"
       FROM ${recordset} WHERE t.policy_id = $1 AND t.key = i.key`,
      [policyId, json],
    );
    await this.tx.exec(
      `INSERT INTO policy_tasks (policy_id, key, position, name, script_id, args, schedule, timeout, queue_if_offline, skip_in_maintenance)
       SELECT $1, i.key, i.position, i.name, i."scriptId", i.args, i.schedule, i.timeout, i."queueIfOffline", i."skipInMaintenance"
       FROM ${recordset} WHERE NOT EXISTS (SELECT 1 FROM policy_tasks t WHERE t.policy_id = $1 AND t.key = i.key)`,
      [policyId, json],
    );
  }

  async delete(id: number): Promise<boolean> {
    return (await this.tx.exec('DELETE FROM policies WHERE id = $1', [id])).rowCount > 0;
  }

  /** Every agent, as matching needs it, in one compact statement (the preview, which names agents). */
  agentFacts(): Promise<AgentFacts[]> {
    return this.tx.rows<AgentFacts>(`SELECT id, client_id AS "clientId", site_id AS "siteId", tags, plat, monitoring_type AS "monitoringType" FROM agents`);
  }

  /**
   * The agents as groups of what matching reads (client, site, tags, platform, monitoring type) with how many agents
   * each holds: what counting needs, in far fewer rows than agents (a fleet's agents share a handful of these).
   */
  agentGroups(): Promise<AgentGroup[]> {
    return this.tx.rows<AgentGroup>(
      `SELECT client_id AS "clientId", site_id AS "siteId", tags, plat, monitoring_type AS "monitoringType", count(*)::int AS n
       FROM agents GROUP BY client_id, site_id, tags, plat, monitoring_type`,
    );
  }

  /** These agents, as matching needs them (the agents policies exclude by id). */
  async agentFactsOf(ids: number[]): Promise<AgentFacts[]> {
    if (ids.length === 0) return [];
    return this.tx.rows<AgentFacts>(
      `SELECT id, client_id AS "clientId", site_id AS "siteId", tags, plat, monitoring_type AS "monitoringType" FROM agents WHERE id = ANY($1::int[])`,
      [ids],
    );
  }

  async hostnames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.tx.rows<{ id: number; hostname: string }>('SELECT id, hostname FROM agents WHERE id = ANY($1::int[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.hostname]));
  }

  /** Of `ids`, those that are clients. */
  async existingClients(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.tx.rows<{ id: number }>('SELECT id FROM clients WHERE id = ANY($1::int[])', [ids]);
    return new Set(rows.map((r) => r.id));
  }

  /** Of `ids`, the sites there are, with their client. */
  async sitesClients(ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.tx.rows<{ id: number; clientId: number }>('SELECT id, client_id AS "clientId" FROM sites WHERE id = ANY($1::int[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.clientId]));
  }

  /** Of `ids`, the agents there are, with their client. */
  async agentsClients(ids: number[]): Promise<Map<number, number | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.tx.rows<{ id: number; clientId: number | null }>('SELECT id, client_id AS "clientId" FROM agents WHERE id = ANY($1::int[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.clientId]));
  }

  async existingScripts(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.tx.rows<{ id: number }>('SELECT id FROM scripts WHERE id = ANY($1::int[])', [ids]);
    return new Set(rows.map((r) => r.id));
  }

  // ---- one agent (the effective policy) ----

  async agent(id: number): Promise<AgentOfPolicy | null> {
    const [row] = await this.tx.rows<AgentOfPolicy>(
      `SELECT a.id, a.client_id AS "clientId", a.site_id AS "siteId", a.tags, a.plat, a.monitoring_type AS "monitoringType", a.maintenance,
         c.name AS "clientName", s.name AS "siteName"
       FROM agents a LEFT JOIN clients c ON c.id = a.client_id LEFT JOIN sites s ON s.id = a.site_id WHERE a.id = $1`,
      [id],
    );
    return row ?? null;
  }

  /**
   * The agent's checks: its own (policy_check_id null) with their definitions, and its state rows of policy items
   * (policy_check_id → the row's id). One statement.
   */
  async agentChecks(agentId: number): Promise<{ own: OwnCheck[]; state: Map<number, number> }> {
    const rows = await this.tx.rows<OwnCheck & { policyCheckId: number | null }>(
      `SELECT id, policy_check_id AS "policyCheckId", check_type AS "checkType", name, settings, script_id AS "scriptId", run_interval AS "runInterval",
         fails_b4_alert AS "failsB4Alert", severity, enabled
       FROM checks WHERE agent_id = $1 ORDER BY id`,
      [agentId],
    );
    const own: OwnCheck[] = [];
    const state = new Map<number, number>();
    for (const { policyCheckId, ...row } of rows) {
      if (policyCheckId === null) own.push(row);
      else state.set(policyCheckId, row.id);
    }
    return { own, state };
  }

  async agentTasks(agentId: number): Promise<{ own: OwnTask[]; state: Map<number, number> }> {
    const rows = await this.tx.rows<OwnTask & { policyTaskId: number | null }>(
      `SELECT id, policy_task_id AS "policyTaskId", name, script_id AS "scriptId", args, schedule, timeout, queue_if_offline AS "queueIfOffline",
         skip_in_maintenance AS "skipInMaintenance", enabled
       FROM tasks WHERE agent_id = $1 ORDER BY id`,
      [agentId],
    );
    const own: OwnTask[] = [];
    const state = new Map<number, number>();
    for (const { policyTaskId, ...row } of rows) {
      if (policyTaskId === null) own.push(row);
      else state.set(policyTaskId, row.id);
    }
    return { own, state };
  }

  overrides(agentId: number): Promise<OverrideFacts[]> {
    return this.tx.rows<OverrideFacts>(
      `SELECT policy_id AS "policyId", key, disabled, settings, run_interval AS "runInterval", fails_b4_alert AS "failsB4Alert"
       FROM policy_overrides WHERE agent_id = $1`,
      [agentId],
    );
  }
}

