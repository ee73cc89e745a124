import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { JOB_MODES, JOB_STATES, JobMode, JobState, sqlList } from './enums';

/**
 * The figures of one periodic job on one instance (apps/api/src/jobs), as GET /api/v3/system/jobs/ shows them for
 * every instance: each instance writes its own rows in one statement every few seconds (JOB_REPORT_SECONDS) and
 * deletes them when it stops; the rows of an instance not heard from for a minute (killed) are deleted by the
 * cluster-once job `jobs.forget-gone-instances`. No foreign keys: nothing else refers to an instance.
 */
@Entity({ name: 'job_states' })
@Check('CHK_job_states_mode', `"mode" IN (${sqlList(JOB_MODES)})`)
@Check('CHK_job_states_state', `"state" IN (${sqlList(JOB_STATES)})`)
export class JobStateEntity {
  /** The instance's id (ThisInstance: a UUID made when its process started). */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_job_states' })
  instance: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_job_states' })
  name: string;

  @Column({ type: 'text' })
  mode: JobMode;

  @Column({ name: 'interval_seconds', type: 'double precision' })
  intervalSeconds: number;

  @Column({ type: 'text' })
  state: JobState;

  @Column({ type: 'bigint' })
  runs: string;

  @Column({ type: 'bigint' })
  failures: string;

  @Column({ name: 'last_started_at', type: 'timestamptz', nullable: true })
  lastStartedAt: Date | null;

  @Column({ name: 'last_duration_ms', type: 'double precision', nullable: true })
  lastDurationMs: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'next_run_at', type: 'timestamptz', nullable: true })
  nextRunAt: Date | null;

  /** When the instance last wrote the row (the database's clock). */
  @Column({ name: 'reported_at', type: 'timestamptz' })
  reportedAt: Date;
}
