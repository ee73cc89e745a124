import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ALERT_SEVERITIES, AlertSeverity, NOTIFICATION_EVENTS, NOTIFICATION_TYPES, NotificationEvent, NotificationType, sqlList } from './enums';

/**
 * Where operators are told about what happens (docs/notifications.md): a webhook, Slack or Teams incoming webhook
 * (`url`), or e-mail addresses (`recipients`). `secret` signs webhook bodies and `headers` are added to every
 * request; both are write-only in the API. `clients` empty: every client. A receiver answering 410 disables the
 * channel (`enabled` false, `disabled_reason` says why).
 */
@Entity({ name: 'notification_channels' })
@Check('CHK_notification_channels_type', `"type" IN (${sqlList(NOTIFICATION_TYPES)})`)
@Check('CHK_notification_channels_min_severity', `"min_severity" IN (${sqlList(ALERT_SEVERITIES)})`)
@Check('CHK_notification_channels_events', `"events" <@ ARRAY[${sqlList(NOTIFICATION_EVENTS)}]::text[] AND cardinality("events") > 0`)
@Check('CHK_notification_channels_target', `("type" = 'email') = ("url" IS NULL) AND ("type" = 'email') = (cardinality("recipients") > 0)`)
export class NotificationChannelEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  type: NotificationType;

  /** webhook, slack, teams: the http(s) URL POSTed to. */
  @Column({ type: 'text', nullable: true })
  url: string | null;

  /** email: the addresses written to. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  recipients: string[];

  /** HMAC-SHA256 key of X-RMM-Signature (webhook); never answered. */
  @Column({ type: 'text', nullable: true })
  secret: string | null;

  /** Extra request headers (name → value); the values are never answered. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: Record<string, string>;

  @Column({ name: 'min_severity', type: 'text' })
  minSeverity: AlertSeverity;

  @Column({ type: 'text', array: true })
  events: NotificationEvent[];

  /** Only agents of these clients; empty: every client. */
  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  clients: number[];

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  /** Since when every attempt has failed (the first failure after a success); null while it delivers. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  /** Why the last failed attempt failed (its delivery's last_error); null after a success. */
  @Column({ name: 'last_failure', type: 'text', nullable: true })
  lastFailure: string | null;

  /**
   * When the circuit opened (failing for RMM_NOTIFY_CIRCUIT_MINUTES); null: closed. While open, one probe delivery
   * at a time, no earlier than circuit_probe_at; the next success closes it.
   */
  @Column({ name: 'circuit_opened_at', type: 'timestamptz', nullable: true })
  circuitOpenedAt: Date | null;

  /** While the circuit is open: the earliest time of the next probe. */
  @Column({ name: 'circuit_probe_at', type: 'timestamptz', nullable: true })
  circuitProbeAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
