import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { AlertEntity, AlertSeverity, AlertType } from '@app/entities';
import { ClientScope, ofAgentsInScope } from '../../common/client-scope';
import { IN_MAINTENANCE } from '../../common/maintenance';
import { Page } from '../../common/pagination.dto';

export interface AlertFilter {
  agentId?: number;
  severity?: AlertSeverity;
  alertType?: AlertType;
  resolved: boolean;
  snoozed?: boolean;
}

/** An alert the server opens by itself. */
export interface SystemAlert {
  alertType: AlertType;
  agentId: number;
  checkId?: number;
  taskId?: number;
  severity: AlertSeverity;
  message: string;
}

/** What a system alert is about: a check (check_failure), a task (task_failure) or an agent (agent_overdue). */
export type AlertSubject = { alertType: AlertType; id: number };

/** The subject of a system alert: its check, its task, else its agent (the keys of UQ_alerts_open_*). */
export const subjectOf = (a: SystemAlert): AlertSubject => ({
  alertType: a.alertType,
  id: a.alertType === 'check_failure' ? a.checkId! : a.alertType === 'task_failure' ? a.taskId! : a.agentId,
});

/** How long an alert subject's opens count towards flapping, and how long it must be stable to stop (30 minutes). */
export const FLAP_WINDOW_MS = 30 * 60_000;

/** What an open did to its subject's flap history: it is not flapping, it starts now, or it already was. */
export type FlapOutcome = 'steady' | 'started' | 'flapping';

/**
 * The alert kinds an agent in maintenance does not open (docs/policies.md, "Maintenance"): its checks and tasks
 * still run and record, its presence is still tracked, but nothing pages anyone.
 */
const MAINTENANCE_QUIET: readonly AlertType[] = ['check_failure', 'task_failure', 'agent_overdue'];


const subjectColumn = (alertType: AlertType): string => (alertType === 'check_failure' ? 'check_id' : alertType === 'task_failure' ? 'task_id' : 'agent_id');

