import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AlertEntity } from './alert.entity';

/**
 * A halted rollout (docs/agent-binaries.md, "Rollouts halt"): more than RMM_AGENT_UPDATE_HALT_FAILURES updates to
 * `version` failed within an hour, so it is offered to no agent until an admin resumes it
 * (POST /api/v3/agents/updates/resume/). One row per version: halted while `resumed_at` is null; a resume keeps the
 * row (who and when) and a later halt of the same version writes it again. The INSERT that halts decides, so one
 * halt opens one `agent_update_halted` alert, whichever instance saw the failure.
 */
@Entity({ name: 'agent_update_halts' })
export class AgentUpdateHaltEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_agent_update_halts' })
  version: string;

  @Column({ name: 'halted_at', type: 'timestamptz' })
  haltedAt: Date;

  /** Why, in words: how many failed within the hour, and the last failure's error. */
  @Column({ type: 'text' })
  reason: string;

  /** The agent_update_halted alert it opened (resolved by the resume). */
  @Column({ name: 'alert_id', type: 'integer', nullable: true })
  alertId: number | null;

  @ManyToOne(() => AlertEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'alert_id' })
  alert?: AlertEntity | null;

  @Column({ name: 'resumed_at', type: 'timestamptz', nullable: true })
  resumedAt: Date | null;

  /** Who resumed it (the key's or operator's name). */
  @Column({ name: 'resumed_by', type: 'text', nullable: true })
  resumedBy: string | null;
}
