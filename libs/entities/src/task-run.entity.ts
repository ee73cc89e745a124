import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { sqlList } from './enums';
import { TaskEntity } from './task.entity';

/**
 * running → succeeded (return code 0) | failed (non-zero, or the agent refused) | timed_out | agent_offline
 * (not connected at the due time) | interrupted (the agent or the server went mid-run). A task with
 * queue_if_offline whose agent was not connected: running → queued (its script run waits in the agent's queue) →
 * the outcome of that script run (agent_offline when it expired, failed when it was cancelled).
 */
export const TASK_RUN_STATUSES = ['running', 'succeeded', 'failed', 'timed_out', 'agent_offline', 'interrupted', 'queued', 'skipped'] as const;
export type TaskRunStatus = (typeof TASK_RUN_STATUSES)[number];

/**
 * One firing of a task, for one due time: UQ_task_runs_due makes "exactly once per due time" a fact of the
 * database, whatever the number of instances. stdout/stderr are capped like a script run's.
 */
@Entity({ name: 'task_runs' })
@Check('CHK_task_runs_status', `"status" IN (${sqlList(TASK_RUN_STATUSES)})`)
@Unique('UQ_task_runs_due', ['taskId', 'dueAt'])
@Index('IDX_task_runs_task', ['taskId', 'id'])
@Index('IDX_task_runs_queued', ['scriptRunId'], { where: `"status" = 'queued'` })
export class TaskRunEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'task_id', type: 'integer' })
  taskId: number;

  @ManyToOne(() => TaskEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id' })
  task?: TaskEntity;

  @Column({ name: 'agent_id', type: 'integer' })
  agentId: number;

  /** The script run that carried it (its live output is the events WebSocket's script.output), if one was sent. */
  @Column({ name: 'script_run_id', type: 'integer', nullable: true })
  scriptRunId: number | null;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @Column({ type: 'text', default: 'running' })
  status: TaskRunStatus;

  @Column({ type: 'integer', nullable: true })
  retcode: number | null;

  @Column({ type: 'text', default: '' })
  stdout: string;

  @Column({ type: 'text', default: '' })
  stderr: string;

  @Column({ name: 'stdout_truncated', type: 'boolean', default: false })
  stdoutTruncated: boolean;

  @Column({ name: 'stderr_truncated', type: 'boolean', default: false })
  stderrTruncated: boolean;

  /** Why the run did not finish as the script ended it (refused, invalid answer, agent gone, no answer); null once finished. */
  @Column({ type: 'text', nullable: true })
  error: string | null;
}
