/** The management API's objects as the console reads them (docs/api.md; Swagger UI at /docs has every field). */
import {
  ALERT_SEVERITIES,
  API_KEY_SCOPES,
  type AgentStatus,
  type AlertSeverity,
  type ApiKeyScope,
  ARCHES,
  NOTIFICATION_EVENTS,
  NOTIFICATION_TYPES,
  type NotificationDeliveryStatus,
  type NotificationEvent,
  type NotificationType,
  OPERATOR_ROLES,
  type OperatorRole,
  type Platform,
  type Shell,
} from '../../../../libs/entities/src/enums';

// The server's own enumerations (one list for both: a scope or role added there appears here).
export type { AgentStatus, Platform, Shell };
export type Role = OperatorRole;
export type Scope = ApiKeyScope;
/** In the order the script editor offers them. */
export const SHELLS: Shell[] = ['bash', 'python', 'powershell', 'cmd'];
export const ROLES: readonly Role[] = OPERATOR_ROLES;
export const SCOPES: readonly Scope[] = API_KEY_SCOPES;
export { ARCHES };
export type { AlertSeverity, NotificationDeliveryStatus, NotificationEvent, NotificationType };
export const SEVERITIES: readonly AlertSeverity[] = ALERT_SEVERITIES;
export const CHANNEL_TYPES: readonly NotificationType[] = NOTIFICATION_TYPES;
export const CHANNEL_EVENTS: readonly NotificationEvent[] = NOTIFICATION_EVENTS;

export interface Operator {
  id: number;
  email: string;
  role: Role;
  clients: number[] | null;
  scopes: Scope[];
}

export interface NamedRef {
  id: number;
  name: string;
}

export interface Disk {
  device: string;
  free: string;
  total: string;
  percent: number;
}

export interface Agent {
  agent_id: string;
  hostname: string;
  client: NamedRef | null;
  site: NamedRef | null;
  plat: Platform;
  monitoring_type: string;
  operating_system: string | null;
  version: string;
  last_seen: string | null;
  status: AgentStatus;
  logged_in_username: string | null;
  public_ip: string | null;
  local_ip: string | null;
  cpu_model: string | null;
  total_ram: number | null;
  disks: Disk[] | null;
}

export interface AgentDetail extends Agent {
  patches_pending: number;
  wmi_detail: Record<string, unknown> | null;
  deployment: number | null;
  os_hostname: string | null;
  created_at: string;
  updated_at: string;
}

export interface Alert {
  id: number;
  alert_type: string;
  agent: string;
  severity: 'info' | 'warning' | 'error';
  message: string;
  created_at: string;
  snoozed: boolean;
  resolved: boolean;
  acknowledged: boolean;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  check: number | null;
  task: number | null;
}

export interface Site {
  id: number;
  name: string;
}

export interface Client {
  id: number;
  name: string;
  sites: Site[];
}

export interface Deployment {
  id: number;
  uuid: string;
  client: number;
  site: number;
  expiry: string;
  install_flags: string | null;
  download_url: string;
  arch: string;
  created_at: string;
  max_registrations: number | null;
  registrations: number;
}

export interface ScriptSummary {
  id: number;
  name: string;
  shell: Shell;
  description: string | null;
  args: string[];
  default_timeout: number;
}

export interface Script extends ScriptSummary {
  body: string;
  created_at: string;
  updated_at: string;
}

export interface ScriptRun {
  id: number;
  agent: string;
  script: number | null;
  script_name: string | null;
  shell: string;
  args: string[];
  output: string;
  timeout: number;
  status: string;
  retcode: number | null;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  execution_time: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  /** A queued run: until when it waits for the agent (docs/api.md, "Runs that wait for an offline agent"). */
  expires_at?: string | null;
}

export interface Check {
  id: number;
  agent: string;
  check_type: string;
  name: string;
  status: 'passing' | 'failing' | 'pending';
  more_info: string | null;
  last_run: string | null;
  settings: Record<string, unknown>;
  fails_b4_alert: number;
  fail_count: number;
  run_interval: number;
  severity: string;
}

export interface CheckResult {
  id: number;
  status: string;
  more_info: string | null;
  created_at: string;
}

export interface Task {
  id: number;
  name: string;
  agent: string;
  script: number;
  schedule: string;
  enabled: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  last_retcode: number | null;
  created_at: string;
}

export interface TaskRun {
  id: number;
  task: number;
  due_at: string;
  started_at: string | null;
  finished_at: string | null;
  status: string;
  retcode: number | null;
  stdout: string;
  stderr: string;
  error: string | null;
}

export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  scopes: Scope[];
  clients?: number[] | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface OperatorAccount {
  id: number;
  email: string;
  role: Role;
  clients: number[] | null;
  disabled: boolean;
  totp: boolean;
  created_at: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  method: string | null;
  action: string;
  target: string;
  client_address: string | null;
  status: number | null;
  outcome: string;
  request_id: string | null;
}

/** A notification channel (docs/notifications.md): the secret and header values are never answered. */
export interface NotificationChannel {
  id: number;
  name: string;
  type: NotificationType;
  url: string | null;
  to: string[];
  has_secret: boolean;
  header_names: string[];
  min_severity: AlertSeverity;
  events: NotificationEvent[];
  /** [] = every client. */
  clients: number[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationDelivery {
  id: string;
  event: string;
  severity: AlertSeverity;
  status: NotificationDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  next_attempt_at: string | null;
  delivered_at: string | null;
}

/** POST /notifications/{id}/test/: sent once, now. */
export interface NotificationTestResult {
  delivered: boolean;
  status_code: number | null;
  error: string | null;
  delivery: NotificationDelivery;
}

/** One message of the events WebSockets (/rmm/{agent_id}/, /rmm/fleet/): docs/events.md. */
export interface LiveEvent {
  event: string;
  agent_id: string;
  ts: string;
  data: any;
}
