import { CommonErrorCode } from '../../common/errors/domain-error';
import { codeTable, ErrorSurface, NormalizedError, pathStartsWith, RenderedError } from '../../common/errors/error-surfaces';
import { UsersErrorCode } from '../users/users.errors';
import { AuthErrorCode, GatewayErrorCode } from '../common/platform-errors';

export const AUTH_PREFIX = '/auth/v1';
/** The API version GoTrue speaks: a request that names it gets the versioned error body, and the header back. */
export const GOTRUE_API_VERSION = '2024-01-01';

type AuthSurfaceCode = CommonErrorCode | GatewayErrorCode | AuthErrorCode | UsersErrorCode;

/** Every code /auth/v1 can meet: its status and GoTrue's `error_code` (null: the gateway's bare `{message}`). */
export const AUTH_ERRORS: Record<AuthSurfaceCode, { status: number; errorCode: string | null }> = {
  [CommonErrorCode.Validation]: { status: 400, errorCode: 'validation_failed' },
  [CommonErrorCode.NotFound]: { status: 404, errorCode: 'not_found' },
  [CommonErrorCode.Unauthorized]: { status: 401, errorCode: 'no_authorization' },
  [CommonErrorCode.Forbidden]: { status: 403, errorCode: 'not_admin' },
  [CommonErrorCode.RateLimited]: { status: 429, errorCode: 'over_request_rate_limit' },
  [CommonErrorCode.Unavailable]: { status: 503, errorCode: 'unexpected_failure' },
  [GatewayErrorCode.NoApiKey]: { status: 401, errorCode: null },
  [GatewayErrorCode.InvalidApiKey]: { status: 401, errorCode: null },
  [AuthErrorCode.ValidationFailed]: { status: 400, errorCode: 'validation_failed' },
  [AuthErrorCode.InvalidCredentials]: { status: 400, errorCode: 'invalid_credentials' },
  [AuthErrorCode.RefreshTokenAlreadyUsed]: { status: 400, errorCode: 'refresh_token_already_used' },
  [AuthErrorCode.RefreshTokenNotFound]: { status: 400, errorCode: 'refresh_token_not_found' },
  [AuthErrorCode.NoAuthorization]: { status: 401, errorCode: 'no_authorization' },
  [AuthErrorCode.BadJwt]: { status: 403, errorCode: 'bad_jwt' },
  [AuthErrorCode.NotAdmin]: { status: 403, errorCode: 'not_admin' },
  [AuthErrorCode.SessionNotFound]: { status: 403, errorCode: 'session_not_found' },
  [AuthErrorCode.TokenUserNotFound]: { status: 403, errorCode: 'user_not_found' },
  [AuthErrorCode.UserNotFound]: { status: 404, errorCode: 'user_not_found' },
  [AuthErrorCode.OverRequestRateLimit]: { status: 429, errorCode: 'over_request_rate_limit' },
  [UsersErrorCode.EmailTaken]: { status: 422, errorCode: 'email_exists' },
  [UsersErrorCode.WeakPassword]: { status: 422, errorCode: 'weak_password' },
  [UsersErrorCode.InvalidEmail]: { status: 400, errorCode: 'validation_failed' },
};

const authCode = codeTable(AUTH_ERRORS);

/** GoTrue's error_code for errors raised outside the auth service (framework, routing, faults). */
function codeOf(e: NormalizedError): { errorCode: string; message: string } {
  if (e.source === 'fault') return { errorCode: 'unexpected_failure', message: 'Unexpected failure, please check server logs for more information' };
  if (e.source === 'http' && e.status === 404) return { errorCode: 'not_found', message: 'Not Found' };
  if (e.frameworkCode === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.frameworkCode === 'FST_ERR_CTP_EMPTY_JSON_BODY' || /JSON/i.test(e.message)) {
    return { errorCode: 'bad_json', message: 'Could not parse request body as JSON' };
  }
  if (e.status === 413) return { errorCode: 'request_too_large', message: e.message };
  if (e.status === 429) return { errorCode: 'over_request_rate_limit', message: 'Request rate limit reached' };
  return { errorCode: 'validation_failed', message: e.message };
}

/** Versioned requests (supabase-js sends X-Supabase-Api-Version) get `{code, message}`; others GoTrue's legacy body. */
export function wantsVersionedErrors(headers: Record<string, string | string[] | undefined>): boolean {
  const v = headers['x-supabase-api-version'];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && s >= GOTRUE_API_VERSION;
}

/** /auth/v1 answers errors as GoTrue does; a refused apikey as Supabase's gateway does (`{message}`). */
export const authErrorSurface: ErrorSurface = {
  name: 'auth',
  matches: pathStartsWith(AUTH_PREFIX),
  statusOf: (code) => authCode(code)?.status,
  render: (e, _path, headers): RenderedError => {
    const status = e.status >= 500 && e.source !== 'domain' ? 500 : e.status;
    const known = e.source === 'domain' && e.code !== undefined ? authCode(e.code) : undefined;
    if (known && known.errorCode === null) return { status, body: { message: e.message } };
    const { errorCode, message } = known ? { errorCode: known.errorCode!, message: e.message } : codeOf(e);
    if (wantsVersionedErrors(headers)) {
      return { status, body: { code: errorCode, message }, headers: { 'x-supabase-api-version': GOTRUE_API_VERSION } };
    }
    return { status, body: { code: status, error_code: errorCode, msg: message } };
  },
};
