import type { Platform } from '@app/entities';
import type { AlertDto } from '../../common/resources/alert.dto';
import { ALERT_SQL } from '../../common/resources/alert.dto';
import { SqlFields, sqlIso, sqlJsonObject } from '../../common/resources/sql-json';

/*
 * What a notification carries (docs/notifications.md, "Payload"): the event, the agent it is about, and the alert or
 * the task run. Each shape is declared once here and written two ways from the same field list: the outbox's SQL
 * (notification-outbox.ts builds the payload in the statement that makes the change) and these types, which every
 * sender and the test send read.
 */

/** A client or site as a notification names it. */
export interface NamedRef {
  id: number;
  name: string;
}

/** The agent as a notification carries it: its id as the API writes it, its name, platform, client and site. */
export interface NotificationAgent {
  id: string;
  hostname: string;
  plat: Platform;
  client: NamedRef | null;
  site: NamedRef | null;
}

/** A task run that did not succeed, as a notification carries it. */
export interface NotificationRun {
  id: number;
  task: number;
  task_name: string;
  status: string;
  retcode: number | null;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

/** A notification's payload as the outbox stores it. */
export interface NotificationPayload {
  event: string;
  agent: NotificationAgent | null;
  /** alert.*: the alert as the API answers it (toAlertDto), at the time of the event. */
  alert?: AlertDto;
  /** task.run. */
  run?: NotificationRun;
  /** notification.test. */
  message?: string;
  /** notifications.suppressed: what the channel was not sent about the agent in one hour (docs/notifications.md). */
  suppressed?: NotificationSuppressed;
}

/** The summary of one (channel, agent, hour) past RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR. */
export interface NotificationSuppressed {
  /** Notifications not sent. */
  count: number;
  /** Their events, each once. */
  events: string[];
  /** RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR when it began. */
  limit: number;
  /** The hour (UTC): from, until. */
  from: string;
  until: string;
}

/** NotificationAgent in SQL, over agents `a`, clients `cl`, sites `si` (LEFT JOINed). */
const AGENT_SQL: SqlFields<NotificationAgent> = {
  id: 'a.id::text',
  hostname: 'a.hostname',
  plat: 'a.plat',
  client: `CASE WHEN cl.id IS NULL THEN NULL ELSE jsonb_build_object('id', cl.id, 'name', cl.name) END`,
  site: `CASE WHEN si.id IS NULL THEN NULL ELSE jsonb_build_object('id', si.id, 'name', si.name) END`,
};

/** NotificationRun in SQL, over task_runs `r` and tasks `t`. */
const RUN_SQL: SqlFields<NotificationRun> = {
  id: 'r.id',
  task: 'r.task_id',
  task_name: 't.name',
  status: 'r.status',
  retcode: 'r.retcode',
  error: 'r.error',
  started_at: sqlIso('r.started_at'),
  finished_at: sqlIso('r.finished_at'),
};

export const AGENT_JSON_SQL = sqlJsonObject(AGENT_SQL);
export const ALERT_JSON_SQL = sqlJsonObject(ALERT_SQL);
export const RUN_JSON_SQL = sqlJsonObject(RUN_SQL);

/** The test send's payload: an agent that does not exist, so nobody mistakes it for a real event. */
export const TEST_PAYLOAD: NotificationPayload = {
  event: 'notification.test',
  agent: { id: '0', hostname: 'rmm-test-agent', plat: 'linux', client: null, site: null },
  message: 'A test notification from the RMM server: this channel works.',
};
