import {
  Check,
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
import { ALERT_SEVERITIES, AlertSeverity, CHECK_STATUSES, CHECK_TYPES, CheckStatus, CheckType, sqlList } from './enums';
import { PolicyCheckEntity } from './policy.entity';
import { ScriptEntity } from './script.entity';

/** A monitoring check on one agent; `settings` holds the per-type parameters. */
@Entity({ name: 'checks' })
@Check('CHK_checks_check_type', `"check_type" IN (${sqlList(CHECK_TYPES)})`)
@Check('CHK_checks_status', `"status" IN (${sqlList(CHECK_STATUSES)})`)
@Check('CHK_checks_fails_b4_alert', `"fails_b4_alert" >= 1`)
@Check('CHK_checks_run_interval', `"run_interval" BETWEEN 5 AND 86400`)
@Check('CHK_checks_severity', `"severity" IN (${sqlList(ALERT_SEVERITIES)})`)
@Index('IDX_checks_agent', ['agentId'])
@Index('UQ_checks_agent_policy_check', ['agentId', 'policyCheckId'], { unique: true, where: '"policy_check_id" IS NOT NULL' })
@Index('IDX_checks_policy_check', ['policyCheckId'], { where: '"policy_check_id" IS NOT NULL' })
export class CheckEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'agent_id', type: 'integer' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id' })
  agent?: AgentEntity;

  @Column({ name: 'check_type', type: 'text' })
  checkType: CheckType;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', default: 'pending' })
  status: CheckStatus;

  @Column({ name: 'more_info', type: 'text', nullable: true })
  moreInfo: string | null;

  @Column({ name: 'last_run', type: 'timestamptz', nullable: true })
  lastRun: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: Record<string, unknown>;

  /** For script checks: the script to run. */
  @Column({ name: 'script_id', type: 'integer', nullable: true })
  scriptId: number | null;

  @ManyToOne(() => ScriptEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'script_id' })
  script?: ScriptEntity | null;

  /** Consecutive failures needed before an alert is raised. */
  @Column({ name: 'fails_b4_alert', type: 'integer', default: 1 })
  failsB4Alert: number;

  @Column({ name: 'fail_count', type: 'integer', default: 0 })
  failCount: number;

  /** Seconds between two runs on the agent (5 to 86400). */
  @Column({ name: 'run_interval', type: 'integer', default: 120 })
  runInterval: number;

  /** The severity of the check_failure alert this check opens. */
  @Column({ type: 'text', default: 'warning' })
  severity: AlertSeverity;

  /** A disabled check keeps its settings and history but is not sent to its agent (not run). */
  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /**
   * Null: the agent's own check (its definition is this row). Else this row is the agent's state of a policy's
   * check (the definition is the policy_checks row; settings, interval and thresholds here are its effective values
   * on this agent, overrides applied, written by the policy engine; docs/policies.md).
   */
  @Column({ name: 'policy_check_id', type: 'integer', nullable: true })
  policyCheckId: number | null;

  @ManyToOne(() => PolicyCheckEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_check_id', foreignKeyConstraintName: 'FK_checks_policy_check' })
  policyCheck?: PolicyCheckEntity | null;

  /** An own check that lost the merge to an enforced policy's check of the same key: kept, not sent to the agent. */
  @Column({ name: 'shadowed_by_policy_check_id', type: 'integer', nullable: true })
  shadowedByPolicyCheckId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
