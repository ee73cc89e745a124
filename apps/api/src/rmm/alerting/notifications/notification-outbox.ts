import { Global, Injectable, Module } from '@nestjs/common';
import { ALERT_SEVERITIES, AlertSeverity, NotificationEvent, RECOVERS } from '@app/entities';
import { Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { TransactionHost } from '../../../database/transaction-host';
import { IN_MAINTENANCE } from '../../common/maintenance';
import { sqlIso } from '../../common/resources/sql-json';
import { AGENT_JSON_SQL, ALERT_JSON_SQL, RUN_JSON_SQL } from './notification-payload';

/**
 * The events about an alert: the alert's own severity. alert.flapping is not a channel's own choice: it stands in
 * for the alert.created it replaces, so it goes to the channels that list alert.created (docs/notifications.md,
 * "Flapping").
 */
export type AlertNotificationEvent = Extract<NotificationEvent, 'alert.created' | 'alert.resolved' | 'alert.acknowledged'> | 'alert.flapping';
/** The events about an agent alone: a fixed severity each (EVENT_SEVERITY). */
export type AgentNotificationEvent = Extract<NotificationEvent, 'agent.offline' | 'agent.overdue' | 'agent.online' | 'enrollment.completed'>;
/** Every event the outbox writes for a cause (notifications.suppressed is the budget's own: outboxCtes). */
type OutboxEvent = NotificationEvent | 'alert.flapping';

/** The summary of what a channel was not sent about one agent in one hour (docs/notifications.md). */
export const SUPPRESSED_EVENT = 'notifications.suppressed';

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
 * The outbox's writes for one event as CTEs of one statement (`name AS (…)`, and more), `source` yielding
 * `agent_id` (and `alert_id` for alert.*, `run_id` for task.run):
 *
 * - `name_c`: the candidates: every (enabled channel subscribed to the event, whose min_severity the event reaches
 *   and whose clients include the agent's, row of `source` whose agent is not in maintenance: IN_MAINTENANCE), with the event's payload as it is now
 *   (NotificationPayload, written in SQL from its field lists: notification-payload.ts). Set-based: one statement
 *   for any number of agents. With no channel subscribed to the event, the uncorrelated EXISTS is a one-time
 *   filter: PostgreSQL checks it once and reads nothing else (a presence batch of thousands of agents pays one
 *   index-less look at a table of a few rows).
 * - `name_b`: each (channel, agent)'s budget of the hour (notification_budgets), counted up under its row lock
 *   (inserted in key order, so two statements never wait on each other in a cycle): a concurrent statement for the
 *   same pair waits and then counts on top.
 * - `name`: the deliveries within RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR (`perAgentPerHour`) of the pair's hour; it
 *   returns each delivery's channel_id and agent_id (a page's are recorded from it).
 * - `name_s`: past it, the pair's one notifications.suppressed delivery of the hour (id: the budget's summary_id),
 *   due at the end of the hour, written by the first suppression and counted up by each next one while it waits.
 *
 * `event` is one of our constants, never input, and `perAgentPerHour` a validated integer: both are written into
 * the statement so that it can be part of a caller's own statement (AgentPresenceRepository's, whose parameters
 * are its own).
 */
