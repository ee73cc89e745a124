import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ALERT_SEVERITIES, AlertSeverity, NOTIFICATION_DELIVERY_STATUSES, NotificationDeliveryStatus, sqlList } from './enums';
import { NotificationChannelEntity } from './notification-channel.entity';

/**
 * The outbox (docs/notifications.md, docs/decisions.md "Notifications: an outbox"): one row per (channel, event
 * occurrence), inserted in the transaction of the change that caused it. Its id is the X-RMM-Delivery of every
 * attempt. A worker on any instance claims due rows (`status` pending, `next_attempt_at` past, no live lease in
 * `locked_until`) with FOR UPDATE SKIP LOCKED. `payload` is the event as it was when it happened (agent, alert,
 * run), so a retry a day later sends the same body.
 */
@Entity({ name: 'notification_deliveries' })
@Check('CHK_notification_deliveries_status', `"status" IN (${sqlList(NOTIFICATION_DELIVERY_STATUSES)})`)
@Check('CHK_notification_deliveries_severity', `"severity" IN (${sqlList(ALERT_SEVERITIES)})`)
@Index('IDX_notification_deliveries_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('IDX_notification_deliveries_channel', ['channelId', 'createdAt'])
// The claim (NotificationsRepository.claim): a channel's oldest due rows, and its leased ones (in flight), each read
// through an index of its own, whatever the size of the rest of the outbox.
@Index('IDX_notification_deliveries_channel_due', ['channelId', 'nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('IDX_notification_deliveries_leased', ['channelId', 'lockedUntil'], { where: `"status" = 'pending' AND "locked_until" IS NOT NULL` })
export class NotificationDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'channel_id', type: 'integer' })
  channelId: number;

  @ManyToOne(() => NotificationChannelEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_id' })
  channel?: NotificationChannelEntity;

  /** A NOTIFICATION_EVENTS name, or notification.test. */
  @Column({ type: 'text' })
  event: string;

  @Column({ type: 'text' })
  severity: AlertSeverity;

  /** The event's body without id and ts: {event, agent, alert?, run?}. */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'text', default: 'pending' })
  status: NotificationDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  /** The lease of the instance delivering it now; past it, another instance may claim the row again. */
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @Column({ name: 'first_attempt_at', type: 'timestamptz', nullable: true })
  firstAttemptAt: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;
}
