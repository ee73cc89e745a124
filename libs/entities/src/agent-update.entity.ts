import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { AGENT_UPDATE_STATUSES, AgentUpdateStatus, sqlList } from './enums';

/**
 * An agent's latest self-update (docs/agent-binaries.md, "Staged rollout"): one row per agent, replaced when the
 * server offers a newer version. `pending` waits for one of RMM_AGENT_UPDATE_CONCURRENCY slots, `running` was
 * offered (update.available sent), `done` the agent came back on `to_version`, `failed` it refused the binary,
 * rolled back, or did not come back in time (`error` says which); a failed version is not offered to it again.
 */
@Entity({ name: 'agent_updates' })
@Check('CHK_agent_updates_status', `"status" IN (${sqlList(AGENT_UPDATE_STATUSES)})`)
@Index('IDX_agent_updates_status', ['status'])
export class AgentUpdateEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'integer' })
  agentId: number;

  @OneToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id' })
  agent?: AgentEntity;

  @Column({ name: 'from_version', type: 'text' })
  fromVersion: string;

  @Column({ name: 'to_version', type: 'text' })
  toVersion: string;

  /** The binary target offered (linux-amd64, …). */
  @Column({ type: 'text' })
  target: string;

  @Column({ type: 'text' })
  status: AgentUpdateStatus;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  /**
   * A pending update is not offered before this time: one released because its offer went unanswered
   * (RMM_AGENT_UPDATE_OFFER_SECONDS) or its agent disconnected is retried later, not at the next round.
   */
  @Column({ name: 'not_before', type: 'timestamptz', nullable: true })
  notBefore: Date | null;
}
