import { AGENT_TARGETS } from '@app/entities';
import { COMMON_STATUS, CommonErrorCode } from '../common/errors/domain-error';
import { codeTable, ErrorSurface, pathStartsWith } from '../common/errors/error-surfaces';
import { AgentBinariesErrorCode } from './fleet/agent-binaries/agent-binaries.errors';
import { RegistrationErrorCode } from './fleet/agent-registration/registration.errors';
import { AgentsErrorCode } from './fleet/agent-channel/agent-channel.errors';
import { ClientsErrorCode } from './tenancy/clients/clients.errors';
import { CustomFieldsErrorCode } from './tenancy/custom-fields/custom-fields.errors';
import { DeploymentsErrorCode } from './fleet/deployments/deployments.errors';
import { OperatorsErrorCode } from './access/operators/operators.errors';
import { PasskeyRequiredError } from './access/operators/second-factor';
import { GuardErrorCode } from './common/guard.errors';
import { ScriptRunsErrorCode } from './automation/script-runs/script-runs.errors';
import { ScriptsErrorCode } from './automation/scripts/scripts.errors';
import { PoliciesErrorCode } from './automation/policies/policies.errors';
import { OverridesErrorCode } from './automation/policies/overrides.errors';
import { ChecksErrorCode } from './automation/checks/checks.errors';
import { TasksErrorCode } from './automation/tasks/tasks.errors';
import { FilesErrorCode, UploadOffsetError } from './remote/files/files.errors';
import { TerminalErrorCode } from './remote/terminal/terminal.errors';

/** Every code the management backend can answer. */
export type RmmErrorCode =
  | CommonErrorCode
  | ClientsErrorCode
  | ScriptsErrorCode
  | DeploymentsErrorCode
  | AgentsErrorCode
  | RegistrationErrorCode
  | OperatorsErrorCode
  | GuardErrorCode
  | AgentBinariesErrorCode
  | ScriptRunsErrorCode
  | PoliciesErrorCode
  | OverridesErrorCode
  | ChecksErrorCode
  | TasksErrorCode
  | CustomFieldsErrorCode
  | FilesErrorCode
  | TerminalErrorCode;

/**
 * The status of every code under /api/v3 (and the download URLs). A refused action keeps 400 with its
 * reason as `detail` (the spec's backend answers 400 for "invalid client or site id"); a missing agent
 * channel is 409, a download of a revoked or expired deployment 410.
 */
export const RMM_STATUS: Record<RmmErrorCode, number> = {
  ...COMMON_STATUS,
  [ClientsErrorCode.ClientNameTaken]: 400,
  [ClientsErrorCode.SiteNameTaken]: 400,
  [ClientsErrorCode.ClientHasAgents]: 400,
  [ClientsErrorCode.SiteHasAgents]: 400,
  [ScriptsErrorCode.NameTaken]: 400,
  [ScriptsErrorCode.InUse]: 400,
  [DeploymentsErrorCode.Revoked]: 410,
  [DeploymentsErrorCode.Expired]: 410,
  [DeploymentsErrorCode.UsedUp]: 410,
  [AgentsErrorCode.NotConnected]: 409,
  [AgentsErrorCode.Disconnected]: 502,
  [AgentsErrorCode.NoAnswer]: 504,
  [AgentsErrorCode.Refused]: 422,
  [AgentsErrorCode.InvalidAnswer]: 502,
  [ScriptRunsErrorCode.NotQueued]: 409,
  [ScriptRunsErrorCode.QueueFull]: 429,
  [ScriptRunsErrorCode.CollectedRefused]: 422,
  [RegistrationErrorCode.UnknownDeployment]: 404,
  [RegistrationErrorCode.DeploymentRevoked]: 410,
  [RegistrationErrorCode.DeploymentExpired]: 410,
  [RegistrationErrorCode.DeploymentUsedUp]: 410,
  [RegistrationErrorCode.HostnameEnrolled]: 409,
  [OperatorsErrorCode.InvalidCredentials]: 401,
  [OperatorsErrorCode.TotpRequired]: 401,
  [OperatorsErrorCode.PasskeyRequired]: 401,
  [OperatorsErrorCode.PasswordLoginOff]: 403,
  [GuardErrorCode.StepUpRequired]: 401,
  [GuardErrorCode.CsrfFailed]: 403,
  [OperatorsErrorCode.EmailTaken]: 409,
  [OperatorsErrorCode.NoPassword]: 409,
  [AgentBinariesErrorCode.UnknownTarget]: 404,
  [PoliciesErrorCode.NameTaken]: 409,
  [PoliciesErrorCode.TooMany]: 409,
  [OverridesErrorCode.Enforced]: 409,
  [ChecksErrorCode.ManagedByPolicy]: 409,
  [TasksErrorCode.ManagedByPolicy]: 409,
  [CustomFieldsErrorCode.NameTaken]: 400,
  [CustomFieldsErrorCode.TooMany]: 400,
  [CustomFieldsErrorCode.HasValues]: 400,
  [CustomFieldsErrorCode.UnknownField]: 400,
  // The agent's own words for a file's trouble (docs/files.md, "Errors"), and the upload's states.
  [FilesErrorCode.AgentOffline]: 409,
  [FilesErrorCode.NoSuchFile]: 404,
  [FilesErrorCode.PermissionDenied]: 403,
  [FilesErrorCode.WrongKind]: 400,
  [FilesErrorCode.FileExists]: 409,
  [FilesErrorCode.ChecksumMismatch]: 422,
  [FilesErrorCode.UploadConflict]: 409,
  [FilesErrorCode.UploadBusy]: 409,
  [FilesErrorCode.ChunkTooLarge]: 413,
  [FilesErrorCode.RangeNotSatisfiable]: 416,
  [FilesErrorCode.AgentFailed]: 502,
  [TerminalErrorCode.TooMany]: 429,
  [TerminalErrorCode.Ended]: 409,
};

