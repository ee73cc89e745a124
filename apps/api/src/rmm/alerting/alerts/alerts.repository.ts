import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { AlertEntity, AlertSeverity, AlertType } from '@app/entities';
import { ClientScope, ofAgentsInScope } from '../../common/client-scope';
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
   * partial unique indexes UQ_alerts_open_* decide, so concurrent callers open one. Null when one was open.
   */
  async openOnce(a: SystemAlert, at: Date): Promise<AlertEntity | null> {
    const rows = await this.tx.rows<{ id: number }>(
      `WITH created AS (
         INSERT INTO alerts (alert_type, agent_id, check_id, task_id, severity, message, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id)
       SELECT id FROM created`,
      [a.alertType, a.agentId, a.checkId ?? null, a.taskId ?? null, a.severity, a.message, at],
    );
    return rows[0] ? this.findById(rows[0].id) : null;
  }

  /** Resolves the open alert of a kind for its subject (by 'system'); the alerts it resolved (none or one). */
  async resolveOpen(subject: AlertSubject, by: string, at: Date): Promise<AlertEntity[]> {
    const column = subject.alertType === 'check_failure' ? 'check_id' : subject.alertType === 'task_failure' ? 'task_id' : 'agent_id';
    const rows = await this.tx.rows<{ id: number }>(
      `WITH changed AS (
         UPDATE alerts SET resolved = true, resolved_at = $3, resolved_by = $4
          WHERE NOT resolved AND alert_type = $1 AND ${column} = $2 RETURNING id)
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
          WHERE a.status = 'overdue' AND ($3::int[] IS NULL OR a.id = ANY($3::int[]))
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
