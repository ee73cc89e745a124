/** Enumerations shared by entities, DTOs and the CHECK constraints of the migrations. */

// The agent protocol's own lists (libs/protocol, which the agent imports too): one source for the wire and the
// database. A relative import: the operator console's build reads this file, and knows no path alias.
export {
  AGENT_TARGETS,
  type AgentTarget,
  CHECK_STATUSES,
  CHECK_TYPES,
  type CheckStatus,
  type CheckType,
  MONITORING_TYPES,
  type MonitoringType,
  type Platform,
  PLATFORMS,
  type Shell,
  SHELLS,
} from '../../protocol/src/constants';

export const AGENT_STATUSES = ['online', 'offline', 'overdue'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const ARCHES = ['amd64', 'arm64', 'amd64-mac', 'arm64-mac'] as const;
export type Arch = (typeof ARCHES)[number];

export const ALERT_TYPES = ['check_failure', 'task_failure', 'agent_overdue', 'enrollment_conflict', 'agent_update_halted', 'agent_build_failed'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_SEVERITIES = ['info', 'warning', 'error'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ENROLLMENT_STATUSES = ['pending', 'completed', 'expired', 'failed'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

export const API_KEY_SCOPES = [
  'admin',
  'agents:read',
  'agents:write',
  'deployments:read',
  'deployments:write',
  'clients:read',
  'clients:write',
  'scripts:read',
  'scripts:write',
  'scripts:run',
  'checks:read',
  'checks:write',
  'tasks:read',
  'tasks:write',
  'alerts:read',
  'alerts:write',
  'notifications:read',
  'notifications:write',
  'policies:read',
  'policies:write',
  'terminal',
  'files:read',
  'files:write',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const OPERATOR_ROLES = ['admin', 'technician', 'viewer'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** SQL list literal for a CHECK constraint: `'a', 'b'`. Values are our own constants, never input. */
export function sqlList(values: readonly string[]): string {
  return values.map((v) => `'${v}'`).join(', ');
}

/** A client's agents: updated to the server's agent version automatically (staged), or left as they are. */
export const AGENT_UPDATE_MODES = ['auto', 'off'] as const;
export type AgentUpdateMode = (typeof AGENT_UPDATE_MODES)[number];

/** One agent's update to the server's version: waiting for a slot, offered and under way, on the new version, or refused/rolled back. */
export const AGENT_UPDATE_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type AgentUpdateStatus = (typeof AGENT_UPDATE_STATUSES)[number];

/** How a notification channel delivers (docs/notifications.md). */
export const NOTIFICATION_TYPES = ['webhook', 'email', 'slack', 'teams'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * The events a notification channel may subscribe to: those of docs/events.md that concern operators (`task.run`:
 * only runs that did not succeed).
 */
export const NOTIFICATION_EVENTS = [
  'alert.created',
  'alert.resolved',
  'alert.acknowledged',
  'agent.offline',
  'agent.overdue',
  'agent.online',
  'task.run',
  'enrollment.completed',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** One delivery of one notification to one channel: waiting (or retrying), delivered (2xx, or accepted by SMTP), or given up. */
export const NOTIFICATION_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type NotificationDeliveryStatus = (typeof NOTIFICATION_DELIVERY_STATUSES)[number];

/** Where a periodic job runs (apps/api/src/jobs): on every instance, or on one instance of the cluster at a time. */
export const JOB_MODES = ['every-instance', 'cluster-once'] as const;
export type JobMode = (typeof JOB_MODES)[number];

/** A periodic job's state on one instance: `degraded` after 3 failures in a row, `ok` again after a success. */
export const JOB_STATES = ['ok', 'degraded'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** What an automation policy's maintenance window, or an operator, can put an agent in (docs/policies.md). */
export const POLICY_TARGET_KINDS = ['clients', 'sites', 'tags_any', 'tags_all', 'platforms', 'monitoring_types'] as const;
export type PolicyTargetKind = (typeof POLICY_TARGET_KINDS)[number];