function outboxInsertCtes(name: string, event: OutboxEvent, source: string, perAgentPerHour: number): string[] {
  const kind = event.startsWith('alert.') ? 'alert' : event === 'task.run' ? 'run' : 'agent';
  const severity = kind === 'alert' ? 'x.severity' : `'${EVENT_SEVERITY[event as keyof typeof EVENT_SEVERITY]}'`;
  const extra = kind === 'alert' ? `, 'alert', ${ALERT_JSON_SQL}` : kind === 'run' ? `, 'run', ${RUN_JSON_SQL}` : '';
  const joins =
    kind === 'alert' ? 'JOIN alerts x ON x.id = s.alert_id' : kind === 'run' ? 'JOIN task_runs r ON r.id = s.run_id JOIN tasks t ON t.id = r.task_id' : '';
  const listed = event === 'alert.flapping' ? 'alert.created' : event;
  const filters = `${rank(severity)} >= ${rank('c.min_severity')} AND (cardinality(c.clients) = 0 OR a.client_id = ANY(c.clients))`;
  // A recovery goes to every channel that listed it and is owed it (a page of the agent it was sent), whatever
  // its min_severity and clients say now: the all-clear follows the page (notification_pages).
  const channel = isRecovery(event) ? `((${filters}) OR EXISTS (SELECT 1 FROM notification_pages p WHERE p.channel_id = c.id AND p.agent_id = a.id))` : filters;
  const limit = Math.trunc(perAgentPerHour);
  return [
    `${name}_c AS MATERIALIZED (
      SELECT c.id AS channel_id, a.id AS agent_id, ${severity} AS severity,
             jsonb_build_object('event', '${event}', 'agent', ${AGENT_JSON_SQL}${extra}) AS payload,
             row_number() OVER (PARTITION BY c.id, a.id) AS n, count(*) OVER (PARTITION BY c.id, a.id) AS k
        FROM (${source}) s
        JOIN agents a ON a.id = s.agent_id
        ${joins}
        LEFT JOIN clients cl ON cl.id = a.client_id
        LEFT JOIN sites si ON si.id = a.site_id
        JOIN notification_channels c ON c.enabled AND '${listed}' = ANY(c.events) AND ${channel}
       WHERE EXISTS (SELECT 1 FROM notification_channels c0 WHERE c0.enabled AND '${listed}' = ANY(c0.events)) AND NOT ${IN_MAINTENANCE})`,
    `${name}_b AS (
      INSERT INTO notification_budgets AS b (channel_id, agent_id, window_start, events, summary_id)
      SELECT channel_id, agent_id, date_trunc('hour', now()), count(*), gen_random_uuid() FROM ${name}_c
       GROUP BY channel_id, agent_id ORDER BY channel_id, agent_id
      ON CONFLICT (channel_id, agent_id) DO UPDATE SET
        events = CASE WHEN b.window_start = EXCLUDED.window_start THEN b.events + EXCLUDED.events ELSE EXCLUDED.events END,
        summary_id = CASE WHEN b.window_start = EXCLUDED.window_start THEN b.summary_id ELSE EXCLUDED.summary_id END,
        window_start = EXCLUDED.window_start
      RETURNING channel_id, agent_id, window_start, events, summary_id)`,
    `${name} AS (
      INSERT INTO notification_deliveries (channel_id, event, severity, payload)
      SELECT x.channel_id, '${event}', x.severity, x.payload FROM ${name}_c x JOIN ${name}_b b ON b.channel_id = x.channel_id AND b.agent_id = x.agent_id
       WHERE b.events - x.k + x.n <= ${limit}
      RETURNING channel_id, (payload->'agent'->>'id')::int AS agent_id)`,
    `${name}_s AS (
      INSERT INTO notification_deliveries AS d (id, channel_id, event, severity, payload, next_attempt_at)
      SELECT b.summary_id, b.channel_id, '${SUPPRESSED_EVENT}', 'warning',
             jsonb_build_object('event', '${SUPPRESSED_EVENT}', 'agent', ${AGENT_JSON_SQL}, 'suppressed', jsonb_build_object(
               'count', b.events - ${limit}, 'events', jsonb_build_array('${event}'), 'limit', ${limit},
               'from', ${sqlIso('b.window_start')}, 'until', ${sqlIso(`(b.window_start + interval '1 hour')`)})),
             b.window_start + interval '1 hour'
        FROM ${name}_b b
        JOIN agents a ON a.id = b.agent_id
        LEFT JOIN clients cl ON cl.id = a.client_id
        LEFT JOIN sites si ON si.id = a.site_id
       WHERE b.events > ${limit}
      ON CONFLICT (id) DO UPDATE SET payload = jsonb_set(jsonb_set(d.payload, '{suppressed,count}', EXCLUDED.payload->'suppressed'->'count'), '{suppressed,events}',
             (SELECT jsonb_agg(DISTINCT e ORDER BY e) FROM jsonb_array_elements_text((d.payload->'suppressed'->'events') || (EXCLUDED.payload->'suppressed'->'events')) AS e))
       WHERE d.status = 'pending')`,
  ];
}

