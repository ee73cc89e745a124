import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ENROLLMENT_STATUSES, EnrollmentStatus, sqlList } from './enums';
import { UserEntity } from './user.entity';

/** Audit of enrollments: one row per deployment issued by the enrollment function. */
@Entity({ name: 'enrollment_log' })
@Check('CHK_enrollment_log_status', `"status" IN (${sqlList(ENROLLMENT_STATUSES)})`)
@Index('IDX_enrollment_log_user_requested', ['userId', 'requestedAt'])
export class EnrollmentLogEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index('IDX_enrollment_log_deployment_uuid')
  @Column({ name: 'deployment_uuid', type: 'text' })
  deploymentUuid: string;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ name: 'site_id', type: 'integer' })
  siteId: number;

  @Column({ type: 'text', nullable: true })
  hostname: string | null;

  @Column({ type: 'text', nullable: true })
  platform: string | null;

  @Column({ name: 'requested_at', type: 'timestamptz', default: () => 'now()' })
  requestedAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ name: 'agent_id', type: 'integer', nullable: true })
  agentId: number | null;

  @Column({ type: 'text', default: 'pending' })
  status: EnrollmentStatus;
}