/** The spec's fixed texts for the management backend's error bodies. */
const DETAIL: Record<number, string> = {
  400: 'validation error',
  401: 'Invalid token',
  403: 'permission denied',
  404: 'Not found',
  429: 'rate limited',
  500: 'server error',
};

/**
 * /api/v3 and download URLs answer `{detail}` as the spec's error table says. A 400 from validation adds
 * `errors: [{field, message}]`; a 400 for a refused action (deleting a client that still has agents)
 * carries the reason as its detail; other statuses without a fixed text (409, 410, 502, 503, 504) too.
 */
export const rmmErrorSurface: ErrorSurface = {
  name: 'rmm',
  matches: pathStartsWith('/api/v3', '/rmm', '/deploy', '/agent'),
  statusOf: codeTable(RMM_STATUS),
  render: (e) => {
    const status = e.status >= 500 && e.source !== 'domain' ? 500 : e.status;
    const isValidation = e.source !== 'domain' || e.code === CommonErrorCode.Validation;
    if (status === 400 && !isValidation && e.message) {
      return { status, body: { detail: e.message } };
    }
    if (status === 400) {
      const errors = e.fields.length > 0 ? e.fields : [{ field: null, message: e.message }];
      return { status, body: { detail: DETAIL[400], errors } };
    }
    // The console's sign-in: the password was right, the account's code is missing or wrong (docs/console.md).
    if (e.code === OperatorsErrorCode.TotpRequired) return { status, body: { detail: e.message, totp_required: true } };
    // … or the account has passkeys: the page runs the ceremony these options start (docs/sso.md, "Passkeys").
    if (e.origin instanceof PasskeyRequiredError) return { status, body: passkeyRequiredBody(e.origin) };
    // A dangerous action in a session authenticated too long ago: the console re-authenticates and retries (docs/sso.md).
    if (e.code === GuardErrorCode.StepUpRequired) return { status, body: { detail: e.message, step_up: true } };
    // An agent binary's download names the targets there are (GET /agent/v1/download/{target}).
    if (e.code === AgentBinariesErrorCode.UnknownTarget) return { status, body: { detail: e.message, targets: AGENT_TARGETS } };
    // An upload's chunk at the wrong offset says where the next one goes.
    if (e.origin instanceof UploadOffsetError) return { status, body: { detail: e.message, received: e.origin.received } };
    // The spec's fixed texts are for the common codes; a module's own refusal says what it is.
    const fixed = e.source !== 'domain' || (Object.values(CommonErrorCode) as string[]).includes(e.code ?? '');
    return { status, body: { detail: (fixed ? DETAIL[status] : undefined) ?? e.message } };
  },
};

/** A password sign-in that needs a passkey (or the TOTP code instead, when the account has both). */
function passkeyRequiredBody(e: PasskeyRequiredError): Record<string, unknown> {
  return {
    detail: e.message,
    ...(e.totpRequired ? { totp_required: true } : {}),
    passkey_required: true,
    passkey_options: e.challenge.options,
    challenge_id: e.challenge.challengeId,
  };
}
