import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CheckEntity } from './check.entity';
import { CHECK_STATUSES, CheckStatus, sqlList } from './enums';

/**
 * One result of a check as its agent reported it: the check's bounded history (the newest few hundred per
 * check are kept; older ones are pruned as new ones arrive). Read newest first through IDX_check_results_check.
 */
@Entity({ name: 'check_results' })
@Check('CHK_check_results_status', `"status" IN (${sqlList(CHECK_STATUSES)})`)
@Index('IDX_check_results_check', ['checkId', 'id'])
export class CheckResultEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'check_id', type: 'integer' })
  checkId: number;

  @ManyToOne(() => CheckEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'check_id' })
  check?: CheckEntity;

  @Column({ type: 'text' })
  status: CheckStatus;

  @Column({ name: 'more_info', type: 'text', nullable: true })
  moreInfo: string | null;

  /** When the server received the result. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