/** Events that are a page some recovery resolves (RECOVERS: agent.offline). */
const isPage = (event: OutboxEvent): boolean => (Object.values(RECOVERS) as string[]).includes(event);
/** Events that resolve a page (agent.online). */
const isRecovery = (event: OutboxEvent): boolean => event !== 'alert.flapping' && RECOVERS[event] !== undefined;

/**
 * The outbox's writes for an agent event as CTEs of a caller's statement (`name AS (…)`, and more): the deliveries
 * (outboxInsertCtes); for a page (agent.offline), the pairs (channel, agent) it was sent to, into notification_pages;
 * for a recovery (agent.online), those pairs deleted once its deliveries are written (the INSERT reads them as they
 * were before: one statement, one snapshot). `source` yields `agent_id`.
 */
export function outboxCtes(name: string, event: AgentNotificationEvent, source: string, perAgentPerHour: number): string {
  const ctes = outboxInsertCtes(name, event, source, perAgentPerHour);
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
  constructor(
    private readonly tx: TransactionHost,
    private readonly config: RuntimeConfig,
    jobs: Jobs,
  ) {
    // Once across the cluster: the budgets of past hours count nothing any more (their summaries are deliveries).
    jobs.every('notifications.budgets', { seconds: 600, mode: 'cluster-once' }, () => this.pruneBudgets());
  }

  /** Deletes the budgets of hours past; the number deleted. */
  async pruneBudgets(): Promise<number> {
    return (await this.tx.exec(`DELETE FROM notification_budgets WHERE window_start < date_trunc('hour', now())`)).rowCount;
  }

  /** One event's CTEs (outboxInsertCtes) as a statement answering the deliveries written. */
  private async write(event: OutboxEvent, source: string, params: unknown[]): Promise<number> {
    const sql = `WITH ${outboxInsertCtes('n', event, source, this.config.notifyMaxPerAgentPerHour).join(',\n')} SELECT count(*)::int AS n FROM n`;
    return (await this.tx.rows<{ n: number }>(sql, params))[0].n;
  }

  /** alert.created / resolved / acknowledged / flapping of these alerts (each with its own severity); the deliveries written. */
  async alerts(event: AlertNotificationEvent, alertIds: readonly number[]): Promise<number> {
    if (alertIds.length === 0) return 0;
    return this.write(event, `SELECT x0.id AS alert_id, x0.agent_id FROM alerts x0 WHERE x0.id = ANY($1::int[])`, [alertIds]);
  }

  /** An event of these agents (agent.* and enrollment.completed). */
  async agents(event: AgentNotificationEvent, agentIds: readonly number[]): Promise<number> {
    if (agentIds.length === 0) return 0;
    const sql = `WITH ${outboxCtes('n', event, `SELECT unnest($1::int[]) AS agent_id`, this.config.notifyMaxPerAgentPerHour)} SELECT count(*)::int AS n FROM n`;
    return (await this.tx.rows<{ n: number }>(sql, [agentIds]))[0].n;
  }

  /** task.run of these runs (runs that did not succeed only: the caller decides). */
  async failedRuns(runIds: readonly number[]): Promise<number> {
    if (runIds.length === 0) return 0;
    return this.write('task.run', `SELECT r0.id AS run_id, r0.agent_id FROM task_runs r0 WHERE r0.id = ANY($1::int[])`, [runIds]);
  }
}

/** The outbox, for every module that causes notifications (alerts, presence, tasks, registration). */
@Global()
@Module({ providers: [NotificationOutbox], exports: [NotificationOutbox] })
export class NotificationOutboxModule {}
