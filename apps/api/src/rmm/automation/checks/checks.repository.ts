import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { AlertSeverity, CheckEntity, CheckResultEntity, CheckStatus, CheckType, ScriptEntity } from '@app/entities';
import { ClientScope, ofAgentsInScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { AGENT_EXISTS_SQL } from '../../fleet/agents/agents.sql';

export type CheckFields = Pick<CheckEntity, 'agentId' | 'checkType' | 'name' | 'settings' | 'scriptId' | 'failsB4Alert' | 'runInterval' | 'severity' | 'enabled'>;

/** The results kept per check: the newest HISTORY_KEEP (older ones are pruned as each result is stored). */
export const HISTORY_KEEP = 500;

/** A check as the agent needs it (checks.sync), its script's text included for a script check. */
/** The fingerprint of an agent without checks. */
export const EMPTY_LIST_FINGERPRINT = '';

/**
 * What identifies one check as checks.sync carries it, without its script's body: every field of the check the
 * list carries, and the script's fields and its last change (updated_at, which every change of a script moves).
 */
const CHECK_FINGERPRINT = `concat_ws('|', c.id, c.check_type, c.name, c.run_interval, c.settings::text, c.script_id, s.shell, s.default_timeout,
  array_to_string(s.default_args, chr(31)), (extract(epoch FROM s.updated_at) * 1000000)::bigint)`;

export interface CheckToRun {
  id: number;
  checkType: CheckType;
  name: string;
  runInterval: number;
  settings: Record<string, unknown>;
  script: { shell: string; body: string; defaultArgs: string[]; defaultTimeout: number } | null;
}

/** One result stored: the check as it is now, and the status it had before. */
export interface RecordedResult {
  checkId: number;
  agentId: number;
  name: string;
  status: CheckStatus;
  previousStatus: CheckStatus;
  failCount: number;
  failsB4Alert: number;
  severity: AlertSeverity;
}

@Injectable()
export class ChecksRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The rows with their policy item's policy (the source the API shows). */
  private withSource() {
    return this.checks.createQueryBuilder('c').leftJoinAndSelect('c.policyCheck', 'pi').leftJoinAndSelect('pi.policy', 'pp');
  }

  private get checks(): Repository<CheckEntity> {
    return this.tx.repo(CheckEntity);
  }

  private get scripts(): Repository<ScriptEntity> {
    return this.tx.repo(ScriptEntity);
  }

  private get results(): Repository<CheckResultEntity> {
    return this.tx.repo(CheckResultEntity);
  }

  /** By id; with an agent, uses IDX_checks_agent. `clients`: only checks of agents of those clients (rows and count). */
  list(agentId: number | undefined, page: Page, clients: ClientScope): Promise<[CheckEntity[], number]> {
    const q = ofAgentsInScope(this.withSource(), clients);
    if (agentId !== undefined) q.andWhere('c.agentId = :agentId', { agentId });
    return q.orderBy('c.id', 'ASC').offset(page.offset).limit(page.limit).getManyAndCount();
  }

  findById(id: number, clients: ClientScope): Promise<CheckEntity | null> {
    return ofAgentsInScope(this.withSource(), clients).where('c.id = :id', { id }).getOne();
  }

  async agentExists(id: number, clients: ClientScope): Promise<boolean> {
    const [row] = await this.tx.rows<{ found: boolean }>(AGENT_EXISTS_SQL, [id, clients]);
    return row.found;
  }

  scriptExists(id: number): Promise<boolean> {
    return this.scripts.existsBy({ id });
  }

  insert(fields: CheckFields): Promise<CheckEntity> {
    return this.checks.save(this.checks.create(fields));
  }

  async update(id: number, fields: Partial<CheckFields>): Promise<void> {
    if (Object.keys(fields).length > 0) await this.checks.update({ id }, fields as Parameters<Repository<CheckEntity>['update']>[1]);
  }

  async delete(id: number): Promise<boolean> {
    return ((await this.checks.delete({ id })).affected ?? 0) > 0;
  }

  /** A check's results, newest first (IDX_check_results_check). */
  history(checkId: number, page: Page): Promise<[CheckResultEntity[], number]> {
    return this.results.findAndCount({ where: { checkId }, order: { id: 'DESC' }, skip: page.offset, take: page.limit });
  }

  /** Every enabled check of the agent, by id, with the script of each script check. */
  async toRun(agentId: number): Promise<CheckToRun[]> {
    return (await this.toRunOfAgents([agentId])).get(agentId)?.checks ?? [];
  }

  /**
   * toRun for many agents in one statement: each agent's checks, with the fingerprint of that list (an agent
   * without any is absent: its fingerprint is EMPTY_LIST_FINGERPRINT).
   */
  async toRunOfAgents(agentIds: number[]): Promise<Map<number, { checks: CheckToRun[]; fingerprint: string }>> {
    const byAgent = new Map<number, { checks: CheckToRun[]; fingerprint: string }>();
    if (agentIds.length === 0) return byAgent;
    const rows = await this.tx.rows<{ agent_id: number; id: number; check_type: CheckType; name: string; run_interval: number; settings: Record<string, unknown>; shell: string | null; body: string | null; default_args: string[] | null; default_timeout: number | null; fp: string }>(
      `SELECT c.agent_id, c.id, c.check_type, c.name, c.run_interval, c.settings, s.shell, s.body, s.default_args, s.default_timeout,
              md5(string_agg(${CHECK_FINGERPRINT}, E'\n') OVER (PARTITION BY c.agent_id ORDER BY c.id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)) AS fp
         FROM checks c LEFT JOIN scripts s ON s.id = c.script_id
        WHERE c.agent_id = ANY($1::int[]) AND c.enabled AND c.shadowed_by_policy_check_id IS NULL ORDER BY c.agent_id, c.id`,
      [agentIds],
    );
    for (const r of rows) {
      let list = byAgent.get(r.agent_id);
      if (!list) byAgent.set(r.agent_id, (list = { checks: [], fingerprint: r.fp }));
      list.checks.push({
        id: r.id,
        checkType: r.check_type,
        name: r.name,
        runInterval: r.run_interval,
        settings: r.settings,
        script: r.shell === null ? null : { shell: r.shell, body: r.body ?? '', defaultArgs: r.default_args ?? [], defaultTimeout: r.default_timeout ?? 90 },
      });
    }
    return byAgent;
  }

  /**
   * The fingerprint of each agent's check list now, without reading the lists (no script bodies): one
   * statement per call, for the reconcile of thousands of agents. Agents without checks are absent.
   */
  async fingerprintsOf(agentIds: number[]): Promise<Map<number, string>> {
    if (agentIds.length === 0) return new Map();
    const rows = await this.tx.rows<{ agent_id: number; fp: string }>(
      `SELECT c.agent_id, md5(string_agg(${CHECK_FINGERPRINT}, E'\n' ORDER BY c.id)) AS fp
         FROM checks c LEFT JOIN scripts s ON s.id = c.script_id
        WHERE c.agent_id = ANY($1::int[]) AND c.enabled AND c.shadowed_by_policy_check_id IS NULL GROUP BY c.agent_id`,
      [agentIds],
    );
    return new Map(rows.map((r) => [r.agent_id, r.fp]));
  }

  /** The agents that run a script check of this script. */
  async agentsRunningScript(scriptId: number): Promise<number[]> {
    const rows = await this.tx.rows<{ agent_id: number }>(`SELECT DISTINCT agent_id FROM checks WHERE script_id = $1 AND check_type = 'script' AND enabled AND shadowed_by_policy_check_id IS NULL`, [scriptId]);
    return rows.map((r) => r.agent_id);
  }

  /**
   * Stores one result of the agent's check, in one transaction: the check's row is locked (FOR UPDATE) so
   * concurrent results of one check are applied one after the other, each on the count the previous one
   * left; the check's status, more_info, last_run and fail_count change and the result joins the history in
   * that same statement (which returns the status before); then the history beyond the newest HISTORY_KEEP
   * is pruned (a second statement, so it sees every result stored before it, under the lock). A failing
   * result counts one more consecutive failure and turns the check `failing` once fail_count reaches
   * fails_b4_alert (until then it keeps the status it had); passing resets the count; pending changes the
   * status only. Null when the check is not this agent's (or no longer exists, or is disabled: a result the agent
   * sent before it got its new list): nothing is stored.
   */
  async recordResult(agentId: number, checkId: number, status: CheckStatus, moreInfo: string | null, at: Date): Promise<RecordedResult | null> {
    const rows = await this.tx.run(async () => {
      const changed = await this.tx.rows<{ id: number; agent_id: number; name: string; status: CheckStatus; previous_status: CheckStatus; fail_count: number; fails_b4_alert: number; severity: AlertSeverity }>(
        `WITH prev AS (
           SELECT id, status FROM checks WHERE id = $1 AND agent_id = $2 AND enabled AND shadowed_by_policy_check_id IS NULL FOR UPDATE),
         changed AS (
           UPDATE checks c SET
             fail_count = CASE $3::text WHEN 'failing' THEN c.fail_count + 1 WHEN 'passing' THEN 0 ELSE c.fail_count END,
             status = CASE WHEN $3::text <> 'failing' THEN $3::text
                           WHEN c.fail_count + 1 >= c.fails_b4_alert THEN 'failing'
                           ELSE c.status END,
             more_info = $4, last_run = $5
             FROM prev WHERE c.id = prev.id
           RETURNING c.id, c.agent_id, c.name, c.status, prev.status AS previous_status, c.fail_count, c.fails_b4_alert, c.severity),
         stored AS (
           INSERT INTO check_results (check_id, status, more_info, created_at)
           SELECT id, $3::text, $4, $5 FROM changed RETURNING id)
         SELECT * FROM changed`,
        [checkId, agentId, status, moreInfo, at],
      );
      if (changed.length > 0) {
        // IDX_check_results_check: the HISTORY_KEEP-th newest id, then the older ones.
        await this.tx.exec(
          `DELETE FROM check_results WHERE check_id = $1
              AND id < (SELECT id FROM check_results WHERE check_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
          [checkId, HISTORY_KEEP - 1],
        );
      }
      return changed;
    });
    const r = rows[0];
    if (!r) return null;
    return {
      checkId: r.id,
      agentId: r.agent_id,
      name: r.name,
      status: r.status,
      previousStatus: r.previous_status,
      failCount: r.fail_count,
      failsB4Alert: r.fails_b4_alert,
      severity: r.severity,
    };
  }

  /** Adds each agent's dropped check results to agents.check_results_dropped (one statement). */
  async addDroppedResults(drops: Map<number, number>): Promise<void> {
    await this.tx.exec(
      `UPDATE agents a SET check_results_dropped = a.check_results_dropped + x.n FROM unnest($1::int[], $2::int[]) AS x(id, n) WHERE a.id = x.id`,
      [[...drops.keys()], [...drops.values()]],
    );
  }
}
