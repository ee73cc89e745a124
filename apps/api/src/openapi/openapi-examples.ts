import pino from 'pino';
import type { ErrorSurface } from '../common/errors/error-surfaces';
import { ClientsErrorCode } from '../rmm/tenancy/clients/clients.errors';
import { EnrollError, EnrollErrorCode } from '../enroll/enroll.errors';
import { FUNCTION_STATUS } from '../enroll/enroll-error.surface';
import { InvalidTokenError } from '../platform/auth/access-tokens';
import { AUTH_ERRORS } from '../platform/auth/auth-error.surface';
import { AuthError, AuthErrorCode, GatewayError, GatewayErrorCode, PostgrestError, RestErrorCode } from '../platform/common/platform-errors';
import { FILTER_OPS } from '../platform/rest/rest-query';
import { REST_ERRORS } from '../platform/rest/rest-error.surface';
import { hashingBusy } from '../platform/users/password';
import { EMAIL_EXISTS_MESSAGE } from '../platform/users/users.service';
import { AgentsErrorCode } from '../rmm/fleet/agent-channel/agent-channel.errors';
import { DeploymentsErrorCode } from '../rmm/fleet/deployments/deployments.errors';
import { AgentBinariesErrorCode } from '../rmm/fleet/agent-binaries/agent-binaries.errors';
import { RegistrationErrorCode } from '../rmm/fleet/agent-registration/registration.errors';
import { ScriptRunsErrorCode } from '../rmm/automation/script-runs/script-runs.errors';
import { RMM_STATUS } from '../rmm/rmm-error.surface';
import { CommonErrorCode, DomainError, invalid } from '../common/errors/domain-error';
import { renderError } from '../common/errors/global-exception.filter';

/** One example of an error answer: what the server would send, rendered by its own error surfaces. */
export interface ErrorExample {
  summary: string;
  value: unknown;
}

type Sample = { summary: string; error: unknown };

const silent = pino({ level: 'silent' });

/** Errors Fastify raises before a handler runs (the filter maps them as it does at run time). */
const framework = (statusCode: number, code: string, message: string): Error => Object.assign(new Error(message), { statusCode, code });

