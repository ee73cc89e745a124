import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  ALERT_SEVERITIES,
  AlertSeverity,
  NOTIFICATION_DELIVERY_STATUSES,
  NOTIFICATION_EVENTS,
  NOTIFICATION_TYPES,
  NotificationChannelEntity,
  NotificationDeliveryEntity,
  NotificationDeliveryStatus,
  NotificationEvent,
  NotificationType,
} from '@app/entities';
import { PG_INT_MAX } from '../../../common/values';
import { IsOptionalNotNull } from '../../common/optional-not-null';

/** The most recipients, events, clients and headers one channel may have. */
export const MAX_RECIPIENTS = 20;
export const MAX_CLIENTS = 1_000;
export const MAX_HEADERS = 20;

const URL_DOC = 'webhook, slack, teams: the http(s) URL POSTed to (Slack and Teams: the incoming-webhook URL). Private, loopback and link-local addresses are refused unless RMM_NOTIFY_ALLOW_PRIVATE=true';
const TO_DOC = `email: one address or a list of 1-${MAX_RECIPIENTS}`;
const SECRET_DOC = 'Signs every webhook body: X-RMM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">. Write-only (answers say has_secret)';
const HEADERS_DOC = `Extra request headers (name → value, at most ${MAX_HEADERS}), e.g. {"Authorization": "Bearer …"}. Not Host, Content-Length, Content-Type, User-Agent, hop-by-hop headers or X-RMM-*. Write-only: answers list header_names`;
const EVENTS_DOC = 'The events this channel is sent (task.run: only runs that did not succeed). An event whose severity is below min_severity can never be sent: 400 naming it (agent.online listed with agent.offline is sent whatever min_severity, after each offline it recovers)';
const SEVERITY_DOC = 'The least severity sent: an alert has its own; agent.offline warning, agent.overdue error, agent.online info, a failed task.run error, enrollment.completed info';
const CLIENTS_DOC = 'Only agents of these clients (client ids); empty or absent: every client. A client-limited key must name clients, all its own';

const toList = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? [value] : value);

export class CreateNotificationDto {
  @ApiProperty({ maxLength: 200, example: 'On-call webhook' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: NOTIFICATION_TYPES })
  @IsIn(NOTIFICATION_TYPES, { message: `type must be one of ${NOTIFICATION_TYPES.join(', ')}` })
  type: NotificationType;

  @ApiPropertyOptional({ maxLength: 2048, description: URL_DOC, example: 'https://hooks.example.com/rmm' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ type: [String], description: TO_DOC, example: ['oncall@example.com'] })
  @IsOptionalNotNull()
  @Transform(toList)
  @IsArray({ message: 'to must be an e-mail address or a list of them' })
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_RECIPIENTS)
  @IsString({ each: true })
  @MaxLength(254, { each: true })
  to?: string[];

  @ApiPropertyOptional({ maxLength: 512, writeOnly: true, description: SECRET_DOC })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  secret?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, writeOnly: true, description: HEADERS_DOC })
  @IsOptionalNotNull()
  @IsObject()
  headers?: Record<string, string>;

  @ApiProperty({ enum: ALERT_SEVERITIES, description: SEVERITY_DOC })
  @IsIn(ALERT_SEVERITIES, { message: `min_severity must be one of ${ALERT_SEVERITIES.join(', ')}` })
  min_severity: AlertSeverity;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...NOTIFICATION_EVENTS] }, description: EVENTS_DOC, example: ['alert.created', 'agent.overdue'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(NOTIFICATION_EVENTS.length)
  @IsIn(NOTIFICATION_EVENTS, { each: true, message: `each of events must be one of ${NOTIFICATION_EVENTS.join(', ')}` })
  events: NotificationEvent[];

  @ApiPropertyOptional({ type: [Number], description: CLIENTS_DOC })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_CLIENTS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(PG_INT_MAX, { each: true })
  clients?: number[];
}

