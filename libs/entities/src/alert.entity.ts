import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { ALERT_SEVERITIES, ALERT_TYPES, AlertSeverity, AlertType, sqlList } from './enums';
import { CheckEntity } from './check.entity';
import { TaskEntity } from './task.entity';

@Entity({ name: 'alerts' })
@Check('CHK_alerts_alert_type', `"alert_type" IN (${sqlList(ALERT_TYPES)})`)
@Check('CHK_alerts_severity', `"severity" IN (${sqlList(ALERT_SEVERITIES)})`)
@Index('IDX_alerts_active', ['createdAt'], { where: 'NOT "resolved"' })
@Index('IDX_alerts_agent', ['agentId'])
// At most one open alert per subject: the database decides, so concurrent results never open two.
@Index('UQ_alerts_open_check', ['checkId'], { unique: true, where: `NOT "resolved" AND "alert_type" = 'check_failure'` })
@Index('UQ_alerts_open_task', ['taskId'], { unique: true, where: `NOT "resolved" AND "alert_type" = 'task_failure'` })
@Index('UQ_alerts_open_overdue', ['agentId'], { unique: true, where: `NOT "resolved" AND "alert_type" = 'agent_overdue'` })
@Index('UQ_alerts_open_enrollment_conflict', ['agentId'], { unique: true, where: `NOT "resolved" AND "alert_type" = 'enrollment_conflict'` })
@Index('UQ_alerts_open_agent_build_failed', ['agentId'], { unique: true, where: `NOT "resolved" AND "alert_type" = 'agent_build_failed'` })
export class AlertEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'alert_type', type: 'text' })
  alertType: AlertType;

  @Column({ name: 'agent_id', type: 'integer' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id' })
  agent?: AgentEntity;

  @Column({ name: 'check_id', type: 'integer', nullable: true })
  checkId: number | null;

  @ManyToOne(() => CheckEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'check_id' })
  check?: CheckEntity | null;

  @Column({ name: 'task_id', type: 'integer', nullable: true })
  taskId: number | null;

  @ManyToOne(() => TaskEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'task_id' })
  task?: TaskEntity | null;

  @Column({ type: 'text' })
  severity: AlertSeverity;

  @Column({ type: 'text' })
  message: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'boolean', default: false })
  snoozed: boolean;

  @Column({ name: 'snooze_until', type: 'timestamptz', nullable: true })
  snoozeUntil: Date | null;

  @Column({ type: 'boolean', default: false })
  acknowledged: boolean;

  @Column({ name: 'acknowledged_at', type: 'timestamptz', nullable: true })
  acknowledgedAt: Date | null;

  /** Name of the API key that acknowledged the alert. */
  @Column({ name: 'acknowledged_by', type: 'text', nullable: true })
  acknowledgedBy: string | null;

  @Column({ type: 'boolean', default: false })
  resolved: boolean;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;

  @Column({ name: 'resolved_by', type: 'text', nullable: true })
  resolvedBy: string | null;

  /**
   * Its subject opened and resolved more than RMM_ALERT_FLAP_LIMIT alerts in 30 minutes: it stays open, without
   * created or resolved notifications, until the subject has been stable for 30 minutes (alert_flaps).
   */
  @Column({ type: 'boolean', default: false })
  flapping: boolean;
}