@Injectable()
export class AlertsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get alerts(): Repository<AlertEntity> {
    return this.tx.repo(AlertEntity);
  }


  /**
   * By id (the order they were raised); active alerts use IDX_alerts_active. `clients`: only alerts of agents of
   * those clients (rows and count).
   */
  list(f: AlertFilter, page: Page, clients: ClientScope): Promise<[AlertEntity[], number]> {
    const q = ofAgentsInScope(this.alerts.createQueryBuilder('x'), clients).where('x.resolved = :resolved', { resolved: f.resolved });
    if (f.agentId !== undefined) q.andWhere('x.agentId = :agentId', { agentId: f.agentId });
    if (f.severity !== undefined) q.andWhere('x.severity = :severity', { severity: f.severity });
    if (f.alertType !== undefined) q.andWhere('x.alertType = :alertType', { alertType: f.alertType });
    if (f.snoozed !== undefined) q.andWhere('x.snoozed = :snoozed', { snoozed: f.snoozed });
    return q.orderBy('x.id', 'ASC').offset(page.offset).limit(page.limit).getManyAndCount();
  }

  findById(id: number): Promise<AlertEntity | null> {
    return this.alerts.findOneBy({ id });
  }

  /** findById for a caller: null for an alert of another client's agent. */
  findVisible(id: number, clients: ClientScope): Promise<AlertEntity | null> {
    return ofAgentsInScope(this.alerts.createQueryBuilder('x'), clients).where('x.id = :id', { id }).getOne();
  }

  /**
   * Acknowledges an open alert, decided by one UPDATE: the first acknowledgement wins, and a resolved alert is
   * left as it is. True when this call changed it.
   */
  async acknowledge(id: number, by: string, at: Date): Promise<boolean> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE alerts SET acknowledged = true, acknowledged_at = $3, acknowledged_by = $2
        WHERE id = $1 AND acknowledged_at IS NULL AND NOT resolved RETURNING id`,
      [id, by, at],
    );
    return rows.length > 0;
  }

  /**
   * Opens a system alert unless one of its kind is open for its subject (check, task or overdue agent): the
   * partial unique indexes UQ_alerts_open_* decide, so concurrent callers open one. Nor while its agent is in
   * maintenance (MAINTENANCE_QUIET kinds): the same statement reads the agent, so its next cause after the
   * maintenance opens it. Null when one was open; then,
   * if the subject is flapping (its alert kept open), its cause is noted as failing again (alert_flaps.cleared,
   * changed_at: the flapping goes on).
   */
  async openOnce(a: SystemAlert, at: Date): Promise<AlertEntity | null> {
    const rows = await this.tx.rows<{ id: number }>(
      `WITH created AS (
         INSERT INTO alerts (alert_type, agent_id, check_id, task_id, severity, message, created_at)
         SELECT $1::text, $2::int, $3::int, $4::int, $5::text, $6::text, $7::timestamptz
          WHERE NOT ($1 = ANY($9::text[]) AND EXISTS (SELECT 1 FROM agents a WHERE a.id = $2 AND ${IN_MAINTENANCE}))
         ON CONFLICT DO NOTHING RETURNING id),
       flap AS (
         UPDATE alert_flaps SET cleared = false, changed_at = $7
          WHERE alert_type = $1 AND subject_id = $8 AND flapping_since IS NOT NULL AND cleared AND NOT EXISTS (SELECT 1 FROM created))
       SELECT id FROM created`,
      [a.alertType, a.agentId, a.checkId ?? null, a.taskId ?? null, a.severity, a.message, at, subjectOf(a).id, MAINTENANCE_QUIET],
    );
    return rows[0] ? this.findById(rows[0].id) : null;
  }

  /**
   * Counts an alert just opened in its subject's flap history (the opens of the last 30 minutes, in one upsert) and
   * decides: more than `limit` opens makes the subject flapping from now (or it already was): the alert is marked
   * `flapping` and kept as the subject's flapping alert.
   */
  async recordOpen(a: SystemAlert, alertId: number, at: Date, limit: number): Promise<FlapOutcome> {
    const subject = subjectOf(a);
    const [row] = await this.tx.rows<{ n: number; flapping_since: Date | null }>(
      `INSERT INTO alert_flaps AS f (alert_type, subject_id, agent_id, opens) VALUES ($1, $2, $3, ARRAY[$4::timestamptz])
       ON CONFLICT (alert_type, subject_id) DO UPDATE SET agent_id = EXCLUDED.agent_id,
         opens = ARRAY(SELECT o FROM unnest(f.opens) o WHERE o > $4::timestamptz - $5 * interval '1 millisecond' ORDER BY o DESC LIMIT $6) || $4::timestamptz
       RETURNING cardinality(opens) AS n, flapping_since`,
      [subject.alertType, subject.id, a.agentId, at, FLAP_WINDOW_MS, limit + 1],
    );
    const outcome: FlapOutcome = row.flapping_since !== null ? 'flapping' : row.n > limit ? 'started' : 'steady';
    if (outcome === 'steady') return outcome;
    await this.tx.exec(
      `UPDATE alert_flaps SET flapping_since = COALESCE(flapping_since, $3), alert_id = $4, cleared = false, changed_at = $3
        WHERE alert_type = $1 AND subject_id = $2`,
      [subject.alertType, subject.id, at, alertId],
    );
    await this.tx.exec(`UPDATE alerts SET flapping = true WHERE id = $1`, [alertId]);
    return outcome;
  }

  /**
   * The flapping subjects stable since `stableSince` (their cause has not changed since): no longer flapping, their
   * history cleared; each one's kept alert is `flapping` no more, and resolved (by `by`) when its cause had gone
   * away. Then the histories with no open in the window are deleted. The alerts it resolved, oldest first.
   */
  async endFlapping(stableSince: Date, at: Date, by: string): Promise<AlertEntity[]> {
    const rows = await this.tx.rows<{ id: number }>(
      `WITH due AS MATERIALIZED (
         SELECT alert_type, subject_id, alert_id, cleared FROM alert_flaps
          WHERE flapping_since IS NOT NULL AND COALESCE(changed_at, flapping_since) <= $1
          ORDER BY alert_type, subject_id FOR UPDATE SKIP LOCKED),
       ended AS (
         UPDATE alert_flaps f SET flapping_since = NULL, opens = '{}', alert_id = NULL, cleared = false, changed_at = NULL
           FROM due d WHERE f.alert_type = d.alert_type AND f.subject_id = d.subject_id),
       steady AS (
         UPDATE alerts x SET flapping = false FROM due d WHERE x.id = d.alert_id AND NOT d.cleared),
       resolved AS (
         UPDATE alerts x SET flapping = false, resolved = true, resolved_at = $2, resolved_by = $3
           FROM due d WHERE x.id = d.alert_id AND d.cleared AND NOT x.resolved RETURNING x.id)
       SELECT id FROM resolved`,
      [stableSince, at, by],
    );
    await this.tx.exec(
      `DELETE FROM alert_flaps WHERE flapping_since IS NULL AND NOT EXISTS (SELECT 1 FROM unnest(opens) o WHERE o > $1)`,
      [new Date(at.getTime() - FLAP_WINDOW_MS)],
    );
    return rows.length === 0 ? [] : this.alerts.find({ where: { id: In(rows.map((r) => r.id)) }, order: { id: 'ASC' } });
  }

  /**
   * Resolves the open alert of a kind for its subject (by 'system'); the alerts it resolved (none or one). A flapping
   * alert stays open: its cause is noted as gone (alert_flaps.cleared, changed_at), and it is resolved once the
   * subject has been stable for 30 minutes (endFlapping).
   */
  async resolveOpen(subject: AlertSubject, by: string, at: Date): Promise<AlertEntity[]> {
    const column = subjectColumn(subject.alertType);
    const rows = await this.tx.rows<{ id: number }>(
      `WITH changed AS (
         UPDATE alerts SET resolved = true, resolved_at = $3, resolved_by = $4
          WHERE NOT resolved AND NOT flapping AND alert_type = $1 AND ${column} = $2 RETURNING id),
       flap AS (
         UPDATE alert_flaps SET cleared = true, changed_at = $3
          WHERE alert_type = $1 AND subject_id = $2 AND flapping_since IS NOT NULL AND NOT cleared)
       SELECT id FROM changed`,
      [subject.alertType, subject.id, at, by],
    );
    return rows.length === 0 ? [] : this.alerts.find({ where: { id: In(rows.map((r) => r.id)) }, order: { id: 'ASC' } });
  }

  /**
   * resolveOpen for many agents in one statement (an alert kind keyed by agent_id, e.g. agent_overdue): the
   * alerts it resolved, oldest first (none for most agents).
   */
  async resolveOpenOfAgents(alertType: AlertType, agentIds: number[], by: string, at: Date): Promise<AlertEntity[]> {
    if (agentIds.length === 0) return [];
    const rows = await this.tx.rows<{ id: number }>(
      `WITH changed AS (
         UPDATE alerts SET resolved = true, resolved_at = $3, resolved_by = $4
          WHERE NOT resolved AND alert_type = $1 AND agent_id = ANY($2::int[]) RETURNING id)
       SELECT id FROM changed`,
      [alertType, agentIds, at, by],
    );
    return rows.length === 0 ? [] : this.alerts.find({ where: { id: In(rows.map((r) => r.id)) }, order: { id: 'ASC' } });
  }

  /** The agent's open alerts, oldest first. */
  openFor(agentId: number): Promise<AlertEntity[]> {
    return this.alerts.find({ where: { agentId, resolved: false }, order: { id: 'ASC' } });
  }

  /** Resolves an open alert, decided by one UPDATE: the first resolution wins. True when this call resolved it. */
  async resolve(id: number, by: string, at: Date): Promise<boolean> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE alerts SET resolved = true, resolved_at = $3, resolved_by = $2 WHERE id = $1 AND NOT resolved RETURNING id`,
      [id, by, at],
    );
    return rows.length > 0;
  }

  /**
   * Opens agent_overdue for every overdue agent without one open (`agentIds`: only among these), in one
   * statement: the agents' rows are locked (FOR SHARE, in id order, like every presence write) and their status
   * checked again on the version a concurrent connect left, so an agent that just came back opens nothing; the
   * partial unique index UQ_alerts_open_overdue stands behind it, so instances running this together open one
   * alert per agent. The alerts it opened, oldest first.
   */
  async openOverdue(severity: AlertSeverity, at: Date, agentIds?: number[]): Promise<AlertEntity[]> {
    const rows = await this.tx.rows<{ id: number }>(
      `WITH due AS MATERIALIZED (
         SELECT a.id, a.hostname, a.last_seen FROM agents a
          WHERE a.status = 'overdue' AND ($3::int[] IS NULL OR a.id = ANY($3::int[])) AND NOT ${IN_MAINTENANCE}
            AND NOT EXISTS (SELECT 1 FROM alerts x WHERE x.agent_id = a.id AND x.alert_type = 'agent_overdue' AND NOT x.resolved)
          ORDER BY a.id FOR SHARE OF a),
       created AS (
         INSERT INTO alerts (alert_type, agent_id, severity, message, created_at)
         SELECT 'agent_overdue', d.id, $1, 'agent ' || d.hostname || ' is overdue: not heard from'
                || COALESCE(' since ' || to_char(d.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ''), $2
           FROM due d ORDER BY d.id
         ON CONFLICT DO NOTHING RETURNING id)
       SELECT id FROM created`,
      [severity, at, agentIds ?? null],
    );
    return rows.length === 0 ? [] : this.alerts.find({ where: { id: In(rows.map((r) => r.id)) }, order: { id: 'ASC' } });
  }

  /** Resolves the open agent_overdue alerts of agents that are online, in one statement; the alerts it resolved. */
  async resolveOverdueOfOnline(by: string, at: Date): Promise<AlertEntity[]> {
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE alerts x SET resolved = true, resolved_at = $1, resolved_by = $2 FROM agents a
        WHERE a.id = x.agent_id AND a.status = 'online' AND NOT x.resolved AND x.alert_type = 'agent_overdue' RETURNING x.id`,
      [at, by],
    );
    return rows.length === 0 ? [] : this.alerts.find({ where: { id: In(rows.map((r) => r.id)) }, order: { id: 'ASC' } });
  }
}