/** Answers no surface table lists: the HTTP layer's own. */
const HTTP_LAYER: Record<number, Sample> = {
  // (The filter words every body-too-large refusal the same, whatever the surface's limit.)
  413: { summary: 'Body too large', error: framework(413, 'FST_ERR_CTP_BODY_TOO_LARGE', 'Request body is too large') },
  414: { summary: 'A path parameter over 100 characters', error: framework(414, 'FST_ERR_MAX_PARAM_LENGTH', 'URI Too Long') },
  415: { summary: 'Not a JSON body', error: framework(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type: text/plain') },
  // node-postgres' pool timed out: what the filter answers as 503 with Retry-After.
  503: { summary: 'No free database connection', error: new Error('timeout exceeded when trying to connect') },
};

/** The first code of a surface's table that answers `status` (the tables list module codes before common ones where it matters). */
function codeFor<C extends string>(table: Record<C, number | { status: number }>, status: number, order?: readonly C[]): C | undefined {
  const codes = order ?? (Object.keys(table) as C[]);
  return codes.find((c) => {
    const v = table[c];
    return (typeof v === 'number' ? v : v.status) === status;
  });
}

// ---- /api/v3 and /deploy: {detail} ----

/** Messages of the backend codes whose status has no fixed detail text (the services' own wording). */
const RMM_MESSAGES: Partial<Record<string, string>> = {
  [AgentsErrorCode.NotConnected]: 'agent is not connected',
  [AgentsErrorCode.Disconnected]: 'agent disconnected',
  [AgentsErrorCode.NoAnswer]: 'agent did not answer within 60 s',
  [AgentsErrorCode.Refused]: 'agent refused: interpreter not found: cmd',
  [AgentsErrorCode.InvalidAnswer]: 'agent sent an invalid answer',
  [DeploymentsErrorCode.Revoked]: 'deployment revoked',
  [DeploymentsErrorCode.Expired]: 'deployment expired',
  [RegistrationErrorCode.UnknownDeployment]: 'unknown deployment: the enrollment token names none',
  [RegistrationErrorCode.DeploymentRevoked]: 'deployment revoked: ask for a new installer',
  [RegistrationErrorCode.DeploymentExpired]: 'deployment expired: ask for a new installer',
};

function rmmSamples(path: string, method: string, status: number, bodyField: string | undefined): Sample[] {
  if (status === 400) {
    if (path === '/api/v3/agents/deployments' && method === 'post') {
      return [{ summary: 'validation error', error: invalid('validation error', [{ field: 'site', message: 'site 9 does not belong to client 1' }]) }];
    }
    const samples: Sample[] = [
      bodyField !== undefined
        ? { summary: 'validation error', error: invalid('validation error', [{ field: bodyField, message: `${bodyField} should not be empty` }]) }
        : { summary: 'validation error', error: invalid('validation error', [{ field: 'limit', message: 'limit must not be greater than 1000' }]) },
    ];
    if (method === 'delete' && path.startsWith('/api/v3/clients')) {
      samples.push({ summary: 'refused', error: new DomainError(ClientsErrorCode.ClientHasAgents, 'client 3 still has 2 agent(s): delete or move them first') });
    }
    return samples;
  }
  // An agent binary's download: its own 404 (the targets listed) and 503 (the lazy build failed).
  if (path === '/agent/v1/download/{target}' && status === 404) {
    return [{ summary: AgentBinariesErrorCode.UnknownTarget, error: new DomainError(AgentBinariesErrorCode.UnknownTarget, 'unknown target: linux-x64') }];
  }
  if (path === '/agent/v1/download/{target}' && status === 503) {
    return [{ summary: 'build failed', error: new DomainError(CommonErrorCode.Unavailable, 'the agent binary for darwin-arm64 could not be built on this server (its log says why)') }];
  }
  // runscript: the key's rate limit, and an agent whose queue is full (queue: true; docs/security.md, N6).
  if (path === '/api/v3/agents/{agentId}/runscript' && status === 429) {
    return [
      { summary: CommonErrorCode.RateLimited, error: new DomainError(CommonErrorCode.RateLimited, 'rate limited') },
      { summary: ScriptRunsErrorCode.QueueFull, error: new DomainError(ScriptRunsErrorCode.QueueFull, 'too many queued runs for this agent') },
    ];
  }
  // The agent's routes answer with the registration's own codes first.
  const order = path.startsWith('/agent/') ? [...Object.values(RegistrationErrorCode), ...(Object.keys(RMM_STATUS) as Array<keyof typeof RMM_STATUS>)] : undefined;
  const code = status === 503 ? undefined : codeFor(RMM_STATUS, status, order);
  if (code === undefined) return [];
  return [{ summary: code, error: new DomainError(code, RMM_MESSAGES[code] ?? code) }];
}

// ---- /functions/v1: {error} ----

function functionSamples(path: string, status: number): Sample[] {
  const isStatus = path.endsWith('/status');
  const preferred: Partial<Record<number, EnrollErrorCode>> = isStatus
    ? { 400: EnrollErrorCode.DeploymentUuidRequired, 404: EnrollErrorCode.EnrollmentNotFound, 502: EnrollErrorCode.DataPlatformUnavailable }
    : { 400: EnrollErrorCode.FieldsRequired, 502: EnrollErrorCode.DeploymentFailed };
  const code = preferred[status] ?? codeFor(FUNCTION_STATUS, status, Object.values(EnrollErrorCode));
  if (code === undefined) return [];
  const samples = [{ summary: code, error: new EnrollError(code) }];
  if (status === 401) samples.push({ summary: EnrollErrorCode.InvalidUserToken, error: new EnrollError(EnrollErrorCode.InvalidUserToken) });
  return samples;
}

// ---- /auth/v1: GoTrue's body (legacy format), the gateway's {message} ----

const badJwt = new AuthError(AuthErrorCode.BadJwt, `invalid JWT: unable to parse or verify signature, ${new InvalidTokenError('expired').message}`);

function authSamples(path: string, method: string, status: number): Sample[] {
  const admin = path.startsWith('/auth/v1/admin');
  const needsBearer = path === '/auth/v1/user' || path === '/auth/v1/logout';
  switch (status) {
    case 400:
      if (path === '/auth/v1/token') {
        return [
          { summary: 'invalid_credentials', error: new AuthError(AuthErrorCode.InvalidCredentials, 'Invalid login credentials') },
          { summary: 'unsupported grant_type', error: new AuthError(AuthErrorCode.ValidationFailed, 'unsupported_grant_type') },
        ];
      }
      if (path === '/auth/v1/logout') return [{ summary: 'validation_failed', error: new AuthError(AuthErrorCode.ValidationFailed, 'Unsupported logout scope') }];
      return [{ summary: 'validation_failed', error: new AuthError(AuthErrorCode.ValidationFailed, 'Unable to validate email address: invalid format') }];
    case 401: {
      const samples: Sample[] = [{ summary: 'No apikey', error: new GatewayError(GatewayErrorCode.NoApiKey) }];
      samples.push({ summary: 'Unknown apikey', error: new GatewayError(GatewayErrorCode.InvalidApiKey) });
      if (needsBearer) samples.push({ summary: 'no_authorization', error: new AuthError(AuthErrorCode.NoAuthorization, 'This endpoint requires a valid Bearer token') });
      return samples;
    }
    case 403:
      return admin ? [{ summary: 'not_admin', error: new AuthError(AuthErrorCode.NotAdmin, 'User not allowed') }, { summary: 'bad_jwt', error: badJwt }] : [{ summary: 'bad_jwt', error: badJwt }];
    case 404:
      return [{ summary: 'user_not_found', error: new AuthError(AuthErrorCode.UserNotFound, 'User not found') }];
    case 422:
      return [{ summary: 'email_exists', error: new DomainError(codeFor(AUTH_ERRORS, 422)!, EMAIL_EXISTS_MESSAGE) }];
    case 429:
      if (path === '/auth/v1/token') return [{ summary: 'over_request_rate_limit', error: new AuthError(AuthErrorCode.OverRequestRateLimit, 'Request rate limit reached') }];
      if (admin && method === 'post') return [{ summary: 'over_request_rate_limit', error: hashingBusy() }];
      return [{ summary: 'over_request_rate_limit', error: new DomainError(CommonErrorCode.RateLimited, 'Request rate limit reached') }];
    default:
      return [];
  }
}

// ---- /rest/v1: PostgREST's {code, details, hint, message}, the gateway's {message} ----

function restSamples(status: number): Sample[] {
  switch (status) {
    case 400:
      return [
        {
          summary: 'PGRST100',
          error: new PostgrestError(RestErrorCode.ParseError, 'failed to parse filter (zz.1)', `unknown operator; expected one of ${FILTER_OPS.join(', ')}, optionally preceded by not.`),
        },
      ];
    case 401:
      return [
        { summary: 'No apikey', error: new GatewayError(GatewayErrorCode.NoApiKey) },
        { summary: 'anon (42501)', error: new PostgrestError(RestErrorCode.DbPermissionDeniedAnon, 'permission denied for table user_profiles', null, null, '42501') },
        { summary: 'JWT expired (PGRST303)', error: new PostgrestError(RestErrorCode.JwtExpired, 'JWT expired') },
      ];
    case 403:
      return [{ summary: '42501', error: new PostgrestError(RestErrorCode.DbPermissionDenied, 'permission denied for table enrollment_log', null, null, '42501') }];
    case 404:
      return [{ summary: 'PGRST205', error: new PostgrestError(RestErrorCode.TableNotFound, "Could not find the table 'public.agents' in the schema cache") }];
    case 406:
      return [
        { summary: 'PGRST106', error: new PostgrestError(RestErrorCode.UnknownSchema, 'The schema must be one of the following: public') },
        { summary: 'PGRST116', error: new PostgrestError(RestErrorCode.SingularityViolation, 'JSON object requested, multiple (or no) rows returned', 'The result contains 0 rows') },
      ];
    case 409:
      return [
        {
          summary: '23505',
          error: new PostgrestError(
            RestErrorCode.DbConflict,
            'duplicate key value violates unique constraint "user_profiles_pkey"',
            'Key (id)=(7d3c4a52-5a1e-4b9c-8d0e-0c1f2a3b4c5d) already exists.',
            null,
            '23505',
          ),
        },
      ];
    case 429:
      return [{ summary: 'rate limited', error: new DomainError(CommonErrorCode.RateLimited, 'Too many requests: at most 300 per minute') }];
    case 503:
      return [];
    case 504:
      return [{ summary: '57014', error: new PostgrestError(RestErrorCode.DbTimeout, 'canceling statement due to statement timeout', null, null, '57014') }];
    default: {
      const code = codeFor(REST_ERRORS, status);
      return code === undefined ? [] : [{ summary: code, error: new DomainError(code, code) }];
    }
  }
}

/**
 * The error answers of one operation for `status`, each rendered by the server's own error surfaces (the
 * tables decide the status and the wire codes; the bodies are what the filter would send). `bodyField`: a
 * required field of the operation's body, for its validation example. [] when the status is not one this
 * operation's surface answers with a body.
 */
export function errorExamples(surfaces: readonly ErrorSurface[], path: string, method: string, status: number, bodyField?: string): ErrorExample[] {
  const url = path.replace(/\{[^}]+\}/g, 'x');
  let samples: Sample[];
  switch (surfaceOf(surfaces, path)) {
    case 'rmm':
      samples = rmmSamples(path, method, status, bodyField);
      break;
    case 'function':
      samples = functionSamples(path, status);
      break;
    case 'auth':
      samples = authSamples(path, method, status);
      break;
    case 'rest':
      samples = restSamples(status);
      break;
    default:
      return [];
  }
  if (samples.length === 0 && HTTP_LAYER[status]) samples = [HTTP_LAYER[status]];
  return samples.flatMap(({ summary, error }) => {
    const rendered = renderError(surfaces, silent, error, url, {});
    // A sample whose status the surface does not give for it would document a wrong answer: leave it out.
    return rendered.status === status ? [{ summary, value: rendered.body }] : [];
  });
}

/** The name of the error surface that answers for an OpenAPI path ('rmm', 'function', 'auth', 'rest'), if any. */
export function surfaceOf(surfaces: readonly ErrorSurface[], path: string): string | undefined {
  return surfaces.find((s) => s.matches(path.replace(/\{[^}]+\}/g, 'x')))?.name;
}
