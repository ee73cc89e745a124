import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ENROLLMENT_STATUSES, EnrollmentStatus, sqlList } from './enums';
import { UserEntity } from './user.entity';

/**
 * The longest text each column takes (characters), enforced by CHECK constraints so that nothing longer
 * reaches the table, even through the service role. Values matched with LIKE must stay short: PostgreSQL
 * does not check for cancellation inside one match (docs/decisions.md, "Limits").
 */
export const ENROLLMENT_LOG_LIMITS = { hostname: 255, platform: 32, deploymentUuid: 64 } as const;

/** Audit of enrollments: one row per deployment issued by the enrollment function. */
@Entity({ name: 'enrollment_log' })
@Check('CHK_enrollment_log_status', `"status" IN (${sqlList(ENROLLMENT_STATUSES)})`)
@Check('CHK_enrollment_log_hostname_length', `char_length("hostname") <= ${ENROLLMENT_LOG_LIMITS.hostname}`)
@Check('CHK_enrollment_log_platform_length', `char_length("platform") <= ${ENROLLMENT_LOG_LIMITS.platform}`)
@Check('CHK_enrollment_log_deployment_uuid_length', `char_length("deployment_uuid") <= ${ENROLLMENT_LOG_LIMITS.deploymentUuid}`)
@Index('IDX_enrollment_log_user_requested', ['userId', 'requestedAt'])
export class EnrollmentLogEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  // No foreign key: the rows are the enrollment audit trail and outlive the user (a trigger checks user_id on write).
  @ManyToOne(() => UserEntity, { createForeignKeyConstraints: false })
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
