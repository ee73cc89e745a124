import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { ALERT_SEVERITIES, AlertSeverity, CHECK_TYPES, CheckType, sqlList } from './enums';
import { ScriptEntity } from './script.entity';

/** Which agents a policy applies to (docs/policies.md, "Matching"): every kind given must match, any value within a kind. */
export interface PolicyTargets {
  clients?: number[];
  sites?: number[];
  tags_any?: string[];
  tags_all?: string[];
  platforms?: string[];
  monitoring_types?: string[];
}

/** Agents a policy never applies to, whatever its targets say (any exclusion wins). */
export interface PolicyExclusions {
  agents?: number[];
  clients?: number[];
  sites?: number[];
  tags?: string[];
}

/** A recurring maintenance window: starts at each time `schedule` (5-field cron, in `timezone`) names, lasts `duration_minutes`. */
export interface MaintenanceWindow {
  schedule: string;
  duration_minutes: number;
  timezone: string;
}

/**
 * An automation policy (issue #31, docs/policies.md): checks, tasks and maintenance windows for every agent its
 * targets match. Its items are rows of policy_checks and policy_tasks (the definitions); each matching agent's
 * state of an item is a row of checks / tasks carrying policy_check_id / policy_task_id.
 */
@Entity({ name: 'policies' })
@Check('CHK_policies_priority', `"priority" BETWEEN 1 AND 1000`)
@Index('UQ_policies_name', ['name'], { unique: true })
export class PolicyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** Its items win over the agent's own and cannot be overridden per agent. */
  @Column({ type: 'boolean', default: false })
  enforced: boolean;

  /** 1–1000, lower applies first (wins the merge). */
  @Column({ type: 'integer', default: 500 })
  priority: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  targets: PolicyTargets;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  exclude: PolicyExclusions;

  @Column({ name: 'maintenance_windows', type: 'jsonb', default: () => "'[]'" })
  maintenanceWindows: MaintenanceWindow[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/** One check of a policy: its definition, once; each matching agent's state is a row of `checks` (policy_check_id). */
@Entity({ name: 'policy_checks' })
@Check('CHK_policy_checks_check_type', `"check_type" IN (${sqlList(CHECK_TYPES)})`)
@Check('CHK_policy_checks_fails_b4_alert', `"fails_b4_alert" >= 1`)
@Check('CHK_policy_checks_run_interval', `"run_interval" BETWEEN 5 AND 86400`)
@Check('CHK_policy_checks_severity', `"severity" IN (${sqlList(ALERT_SEVERITIES)})`)
@Index('IDX_policy_checks_policy', ['policyId', 'position'])
export class PolicyCheckEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'policy_id', type: 'integer' })
  policyId: number;

  @ManyToOne(() => PolicyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_id', foreignKeyConstraintName: 'FK_policy_checks_policy' })
  policy?: PolicyEntity;

  /** Its place in the policy's `checks` list. */
  @Column({ type: 'integer' })
  position: number;

  /** The merge key (docs/policies.md, "The merge"): e.g. `diskspace:/`, `ping:10.0.0.1`, `cpuload`. */
  @Column({ type: 'text' })
  key: string;

  @Column({ name: 'check_type', type: 'text' })
  checkType: CheckType;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: Record<string, unknown>;

  @Column({ name: 'script_id', type: 'integer', nullable: true })
  scriptId: number | null;

  @ManyToOne(() => ScriptEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'script_id', foreignKeyConstraintName: 'FK_policy_checks_script' })
  script?: ScriptEntity | null;

  @Column({ name: 'run_interval', type: 'integer', default: 120 })
  runInterval: number;

  @Column({ name: 'fails_b4_alert', type: 'integer', default: 1 })
  failsB4Alert: number;

  @Column({ type: 'text', default: 'warning' })
  severity: AlertSeverity;
}

/** One task of a policy: its definition, once; each matching agent's state is a row of `tasks` (policy_task_id). */
@Entity({ name: 'policy_tasks' })
@Check('CHK_policy_tasks_timeout', `"timeout" IS NULL OR "timeout" BETWEEN 1 AND 86400`)
@Index('IDX_policy_tasks_policy', ['policyId', 'position'])
export class PolicyTaskEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'policy_id', type: 'integer' })
  policyId: number;

  @ManyToOne(() => PolicyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_id', foreignKeyConstraintName: 'FK_policy_tasks_policy' })
  policy?: PolicyEntity;

  @Column({ type: 'integer' })
  position: number;

  /** The merge key: script id + args + schedule. */
  @Column({ type: 'text' })
  key: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'script_id', type: 'integer' })
  scriptId: number;

  @ManyToOne(() => ScriptEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'script_id', foreignKeyConstraintName: 'FK_policy_tasks_script' })
  script?: ScriptEntity;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  args: string[];

  @Column({ type: 'text' })
  schedule: string;

  /** Seconds; null: the script's default timeout. */
  @Column({ type: 'integer', nullable: true })
  timeout: number | null;

  @Column({ name: 'queue_if_offline', type: 'boolean', default: false })
  queueIfOffline: boolean;

  @Column({ name: 'skip_in_maintenance', type: 'boolean', default: false })
  skipInMaintenance: boolean;
}

/** One agent's override of one inherited (non-enforced) policy item: disabled, or adjusted. */
@Entity({ name: 'policy_overrides' })
@Index('IDX_policy_overrides_policy', ['policyId'])
export class PolicyOverrideEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'integer', primaryKeyConstraintName: 'PK_policy_overrides' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'FK_policy_overrides_agent' })
  agent?: AgentEntity;

  @PrimaryColumn({ name: 'policy_id', type: 'integer', primaryKeyConstraintName: 'PK_policy_overrides' })
  policyId: number;

  @ManyToOne(() => PolicyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_id', foreignKeyConstraintName: 'FK_policy_overrides_policy' })
  policy?: PolicyEntity;

  /** The item's merge key (as effective-policy shows it). */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_policy_overrides' })
  key: string;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  /** Replaces the item's settings on this agent (validated as the check type's). */
  @Column({ type: 'jsonb', nullable: true })
  settings: Record<string, unknown> | null;

  @Column({ name: 'run_interval', type: 'integer', nullable: true })
  runInterval: number | null;

  @Column({ name: 'fails_b4_alert', type: 'integer', nullable: true })
  failsB4Alert: number | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
