import { AgentEntity } from './agent.entity';
import { AlertEntity } from './alert.entity';
import { AlertFlapEntity } from './alert-flap.entity';
import { ApiKeyEntity } from './api-key.entity';
import { AppSettingEntity } from './app-setting.entity';
import { AuditLogEntity } from './audit-log.entity';
import { CheckEntity } from './check.entity';
import { CheckResultEntity } from './check-result.entity';
import { ClientEntity } from './client.entity';
import { DeploymentDownloadEntity } from './deployment-download.entity';
import { DeploymentEntity } from './deployment.entity';
import { EnrollmentLogEntity } from './enrollment-log.entity';
import { JobStateEntity } from './job-state.entity';
import { NotificationChannelEntity } from './notification-channel.entity';
import { NotificationDeliveryEntity } from './notification-delivery.entity';
import { NotificationPageEntity } from './notification-page.entity';
import { NotificationBudgetEntity } from './notification-budget.entity';
import { OperatorEntity } from './operator.entity';
import { OperatorSessionEntity } from './operator-session.entity';
import { OperatorPasskeyEntity } from './operator-passkey.entity';
import { AuthChallengeEntity } from './auth-challenge.entity';
import { RefreshTokenEntity } from './refresh-token.entity';
import { ScriptRunEntity } from './script-run.entity';
import { ScriptEntity } from './script.entity';
import { SessionEntity } from './session.entity';
import { SiteEntity } from './site.entity';
import { TaskEntity } from './task.entity';
import { AgentUpdateEntity } from './agent-update.entity';
import { AgentUpdateHaltEntity } from './agent-update-halt.entity';
import { CustomFieldEntity, CustomFieldValueEntity } from './custom-field.entity';
import { PolicyCheckEntity, PolicyEntity, PolicyOverrideEntity, PolicyTaskEntity } from './policy.entity';
import { TaskRunEntity } from './task-run.entity';
import { TerminalSessionEntity } from './terminal-session.entity';
import { TerminalRecordingChunkEntity } from './terminal-recording-chunk.entity';
import { FileUploadEntity } from './file-upload.entity';
import { UserProfileEntity } from './user-profile.entity';
import { UserEntity } from './user.entity';

export * from './enums';
export * from './notification-events';
export {
  TerminalSessionEntity,
  TerminalRecordingChunkEntity,
  FileUploadEntity,
  AgentEntity,
  AgentUpdateEntity,
  AgentUpdateHaltEntity,
  PolicyEntity,
  PolicyCheckEntity,
  PolicyTaskEntity,
  PolicyOverrideEntity,
  CustomFieldEntity,
  CustomFieldValueEntity,
  AlertEntity,
  AlertFlapEntity,
  ApiKeyEntity,
  AppSettingEntity,
  AuditLogEntity,
  CheckEntity,
  CheckResultEntity,
  ClientEntity,
  DeploymentDownloadEntity,
  DeploymentEntity,
  EnrollmentLogEntity,
  JobStateEntity,
  NotificationChannelEntity,
  NotificationBudgetEntity,
  NotificationDeliveryEntity,
  OperatorEntity,
  OperatorSessionEntity,
  OperatorPasskeyEntity,
  AuthChallengeEntity,
  RefreshTokenEntity,
  ScriptEntity,
  ScriptRunEntity,
  SessionEntity,
  SiteEntity,
  TaskEntity,
  TaskRunEntity,
  UserEntity,
  UserProfileEntity,
};
export type { AgentDisk } from './agent.entity';
export { CUSTOM_FIELD_SCOPES, CUSTOM_FIELD_TYPES } from './custom-field.entity';
export type { CustomFieldScope, CustomFieldType, CustomFieldValue } from './custom-field.entity';
export { TERMINAL_END_REASONS } from './terminal-session.entity';
export type { TerminalEndReason } from './terminal-session.entity';
export { FILE_UPLOAD_STATUSES } from './file-upload.entity';
export type { FileUploadStatus } from './file-upload.entity';
export type { MaintenanceWindow, PolicyExclusions, PolicyTargets } from './policy.entity';
export { SCRIPT_OUTPUT_MODES, SCRIPT_RUN_STATUSES } from './script-run.entity';
export type { ScriptOutputMode, ScriptRunStatus } from './script-run.entity';
export { TASK_RUN_STATUSES } from './task-run.entity';
export type { TaskRunStatus } from './task-run.entity';
export { AUDIT_ACTOR_KINDS } from './audit-log.entity';
export type { AuditActorKind, AuditChanges } from './audit-log.entity';

/** Every entity, for the data source. */
export const ALL_ENTITIES = [
  UserEntity,
  SessionEntity,
  RefreshTokenEntity,
  UserProfileEntity,
  EnrollmentLogEntity,
  ClientEntity,
  SiteEntity,
  AgentEntity,
  DeploymentEntity,
  DeploymentDownloadEntity,
  ScriptEntity,
  CheckEntity,
  TaskEntity,
  AlertEntity,
  ApiKeyEntity,
  AppSettingEntity,
  AuditLogEntity,
  ScriptRunEntity,
  CheckResultEntity,
  TaskRunEntity,
  OperatorEntity,
  OperatorSessionEntity,
  OperatorPasskeyEntity,
  AuthChallengeEntity,
  AgentUpdateEntity,
  NotificationChannelEntity,
  NotificationDeliveryEntity,
  JobStateEntity,
  NotificationPageEntity,
  AlertFlapEntity,
  NotificationBudgetEntity,
  AgentUpdateHaltEntity,
  PolicyEntity,
  PolicyCheckEntity,
  PolicyTaskEntity,
  PolicyOverrideEntity,
  CustomFieldEntity,
  CustomFieldValueEntity,
  TerminalSessionEntity,
  TerminalRecordingChunkEntity,
  FileUploadEntity,
];