/** PATCH: any field but type (at least one); secret and headers null remove them; enabled true turns a disabled channel on again. */
export class PatchNotificationDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 2048, description: URL_DOC })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ type: [String], description: TO_DOC })
  @IsOptionalNotNull()
  @Transform(toList)
  @IsArray({ message: 'to must be an e-mail address or a list of them' })
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_RECIPIENTS)
  @IsString({ each: true })
  @MaxLength(254, { each: true })
  to?: string[];

  @ApiPropertyOptional({ maxLength: 512, nullable: true, writeOnly: true, description: `${SECRET_DOC}; null removes it` })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  secret?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, nullable: true, writeOnly: true, description: `${HEADERS_DOC}; replaces them all; null or {} removes them` })
  @IsOptional()
  @IsObject()
  headers?: Record<string, string> | null;

  @ApiPropertyOptional({ enum: ALERT_SEVERITIES })
  @IsOptionalNotNull()
  @IsIn(ALERT_SEVERITIES, { message: `min_severity must be one of ${ALERT_SEVERITIES.join(', ')}` })
  min_severity?: AlertSeverity;

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', enum: [...NOTIFICATION_EVENTS] } })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(NOTIFICATION_EVENTS.length)
  @IsIn(NOTIFICATION_EVENTS, { each: true, message: `each of events must be one of ${NOTIFICATION_EVENTS.join(', ')}` })
  events?: NotificationEvent[];

  @ApiPropertyOptional({ type: [Number], description: CLIENTS_DOC })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_CLIENTS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(PG_INT_MAX, { each: true })
  clients?: number[];

  @ApiPropertyOptional({ description: 'false stops the channel; true turns it on again (after a 410 disabled it)' })
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

export class NotificationDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: NOTIFICATION_TYPES }) type: NotificationType;
  @ApiProperty({ nullable: true, type: String, description: 'webhook, slack, teams' }) url: string | null;
  @ApiProperty({ type: [String], description: 'email: the recipients ([] for other types)' }) to: string[];
  @ApiProperty({ description: 'Whether bodies are signed (the secret itself is never answered)' }) has_secret: boolean;
  @ApiProperty({ type: [String], description: 'The names of the extra headers (their values are never answered)' }) header_names: string[];
  @ApiProperty({ enum: ALERT_SEVERITIES }) min_severity: AlertSeverity;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...NOTIFICATION_EVENTS] } }) events: NotificationEvent[];
  @ApiProperty({ type: [Number], description: '[]: every client' }) clients: number[];
  @ApiProperty() enabled: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the server disabled it (a 410 from the receiver)' }) disabled_reason: string | null;
  @ApiProperty({
    description:
      'The circuit breaker (docs/notifications.md): true when every attempt has failed for RMM_NOTIFY_CIRCUIT_MINUTES; its deliveries then wait, one probe at a time is sent every fifth of that time, and the next success closes it',
  })
  circuit_open: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the circuit is open: since when every attempt has failed, and the last failure; null when closed' })
  circuit_reason: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'When the circuit opened; null when closed' }) circuit_opened_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Since when every attempt has failed (the first failure after a success); null while it delivers' })
  failing_since: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The last failed attempt's reason, while failing_since is set" }) last_failure: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class DeliveryDto {
  @ApiProperty({ description: 'The X-RMM-Delivery of every attempt (and the body\'s id)' }) id: string;
  @ApiProperty({ description: 'The event, or notification.test' }) event: string;
  @ApiProperty({ enum: ALERT_SEVERITIES }) severity: AlertSeverity;
  @ApiProperty({ enum: NOTIFICATION_DELIVERY_STATUSES }) status: NotificationDeliveryStatus;
  @ApiProperty() attempts: number;
  @ApiProperty({ nullable: true, type: Number, description: 'HTTP status (webhook, slack, teams) or SMTP reply code (email) of the last attempt' }) last_status_code: number | null;
  @ApiProperty({ nullable: true, type: String }) last_error: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty({ nullable: true, type: String, description: 'pending: when the next attempt is due; null otherwise' }) next_attempt_at: string | null;
  @ApiProperty({ nullable: true, type: String }) delivered_at: string | null;
}

export class TestResultDto {
  @ApiProperty({ description: 'Whether the receiver took it (2xx, or accepted by the SMTP server)' }) delivered: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'The HTTP status or SMTP reply code; null when there was no answer' }) status_code: number | null;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ type: DeliveryDto }) delivery: DeliveryDto;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const toNotificationDto = (c: NotificationChannelEntity): NotificationDto => ({
  id: c.id,
  name: c.name,
  type: c.type,
  url: c.url,
  to: c.recipients,
  has_secret: c.secret !== null,
  header_names: Object.keys(c.headers ?? {}),
  min_severity: c.minSeverity,
  events: c.events,
  clients: c.clients,
  enabled: c.enabled,
  disabled_reason: c.disabledReason,
  circuit_open: c.circuitOpenedAt !== null,
  circuit_reason: c.circuitOpenedAt && c.failingSince ? `every attempt has failed since ${c.failingSince.toISOString()}; last: ${c.lastFailure ?? 'unknown'}` : null,
  circuit_opened_at: iso(c.circuitOpenedAt),
  failing_since: iso(c.failingSince),
  last_failure: c.lastFailure,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

export const toDeliveryDto = (d: NotificationDeliveryEntity): DeliveryDto => ({
  id: d.id,
  event: d.event,
  severity: d.severity,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  created_at: d.createdAt.toISOString(),
  next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
  delivered_at: iso(d.deliveredAt),
});
