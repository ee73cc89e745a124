/**
 * The management API's objects under the names the pages use: each is the schema docs/openapi.json gives it, from
 * the generated openapi.d.ts (`npm run openapi` writes both). A field the server changes changes here too.
 */
import {
  ALERT_SEVERITIES,
  API_KEY_SCOPES,
  ARCHES as ENTITY_ARCHES,
  CHECK_TYPES,
  NOTIFICATION_EVENTS,
  NOTIFICATION_TYPES,
  OPERATOR_ROLES,
} from '../../../../libs/entities/src/enums';
export { eventsNeverSent, NOTIFICATION_EVENT_SEVERITY } from '../../../../libs/entities/src/notification-events';
import type { components } from './openapi';

type Schemas = components['schemas'];

/** The signed-in operator (GET /auth/session, GET /auth/me). */
export type Operator = Schemas['SessionOperatorDto'];
/** An operator account (the Operators page). */
export type OperatorAccount = Schemas['OperatorDto'];
export type Agent = Schemas['AgentDto'];
export type AgentDetail = Schemas['AgentDetailDto'];
export type Alert = Schemas['AlertDto'];
export type Client = Schemas['ClientDto'];
export type CustomField = Schemas['CustomFieldDto'];
export type CustomFieldScope = CustomField['scope'];
export type CustomFieldType = CustomField['type'];
/** Values of one agent, site or client by field name: a secret's as "********" when set. */
export type CustomFieldValues = Record<string, unknown>;
export type Site = Schemas['SiteRefDto'];
export type Deployment = Schemas['DeploymentDto'];
/** A script in the list (no body). */
export type ScriptSummary = Schemas['ScriptDto'];
export type Script = Schemas['ScriptDetailDto'];
export type ScriptRun = Schemas['ScriptRunDto'];
export type Check = Schemas['CheckDto'];
export type CheckResult = Schemas['CheckResultDto'];
export type Task = Schemas['TaskDto'];
export type TaskRun = Schemas['TaskRunDto'];
/** Where an agent's check or task comes from: its own, or a policy's (issue #31). */
export type ItemSource = Schemas['ItemSourceDto'];
export type PolicyOverride = Schemas['PolicyOverrideOutDto'];
export type ApiKey = Schemas['ApiKeyDto'];
export type AuditEntry = Schemas['AuditEntryDto'];
export type NotificationChannel = Schemas['NotificationDto'];
export type NotificationDelivery = Schemas['DeliveryDto'];
export type NotificationTestResult = Schemas['TestResultDto'];
// Request bodies the pages build before sending.
/** POST /agents/{id}/runscript/ */
export type RunScript = Schemas['RunScriptDto'];
/** PATCH /operators/{id}/: a role, disabled, or a password. */
export type OperatorChange = Schemas['UpdateOperatorDto'];

export type AgentStatus = Agent['status'];
export type Role = Operator['role'];
export type Scope = Operator['scopes'][number];
export type Shell = Script['shell'];
export type Arch = Deployment['arch'];
export type AlertSeverity = Alert['severity'];
export type NotificationType = NotificationChannel['type'];
export type NotificationEvent = NotificationChannel['events'][number];
export type CheckType = Check['check_type'];

// What the forms offer: the server's own lists (libs/entities), typed by the document, so a value the document
// does not have does not compile.
/** In the order the script editor offers them. */
export const SHELLS: readonly Shell[] = ['bash', 'python', 'powershell', 'cmd'];
export const ROLES: readonly Role[] = OPERATOR_ROLES;
export const SCOPES: readonly Scope[] = API_KEY_SCOPES;
export const ARCHES: readonly Arch[] = ENTITY_ARCHES;
export const SEVERITIES: readonly AlertSeverity[] = ALERT_SEVERITIES;
export const CHECK_TYPE_LIST: readonly CheckType[] = CHECK_TYPES;
export const CHANNEL_TYPES: readonly NotificationType[] = NOTIFICATION_TYPES;
export const CHANNEL_EVENTS: readonly NotificationEvent[] = NOTIFICATION_EVENTS;
