import { Global, Injectable, Module } from '@nestjs/common';
import { ALERT_SEVERITIES, AlertSeverity, NotificationEvent, RECOVERS } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { AGENT_JSON_SQL, ALERT_JSON_SQL, RUN_JSON_SQL } from './notification-payload';

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

const rank = (severity: string): string => `array_position(ARRAY[${ALERT_SEVERITIES.map((s) => `'${s}'`).join(', ')}]::text[], ${severity})`;

/**
 * The one INSERT of the outbox: a delivery for every (enabled channel subscribed to the event, whose
 * min_severity the event reaches and whose clients include the agent's, row of `source`), with the event's
 * payload as it is now (NotificationPayload, written in SQL from its field lists: notification-payload.ts). `source` yields `agent_id` (and `alert_id` for alert.*, `run_id` for task.run). Set-based:
 * one statement for any number of agents. With no channel subscribed to the event, the uncorrelated EXISTS is a
 * one-time filter: PostgreSQL checks it once and reads nothing else (a presence batch of thousands of agents pays
 * one index-less look at a table of a few rows). `event` is one of our constants
 * (NOTIFICATION_EVENTS), never input: it is written into the statement so that the statement can be a CTE of a
 * caller's own (AgentPresenceRepository's, whose parameters are its own). It returns each delivery's channel_id and
 * agent_id (outboxCtes records a page's).
 */
function outboxInsertSql(event: NotificationEvent, source: string): string {
  const kind = event.startsWith('alert.') ? 'alert' : event === 'task.run' ? 'run' : 'agent';
  const severity = kind === 'alert' ? 'x.severity' : `'${EVENT_SEVERITY[event as keyof typeof EVENT_SEVERITY]}'`;
  const extra = kind === 'alert' ? `, 'alert', ${ALERT_JSON_SQL}` : kind === 'run' ? `, 'run', ${RUN_JSON_SQL}` : '';
  const joins =
    kind === 'alert' ? 'JOIN alerts x ON x.id = s.alert_id' : kind === 'run' ? 'JOIN task_runs r ON r.id = s.run_id JOIN tasks t ON t.id = r.task_id' : '';
  const filters = `${rank(severity)} >= ${rank('c.min_severity')} AND (cardinality(c.clients) = 0 OR a.client_id = ANY(c.clients))`;
  // A recovery goes to every channel that listed it and is owed it (a page of the agent it was sent), whatever
  // its min_severity and clients say now: the all-clear follows the page (notification_pages).
  const channel = isRecovery(event) ? `((${filters}) OR EXISTS (SELECT 1 FROM notification_pages p WHERE p.channel_id = c.id AND p.agent_id = a.id))` : filters;
  return `INSERT INTO notification_deliveries (channel_id, event, severity, payload)
    SELECT c.id, '${event}', ${severity}, jsonb_build_object('event', '${event}', 'agent', ${AGENT_JSON_SQL}${extra})
      FROM (${source}) s
      JOIN agents a ON a.id = s.agent_id
      ${joins}
      LEFT JOIN clients cl ON cl.id = a.client_id
      LEFT JOIN sites si ON si.id = a.site_id
      JOIN notification_channels c ON c.enabled AND '${event}' = ANY(c.events) AND ${channel}
     WHERE EXISTS (SELECT 1 FROM notification_channels c0 WHERE c0.enabled AND '${event}' = ANY(c0.events))
    RETURNING channel_id, (payload->'agent'->>'id')::int AS agent_id`;
}

/** Events that are a page some recovery resolves (RECOVERS: agent.offline). */
const isPage = (event: NotificationEvent): boolean => Object.values(RECOVERS).includes(event);
/** Events that resolve a page (agent.online). */
const isRecovery = (event: NotificationEvent): boolean => RECOVERS[event] !== undefined;

/**
 * The outbox's writes for an agent event as CTEs of a caller's statement (`name AS (…)`, and more): the deliveries
 * (outboxInsertSql); for a page (agent.offline), the pairs (channel, agent) it was sent to, into notification_pages;
 * for a recovery (agent.online), those pairs deleted once its deliveries are written (the INSERT reads them as they
 * were before: one statement, one snapshot). `source` yields `agent_id`.
 */
export function outboxCtes(name: string, event: AgentNotificationEvent, source: string): string {
  const ctes = [`${name} AS (${outboxInsertSql(event, source)})`];
  if (isPage(event)) {
    ctes.push(`${name}_paged AS (INSERT INTO notification_pages (channel_id, agent_id) SELECT channel_id, agent_id FROM ${name} ON CONFLICT DO NOTHING)`);
  }
  if (isRecovery(event)) {
    ctes.push(`${name}_recovered AS (DELETE FROM notification_pages p USING (${source}) s WHERE p.agent_id = s.agent_id)`);
  }
  return ctes.join(',\n         ');
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
    const sql = `WITH ${outboxCtes('n', event, `SELECT unnest($1::int[]) AS agent_id`)} SELECT count(*)::int AS n FROM n`;
    return (await this.tx.rows<{ n: number }>(sql, [agentIds]))[0].n;
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
