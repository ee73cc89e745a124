import { COMMON_STATUS, CommonErrorCode } from '../../common/errors/domain-error';
import { codeTable, ErrorSurface, NormalizedError, pathStartsWith, RenderedError } from '../../common/errors/error-surfaces';
import { GatewayError, GatewayErrorCode, PostgrestError, RestErrorCode } from '../common/platform-errors';

export const REST_PREFIX = '/rest/v1';

type RestSurfaceCode = CommonErrorCode | GatewayErrorCode | RestErrorCode;

/** Every code /rest/v1 can meet: its status, and PostgREST's wire code (PGRST…; a SQLSTATE for the Db* codes). */
export const REST_ERRORS: Record<RestSurfaceCode, { status: number; wire: string }> = {
  [CommonErrorCode.Validation]: { status: COMMON_STATUS.validation, wire: 'PGRST100' },
  [CommonErrorCode.NotFound]: { status: COMMON_STATUS.not_found, wire: 'PGRST125' },
  [CommonErrorCode.Unauthorized]: { status: COMMON_STATUS.unauthorized, wire: 'PGRST301' },
  [CommonErrorCode.Forbidden]: { status: COMMON_STATUS.forbidden, wire: '42501' },
  [CommonErrorCode.RateLimited]: { status: COMMON_STATUS.rate_limited, wire: 'PGRST000' },
  [CommonErrorCode.Unavailable]: { status: COMMON_STATUS.unavailable, wire: 'PGRST000' },
  [GatewayErrorCode.NoApiKey]: { status: 401, wire: '' },
  [GatewayErrorCode.InvalidApiKey]: { status: 401, wire: '' },
  [RestErrorCode.ParseError]: { status: 400, wire: 'PGRST100' },
  [RestErrorCode.InvalidJson]: { status: 400, wire: 'PGRST102' },
  [RestErrorCode.InvalidPath]: { status: 404, wire: 'PGRST125' },
  [RestErrorCode.UnknownSchema]: { status: 406, wire: 'PGRST106' },
  [RestErrorCode.NotAcceptable]: { status: 406, wire: 'PGRST107' },
  [RestErrorCode.UnsupportedMediaType]: { status: 415, wire: 'PGRST107' },
  [RestErrorCode.SingularityViolation]: { status: 406, wire: 'PGRST116' },
  [RestErrorCode.RelationshipNotFound]: { status: 400, wire: 'PGRST200' },
  [RestErrorCode.ColumnNotFound]: { status: 400, wire: 'PGRST204' },
  [RestErrorCode.TableNotFound]: { status: 404, wire: 'PGRST205' },
  [RestErrorCode.JwtInvalid]: { status: 401, wire: 'PGRST301' },
  [RestErrorCode.JwtExpired]: { status: 401, wire: 'PGRST303' },
  [RestErrorCode.DbPermissionDeniedAnon]: { status: 401, wire: '42501' },
  [RestErrorCode.DbPermissionDenied]: { status: 403, wire: '42501' },
  [RestErrorCode.DbConflict]: { status: 409, wire: '23505' },
  [RestErrorCode.DbUndefined]: { status: 400, wire: '42703' },
  [RestErrorCode.DbUndefinedTable]: { status: 404, wire: '42P01' },
  [RestErrorCode.DbTimeout]: { status: 504, wire: '57014' },
  [RestErrorCode.DbInvalidData]: { status: 400, wire: '22000' },
  [RestErrorCode.DbInvalidQuery]: { status: 400, wire: '42601' },
};

const restCode = codeTable(REST_ERRORS);

/** Errors raised outside the REST service (framework, routing, faults) as PostgREST would word them. */
function fromNormalized(e: NormalizedError): PostgrestError {
  if (e.source === 'fault') return Object.assign(new PostgrestError(RestErrorCode.ParseError, 'Internal server error'), { wire: 'XX000' });
  if (e.source === 'http' && e.status === 404) return new PostgrestError(RestErrorCode.InvalidPath, 'Invalid path specified in request URL');
  if (e.status === 400 && (e.frameworkCode?.startsWith('FST_ERR_CTP_') || /JSON/i.test(e.message))) {
    return new PostgrestError(RestErrorCode.InvalidJson, 'Empty or invalid json');
  }
  if (e.status === 415) return new PostgrestError(RestErrorCode.UnsupportedMediaType, 'Content-Type not acceptable: use application/json');
  return Object.assign(new PostgrestError(RestErrorCode.ParseError, e.message), { wire: 'PGRST000' });
}

/** /rest/v1 answers PostgREST's `{code, details, hint, message}`; a refused apikey as Supabase's gateway does. */
export const restErrorSurface: ErrorSurface = {
  name: 'rest',
  matches: pathStartsWith(REST_PREFIX),
  statusOf: (code) => restCode(code)?.status,
  render: (e): RenderedError => {
    if (e.origin instanceof GatewayError) return { status: 401, body: { message: e.message } };
    if (e.origin instanceof PostgrestError) {
      const p = e.origin;
      return { status: e.status, body: { code: p.sqlstate ?? REST_ERRORS[p.code].wire, details: p.details, hint: p.hint, message: p.message } };
    }
    if (e.source === 'domain' && e.code !== undefined) {
      return { status: e.status, body: { code: restCode(e.code)?.wire ?? 'PGRST000', details: null, hint: null, message: e.message } };
    }
    const p = fromNormalized(e) as PostgrestError & { wire?: string };
    const status = e.source === 'fault' || e.status >= 500 ? 500 : e.status;
    return { status, body: { code: p.wire ?? REST_ERRORS[p.code].wire, details: p.details, hint: p.hint, message: p.message } };
  },
};
