import { ErrorSurface, NormalizedError, pathStartsWith, RenderedError } from '../../common/errors/error-surfaces';
import { GatewayError, GoTrueError } from '../platform-errors';

export const AUTH_PREFIX = '/auth/v1';
/** The API version GoTrue speaks: a request that names it gets the versioned error body, and the header back. */
export const GOTRUE_API_VERSION = '2024-01-01';

/** GoTrue's error_code for errors raised outside the auth service (framework, routing, faults). */
function codeOf(e: NormalizedError): { errorCode: string; message: string } {
  if (e.source === 'fault') return { errorCode: 'unexpected_failure', message: 'Unexpected failure, please check server logs for more information' };
  if (e.source === 'http' && e.status === 404) return { errorCode: 'not_found', message: 'Not Found' };
  if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || /JSON/i.test(e.message)) {
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
  render: (e, _path, headers): RenderedError => {
    const status = e.status >= 500 ? 500 : e.status;
    if (e.origin instanceof GatewayError) return { status: 401, body: { message: e.message } };
    const { errorCode, message } = e.origin instanceof GoTrueError ? { errorCode: e.origin.errorCode, message: e.origin.message } : codeOf(e);
    if (wantsVersionedErrors(headers)) {
      return { status, body: { code: errorCode, message }, headers: { 'x-supabase-api-version': GOTRUE_API_VERSION } };
    }
    return { status, body: { code: status, error_code: errorCode, msg: message } };
  },
};
