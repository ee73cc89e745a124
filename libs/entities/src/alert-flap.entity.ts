import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { AlertEntity } from './alert.entity';
import { AlertType } from './enums';

/**
 * The flap history of one alert subject (a check's check_failure, a task's task_failure: the subject of
 * UQ_alerts_open_*), docs/notifications.md "Flapping": when its alerts were opened in the last 30 minutes, and while
 * it is flapping, the one alert kept open for it and the last state its cause reported (`cleared`) with when that
 * last changed. Written in the transaction that opens or resolves the subject's alert; the job `alerts.flapping`
 * ends a flapping that has been stable for 30 minutes and deletes histories with nothing in the window.
 */
@Entity({ name: 'alert_flaps' })
@Index('IDX_alert_flaps_agent', ['agentId'])
export class AlertFlapEntity {
  @PrimaryColumn({ name: 'alert_type', type: 'text', primaryKeyConstraintName: 'PK_alert_flaps' })
  alertType: AlertType;

  /** The check's, task's or agent's id, per alert_type. */
  @PrimaryColumn({ name: 'subject_id', type: 'integer', primaryKeyConstraintName: 'PK_alert_flaps' })
  subjectId: number;

  @Column({ name: 'agent_id', type: 'integer' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'FK_alert_flaps_agent' })
  agent?: AgentEntity;

  /** When its alerts were opened, the last 30 minutes' (at most a few more than RMM_ALERT_FLAP_LIMIT). */
  @Column({ type: 'timestamptz', array: true, default: () => "'{}'" })
  opens: Date[];

  /** Since when it is flapping; null when it is not. */
  @Column({ name: 'flapping_since', type: 'timestamptz', nullable: true })
  flappingSince: Date | null;

  /** The alert kept open while it flaps. */
  @Column({ name: 'alert_id', type: 'integer', nullable: true })
  alertId: number | null;

  @ManyToOne(() => AlertEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'alert_id', foreignKeyConstraintName: 'FK_alert_flaps_alert' })
  alert?: AlertEntity | null;

  /** While flapping: its cause went away the last time it reported (the alert would have been resolved). */
  @Column({ type: 'boolean', default: false })
  cleared: boolean;

  /** While flapping: when its cause last changed (failing ↔ cleared); stable for 30 minutes from then ends it. */
  @Column({ name: 'changed_at', type: 'timestamptz', nullable: true })
  changedAt: Date | null;
}
