import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { sqlList } from './enums';

export const SCRIPT_OUTPUT_MODES = ['wait', 'forget', 'collector'] as const;
export type ScriptOutputMode = (typeof SCRIPT_OUTPUT_MODES)[number];

/**
 * running → finished | failed | timed_out | interrupted. A run queued for an offline agent (runscript with
 * `queue: true`, or a task with `queue_if_offline`) starts as queued: queued → running → …, or queued → cancelled
 * (an operator's DELETE) | expired (its expires_at passed first); a cancelled or expired run was never sent.
 */
export const SCRIPT_RUN_STATUSES = ['queued', 'running', 'finished', 'failed', 'timed_out', 'interrupted', 'cancelled', 'expired'] as const;
export type ScriptRunStatus = (typeof SCRIPT_RUN_STATUSES)[number];

/**
 * One run of a script on an agent (runscript): what was asked, by which key, and what the agent answered.
 * stdout and stderr are kept up to a cap each (the *_truncated flags say when they were cut). The script's
 * name and shell are copied, so a run stays readable after its script changes or goes.
 */
@Entity({ name: 'script_runs' })
@Check('CHK_script_runs_output', `"output" IN (${sqlList(SCRIPT_OUTPUT_MODES)})`)
@Check('CHK_script_runs_status', `"status" IN (${sqlList(SCRIPT_RUN_STATUSES)})`)
@Index('IDX_script_runs_agent', ['agentId', 'id'])
@Index('IDX_script_runs_open', ['agentId', 'id'], { where: `"status" IN ('queued', 'running')` })
export class ScriptRunEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'agent_id', type: 'integer' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id' })
  agent?: AgentEntity;

  /** The script's id when the run was asked (no foreign key: the run outlives the script). */
  @Column({ name: 'script_id', type: 'integer', nullable: true })
  scriptId: number | null;

  @Column({ name: 'script_name', type: 'text' })
  scriptName: string;

  @Column({ type: 'text' })
  shell: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  args: string[];

  @Column({ type: 'text' })
  output: ScriptOutputMode;

  @Column({ name: 'timeout_seconds', type: 'integer' })
  timeoutSeconds: number;

  /** The API key that asked (its id; the key may be gone since). */
  @Column({ name: 'requested_by_key_id', type: 'integer', nullable: true })
  requestedByKeyId: number | null;

  @Column({ type: 'text', default: 'queued' })
  status: ScriptRunStatus;

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

  @Column({ name: 'timed_out', type: 'boolean', default: false })
  timedOut: boolean;

  /** Why the run did not finish as the script ended it (refused, invalid answer, agent gone, no answer); null once finished. */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** Seconds the script ran, as the agent measured it. */
  @Column({ name: 'execution_time', type: 'double precision', nullable: true })
  executionTime: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  /**
   * A queued run only: the script's body as it was when the run was queued (what the operator asked for is
   * what runs, even if the script is edited or deleted meanwhile); null for a run sent at once.
   */
  @Column({ type: 'text', nullable: true })
  body: string | null;

  /** A queued run only: when it stops waiting for its agent (then `expired`, never sent); null for a run sent at once. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;
}
