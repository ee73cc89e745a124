import { ApiProperty } from '@nestjs/swagger';
import { ALERT_SEVERITIES, ALERT_TYPES, AlertEntity, AlertSeverity, AlertType } from '@app/entities';
import { iso } from '../../../common/values';
import { SqlFields, sqlIso } from './sql-json';

/*
 * The alert as every surface shows it: GET /api/v3/alerts/, the events WebSockets (alert.*), the event bus. In the
 * ground (rmm/common/resources) because the areas that raise alerts, relay them and list them all speak of it.
 */

/** The spec's Alert, plus who acknowledged or resolved it and when. */
export class AlertDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ALERT_TYPES }) alert_type: AlertType;
  @ApiProperty({ example: '42' }) agent: string;
  @ApiProperty({ enum: ALERT_SEVERITIES }) severity: AlertSeverity;
  @ApiProperty() message: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty() snoozed: boolean;
  @ApiProperty() resolved: boolean;
  @ApiProperty({ description: 'Seen (acknowledged), whether or not resolved' }) acknowledged: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) acknowledged_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Name of the API key that acknowledged it' }) acknowledged_by: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) resolved_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Name of the API key that resolved it' }) resolved_by: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'check id, for check_failure' }) check: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'task id, for task_failure' }) task: number | null;
  @ApiProperty({
    description:
      'Its subject opened and resolved more than RMM_ALERT_FLAP_LIMIT alerts in 30 minutes: it stays open, with no created or resolved notifications, until the subject has been stable for 30 minutes (docs/notifications.md, "Flapping")',
  })
  flapping: boolean;
}

/** The one mapper from a stored alert to the resource. */
export const toAlertDto = (a: AlertEntity): AlertDto => ({
  id: a.id,
  alert_type: a.alertType,
  agent: String(a.agentId),
  severity: a.severity,
  message: a.message,
  created_at: a.createdAt.toISOString(),
  snoozed: a.snoozed,
  resolved: a.resolved,
  acknowledged: a.acknowledged,
  acknowledged_at: iso(a.acknowledgedAt),
  acknowledged_by: a.acknowledgedBy,
  resolved_at: iso(a.resolvedAt),
  resolved_by: a.resolvedBy,
  check: a.checkId,
  task: a.taskId,
  flapping: a.flapping,
});

/**
 * The same resource in SQL, over an alerts row aliased `x` (the notification outbox: notification-outbox.ts). Field
 * for field what toAlertDto gives (test/medium/rmm/notifications.medium-spec.ts compares the two).
 */
export const ALERT_SQL: SqlFields<AlertDto> = {
  id: 'x.id',
  alert_type: 'x.alert_type',
  agent: 'x.agent_id::text',
  severity: 'x.severity',
  message: 'x.message',
  created_at: sqlIso('x.created_at'),
  snoozed: 'x.snoozed',
  resolved: 'x.resolved',
  acknowledged: 'x.acknowledged',
  acknowledged_at: sqlIso('x.acknowledged_at'),
  acknowledged_by: 'x.acknowledged_by',
  resolved_at: sqlIso('x.resolved_at'),
  resolved_by: 'x.resolved_by',
  check: 'x.check_id',
  task: 'x.task_id',
  flapping: 'x.flapping',
};
