import { ErrorSurface, NormalizedError, pathStartsWith, RenderedError } from '../../common/errors/error-surfaces';
import { GatewayError, PostgrestError } from '../platform-errors';

export const REST_PREFIX = '/rest/v1';

function fromNormalized(e: NormalizedError): PostgrestError {
  if (e.source === 'fault') return new PostgrestError(500, 'XX000', 'Internal server error');
  if (e.source === 'http' && e.status === 404) return new PostgrestError(404, 'PGRST125', 'Invalid path specified in request URL');
  if (e.status === 400 && (e.code?.startsWith('FST_ERR_CTP_') || /JSON/i.test(e.message))) return new PostgrestError(400, 'PGRST102', 'Empty or invalid json');
  if (e.status === 415) return new PostgrestError(415, 'PGRST107', 'Content-Type not acceptable: use application/json');
  return new PostgrestError(e.status, 'PGRST000', e.message);
}

/** /rest/v1 answers PostgREST's `{code, details, hint, message}`; a refused apikey as Supabase's gateway does. */
export const restErrorSurface: ErrorSurface = {
  name: 'rest',
  matches: pathStartsWith(REST_PREFIX),
  render: (e): RenderedError => {
    if (e.origin instanceof GatewayError) return { status: 401, body: { message: e.message } };
    const p = e.origin instanceof PostgrestError ? e.origin : fromNormalized(e);
    const status = p.status >= 500 && p.status !== 504 ? 500 : p.status;
    return { status, body: { code: p.code, details: p.details, hint: p.hint, message: p.message } };
  },
};
