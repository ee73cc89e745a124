import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { NotificationChannelEntity } from './notification-channel.entity';

/**
 * A page a channel was sent about an agent (agent.offline), whose recovery (the agent's next agent.online) the
 * channel is owed whatever its min_severity (RECOVERS in notification-events.ts; docs/notifications.md, "A recovery
 * follows its page"). Written by the statement that writes the page's delivery, deleted by the one that writes the
 * agent's agent.online (sent then to each channel with a row here): both in the outbox's SQL
 * (apps/api/src/rmm/alerting/notifications/notification-outbox.ts). Kept apart from the deliveries, which are
 * pruned after 30 days while an agent may stay offline longer.
 */
@Entity({ name: 'notification_pages' })
@Index('IDX_notification_pages_agent', ['agentId'])
export class NotificationPageEntity {
  @PrimaryColumn({ name: 'channel_id', type: 'integer', primaryKeyConstraintName: 'PK_notification_pages' })
  channelId: number;

  @ManyToOne(() => NotificationChannelEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_id', foreignKeyConstraintName: 'FK_notification_pages_channel' })
  channel?: NotificationChannelEntity;

  @PrimaryColumn({ name: 'agent_id', type: 'integer', primaryKeyConstraintName: 'PK_notification_pages' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'FK_notification_pages_agent' })
  agent?: AgentEntity;

  /** When the (first) page of this agent was written for the channel. */
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
