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
import { ClientEntity } from './client.entity';
import { DeploymentEntity } from './deployment.entity';
import {
  AGENT_STATUSES,
  AgentStatus,
  MONITORING_TYPES,
  MonitoringType,
  PLATFORMS,
  Platform,
  sqlList,
} from './enums';
import { SiteEntity } from './site.entity';

/** One disk as the agent reports it (the spec's Disk). */
export interface AgentDisk {
  device: string;
  free: string;
  total: string;
  percent: number;
}

/**
 * An enrolled machine. `id` is the spec's agent_id (sent as a decimal string in JSON).
 * One row per (client, hostname): re-enrolling the same host keeps its id.
 */
@Entity({ name: 'agents' })
@Check('CHK_agents_plat', `"plat" IN (${sqlList(PLATFORMS)})`)
@Check('CHK_agents_monitoring_type', `"monitoring_type" IN (${sqlList(MONITORING_TYPES)})`)
@Check('CHK_agents_status', `"status" IN (${sqlList(AGENT_STATUSES)})`)
@Index('UQ_agents_client_hostname', ['clientId', 'hostname'], { unique: true })
@Index('IDX_agents_hostname', ['hostname'])
@Index('IDX_agents_site', ['siteId'])
// GIN (written by the migration; TypeORM cannot declare the method, so it leaves the index alone)
@Index('IDX_agents_tags', { synchronize: false })
@Index('IDX_agents_offline_notify', ['offlineNotifyAt'], { where: '"offline_notify_at" IS NOT NULL' })
export class AgentEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /**
   * The agent's name in its client (with the client, it identifies the agent): the hostname the enrollment
   * function was asked for when the device registered through a deployment the function made, else the name the
   * device sent.
   */
  @Column({ type: 'text' })
  hostname: string;

  /**
   * The name the device gives itself: the hostname it sent at registration, kept current by its heartbeat facts.
   * Null only for a row written without one (never by a registration).
   */
  @Column({ name: 'os_hostname', type: 'text', nullable: true })
  osHostname: string | null;

  @Column({ name: 'client_id', type: 'integer', nullable: true })
  clientId: number | null;

  @ManyToOne(() => ClientEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'client_id' })
  client?: ClientEntity | null;

  @Column({ name: 'site_id', type: 'integer', nullable: true })
  siteId: number | null;

  // (client_id, site_id) must name a site of that client; a site with agents cannot be deleted.
  @ManyToOne(() => SiteEntity, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'client_id', referencedColumnName: 'clientId' },
    { name: 'site_id', referencedColumnName: 'id' },
  ])
  site?: SiteEntity | null;

  @Column({ type: 'text' })
  plat: Platform;

  @Column({ name: 'monitoring_type', type: 'text', default: 'workstation' })
  monitoringType: MonitoringType;

  @Column({ name: 'operating_system', type: 'text', nullable: true })
  operatingSystem: string | null;

  @Column({ type: 'text', default: '0.0.0' })
  version: string;

  @Column({ name: 'last_seen', type: 'timestamptz', nullable: true })
  lastSeen: Date | null;

  @Column({ type: 'text', default: 'offline' })
  status: AgentStatus;

  @Column({ name: 'logged_in_username', type: 'text', nullable: true })
  loggedInUsername: string | null;

  @Column({ name: 'public_ip', type: 'text', nullable: true })
  publicIp: string | null;

  @Column({ name: 'local_ip', type: 'text', nullable: true })
  localIp: string | null;

  @Column({ name: 'cpu_model', type: 'text', nullable: true })
  cpuModel: string | null;

  /** Gigabytes. */
  @Column({ name: 'total_ram', type: 'double precision', nullable: true })
  totalRam: number | null;

  @Column({ type: 'jsonb', nullable: true })
  disks: AgentDisk[] | null;

  @Column({ name: 'patches_pending', type: 'integer', default: 0 })
  patchesPending: number;

  @Column({ name: 'wmi_detail', type: 'jsonb', nullable: true })
  wmiDetail: Record<string, unknown> | null;

  /** Hash of the secret the agent authenticates its channel with; never the secret. */
  @Column({ name: 'secret_hash', type: 'text', nullable: true })
  secretHash: string | null;

  /**
   * SHA-256 (hex) of the hardware id the agent sent at registration (itself the hex SHA-256 of the platform's
   * machine id). A fact (display, duplicate detection), never proof: any local user can read a machine id.
   * Null: none sent yet.
   */
  @Column({ name: 'hardware_hash', type: 'text', nullable: true })
  hardwareHash: string | null;

  /**
   * Until when an operator allows the next registration of this hostname to take the agent over without its
   * current secret (POST /api/v3/agents/{id}/reenroll/); used once. Null: not allowed.
   */
  @Column({ name: 'reenroll_allowed_until', type: 'timestamptz', nullable: true })
  reenrollAllowedUntil: Date | null;

  /**
   * Which channel connection of the agent is the current one: incremented by every connect (AgentPresenceRepository).
   * A status or last_seen write of an older connection (its close, its last heartbeats) names an older epoch and
   * changes nothing. A string: PostgreSQL's bigint.
   */
  @Column({ name: 'connection_epoch', type: 'bigint', default: 0 })
  connectionEpoch: string;

  /**
   * When the agent's agent.offline is to be notified if it has not come back by then (its close, plus
   * RMM_NOTIFY_OFFLINE_GRACE_SECONDS); null when none is waiting (docs/notifications.md, "Presence is debounced").
   */
  @Column({ name: 'offline_notify_at', type: 'timestamptz', nullable: true })
  offlineNotifyAt: Date | null;

  /** Its going offline was notified (agent.offline written): only then is its return an agent.online. */
  @Column({ name: 'offline_notified', type: 'boolean', default: false })
  offlineNotified: boolean;

  /** check.result messages of this agent dropped for coming before their check's spacing (docs/security.md, N2). */
  @Column({ name: 'check_results_dropped', type: 'bigint', default: 0 })
  checkResultsDropped: string;

  /**
   * Its tags (issue #31): at most 50, each 1–64 characters of letters, digits, space and `_ . : -`, stored
   * lowercase and sorted, no duplicates. Policies target them (docs/policies.md). A GIN index answers `@>`.
   */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags: string[];

  /** Put in maintenance by an operator (PATCH {maintenance: true}) until taken out: no alert opens, no notification. */
  @Column({ type: 'boolean', default: false })
  maintenance: boolean;

  /**
   * The end of the policy maintenance window the agent is in now (written by the policies' window job), null
   * when in none: in maintenance while `maintenance_until > now()`.
   */
  @Column({ name: 'maintenance_until', type: 'timestamptz', nullable: true })
  maintenanceUntil: Date | null;

  /** The policy whose window set maintenance_until. */
  @Column({ name: 'maintenance_policy_id', type: 'integer', nullable: true })
  maintenancePolicyId: number | null;

  /** The deployment the agent last (re-)enrolled through. */
  @Column({ name: 'deployment_id', type: 'integer', nullable: true })
  deploymentId: number | null;

  @ManyToOne(() => DeploymentEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'deployment_id' })
  deployment?: DeploymentEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
