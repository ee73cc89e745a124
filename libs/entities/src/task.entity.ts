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
import { ScriptEntity } from './script.entity';

/** A scheduled script run on one agent. */
@Entity({ name: 'tasks' })
@Index('IDX_tasks_agent', ['agentId'])
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
