import { Global, Injectable, Module } from '@nestjs/common';
import { ALERT_SEVERITIES, AlertSeverity, NotificationEvent } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';

/** The events about an alert: the alert's own severity. */
export type AlertNotificationEvent = Extract<NotificationEvent, 'alert.created' | 'alert.resolved' | 'alert.acknowledged'>;
/** The events about an agent alone: a fixed severity each (EVENT_SEVERITY). */
export type AgentNotificationEvent = Extract<NotificationEvent, 'agent.offline' | 'agent.overdue' | 'agent.online' | 'enrollment.completed'>;

/**
 * The severity of the events without an alert (docs/notifications.md): an agent going offline may be a reboot
 * (warning); overdue means it has been silent for long (error, like its agent_overdue alert); coming back and a
 * finished enrollment are news (info); a task run that did not succeed is an error (task_failure's severity).
 */
export const EVENT_SEVERITY: Record<AgentNotificationEvent | 'task.run', AlertSeverity> = {
  'agent.offline': 'warning',
  'agent.overdue': 'error',
  'agent.online': 'info',
  'enrollment.completed': 'info',
  'task.run': 'error',
};

/** An ISO 8601 UTC text of a timestamptz column, as the API writes dates (2026-11-23T12:00:00.000Z). */
const iso = (col: string): string => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The agent as a notification carries it (ids as the API gives them: the agent's a string). */
const AGENT_JSON = `jsonb_build_object('id', a.id::text, 'hostname', a.hostname, 'plat', a.plat,
  'client', CASE WHEN cl.id IS NULL THEN NULL ELSE jsonb_build_object('id', cl.id, 'name', cl.name) END,
  'site', CASE WHEN si.id IS NULL THEN NULL ELSE jsonb_build_object('id', si.id, 'name', si.name) END)`;

/** The alert as the API answers it (toAlertDto), at the time of the event. */
const ALERT_JSON = `jsonb_build_object('id', x.id, 'alert_type', x.alert_type, 'agent', x.agent_id::text, 'severity', x.severity,
  'message', x.message, 'created_at', ${iso('x.created_at')}, 'snoozed', x.snoozed, 'resolved', x.resolved,
  'acknowledged', x.acknowledged, 'acknowledged_at', ${iso('x.acknowledged_at')}, 'acknowledged_by', x.acknowledged_by,
  'resolved_at', ${iso('x.resolved_at')}, 'resolved_by', x.resolved_by, 'check', x.check_id, 'task', x.task_id)`;

/** A task run that did not succeed. */
const RUN_JSON = `jsonb_build_object('id', r.id, 'task', r.task_id, 'task_name', t.name, 'status', r.status, 'retcode', r.retcode,
  'error', r.error, 'started_at', ${iso('r.started_at')}, 'finished_at', ${iso('r.finished_at')})`;

const rank = (severity: string): string => `array_position(ARRAY[${ALERT_SEVERITIES.map((s) => `'${s}'`).join(', ')}]::text[], ${severity})`;

/**
 * The one INSERT of the outbox: a delivery for every (enabled channel subscribed to the event, whose
 * min_severity the event reaches and whose clients include the agent's, row of `source`), with the event's
 * payload as it is now. `source` yields `agent_id` (and `alert_id` for alert.*, `run_id` for task.run). Set-based:
 * one statement for any number of agents. With no channel subscribed to the event, the uncorrelated EXISTS is a
 * one-time filter: PostgreSQL checks it once and reads nothing else (a presence batch of thousands of agents pays
 * one index-less look at a table of a few rows). `event` is one of our constants
 * (NOTIFICATION_EVENTS), never input: it is written into the statement so that the statement can be a CTE of a
 * caller's own (AgentPresenceRepository's, whose parameters are its own).
 */
export function outboxInsertSql(event: NotificationEvent, source: string): string {
  const kind = event.startsWith('alert.') ? 'alert' : event === 'task.run' ? 'run' : 'agent';
  const severity = kind === 'alert' ? 'x.severity' : `'${EVENT_SEVERITY[event as keyof typeof EVENT_SEVERITY]}'`;
  const extra = kind === 'alert' ? `, 'alert', ${ALERT_JSON}` : kind === 'run' ? `, 'run', ${RUN_JSON}` : '';
  const joins =
    kind === 'alert' ? 'JOIN alerts x ON x.id = s.alert_id' : kind === 'run' ? 'JOIN task_runs r ON r.id = s.run_id JOIN tasks t ON t.id = r.task_id' : '';
  return `INSERT INTO notification_deliveries (channel_id, event, severity, payload)
    SELECT c.id, '${event}', ${severity}, jsonb_build_object('event', '${event}', 'agent', ${AGENT_JSON}${extra})
      FROM (${source}) s
      JOIN agents a ON a.id = s.agent_id
      ${joins}
      LEFT JOIN clients cl ON cl.id = a.client_id
      LEFT JOIN sites si ON si.id = a.site_id
      JOIN notification_channels c ON c.enabled AND '${event}' = ANY(c.events)
       AND ${rank(severity)} >= ${rank('c.min_severity')}
       AND (cardinality(c.clients) = 0 OR a.client_id = ANY(c.clients))
     WHERE EXISTS (SELECT 1 FROM notification_channels c0 WHERE c0.enabled AND '${event}' = ANY(c0.events))`;
}

/**
 * Writes notifications into the outbox (notification_deliveries), inside the caller's transaction (TransactionHost:
 * call it within the `tx.run` that makes the change): a change that commits always has its deliveries, one rolled
 * back never has any. The delivery worker (delivery-worker.ts) sends them, on whichever instance claims them.
 */
@Injectable()
export class NotificationOutbox {
  constructor(private readonly tx: TransactionHost) {}

  /** alert.created / resolved / acknowledged of these alerts (each with its own severity); the deliveries written. */
  async alerts(event: AlertNotificationEvent, alertIds: readonly number[]): Promise<number> {
    if (alertIds.length === 0) return 0;
    const sql = outboxInsertSql(event, `SELECT x0.id AS alert_id, x0.agent_id FROM alerts x0 WHERE x0.id = ANY($1::int[])`);
    return (await this.tx.exec(sql, [alertIds])).rowCount;
  }

  /** An event of these agents (agent.* and enrollment.completed). */
  async agents(event: AgentNotificationEvent, agentIds: readonly number[]): Promise<number> {
    if (agentIds.length === 0) return 0;
    return (await this.tx.exec(outboxInsertSql(event, `SELECT unnest($1::int[]) AS agent_id`), [agentIds])).rowCount;
  }

  /** task.run of these runs (runs that did not succeed only: the caller decides). */
  async failedRuns(runIds: readonly number[]): Promise<number> {
    if (runIds.length === 0) return 0;
    const sql = outboxInsertSql('task.run', `SELECT r0.id AS run_id, r0.agent_id FROM task_runs r0 WHERE r0.id = ANY($1::int[])`);
    return (await this.tx.exec(sql, [runIds])).rowCount;
  }
}

/** The outbox, for every module that causes notifications (alerts, presence, tasks, registration). */
@Global()
@Module({ providers: [NotificationOutbox], exports: [NotificationOutbox] })
export class NotificationOutboxModule {}
