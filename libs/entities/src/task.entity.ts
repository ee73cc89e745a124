import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { AgentEntity } from './agent.entity';
import { PolicyTaskEntity } from './policy.entity';
import { ScriptEntity } from './script.entity';

/** A scheduled script run on one agent. */
@Entity({ name: 'tasks' })
@Index('IDX_tasks_agent', ['agentId'])
@Index('UQ_tasks_agent_policy_task', ['agentId', 'policyTaskId'], { unique: true, where: '"policy_task_id" IS NOT NULL' })
@Index('IDX_tasks_policy_task', ['policyTaskId'], { where: '"policy_task_id" IS NOT NULL' })
@Index('IDX_tasks_due', ['nextRunAt'], { where: '"enabled"' })
export class TaskEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'agent_id', type: 'integer' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id' })
  agent?: AgentEntity;

  @Column({ name: 'script_id', type: 'integer' })
  scriptId: number;

  @ManyToOne(() => ScriptEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'script_id' })
  script?: ScriptEntity;

  /** Cron expression (five fields). */
  @Column({ type: 'text' })
  schedule: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** A run whose agent is not connected at its due time is queued for the agent (a queued script run) instead of ending agent_offline. */
  @Column({ name: 'queue_if_offline', type: 'boolean', default: false })
  queueIfOffline: boolean;

  /** Arguments passed to the script (a policy's task may carry some; the agent's own tasks have none). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  args: string[];

  /** Seconds; null: the script's default timeout. */
  @Column({ type: 'integer', nullable: true })
  timeout: number | null;

  /** While the agent is in maintenance, a due run is recorded `skipped` instead of run. */
  @Column({ name: 'skip_in_maintenance', type: 'boolean', default: false })
  skipInMaintenance: boolean;

  /** Null: the agent's own task. Else the agent's state of a policy's task (definition in policy_tasks). */
  @Column({ name: 'policy_task_id', type: 'integer', nullable: true })
  policyTaskId: number | null;

  @ManyToOne(() => PolicyTaskEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_task_id', foreignKeyConstraintName: 'FK_tasks_policy_task' })
  policyTask?: PolicyTaskEntity | null;

  /** An own task that lost the merge to an enforced policy's task of the same key: kept, not scheduled. */
  @Column({ name: 'shadowed_by_policy_task_id', type: 'integer', nullable: true })
  shadowedByPolicyTaskId: number | null;

  @Column({ name: 'next_run_at', type: 'timestamptz', nullable: true })
  nextRunAt: Date | null;

  @Column({ name: 'last_run_at', type: 'timestamptz', nullable: true })
  lastRunAt: Date | null;

  @Column({ name: 'last_retcode', type: 'integer', nullable: true })
  lastRetcode: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
