import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { NotificationChannelEntity } from './notification-channel.entity';

/**
 * What one agent has cost one channel in the current hour (docs/notifications.md, "At most so many per agent"):
 * the notifications of the agent for the channel since `window_start` (a UTC hour), sent or not. Past
 * RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR the rest are not written; they are counted in the one notifications.suppressed
 * delivery of the window, whose id is `summary_id`, due at the end of the hour. Written by the outbox's statement
 * (apps/api/src/rmm/alerting/notifications/notification-outbox.ts), under its row lock.
 */
@Entity({ name: 'notification_budgets' })
@Index('IDX_notification_budgets_agent', ['agentId'])
export class NotificationBudgetEntity {
  @PrimaryColumn({ name: 'channel_id', type: 'integer', primaryKeyConstraintName: 'PK_notification_budgets' })
  channelId: number;

  @ManyToOne(() => NotificationChannelEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_id', foreignKeyConstraintName: 'FK_notification_budgets_channel' })
  channel?: NotificationChannelEntity;

  @PrimaryColumn({ name: 'agent_id', type: 'integer', primaryKeyConstraintName: 'PK_notification_budgets' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'FK_notification_budgets_agent' })
  agent?: AgentEntity;

  @Column({ name: 'window_start', type: 'timestamptz' })
  windowStart: Date;

  /** Notifications of the window, sent and suppressed. */
  @Column({ type: 'integer', default: 0 })
  events: number;

  /** The id of the window's notifications.suppressed delivery (written once the first is suppressed). */
  @Column({ name: 'summary_id', type: 'uuid' })
  summaryId: string;
}
