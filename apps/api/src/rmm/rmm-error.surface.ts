import { ErrorKind } from '../common/errors/domain-error';
import { ErrorSurface, pathStartsWith } from '../common/errors/error-surfaces';

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
 * /api/v3 and download URLs answer `{detail}` as the spec's error table says. A 400 from
 * validation adds `errors: [{field, message}]`; a 400 for a refused action (deleting a client
 * that still has agents) carries the reason as its detail.
 */
export const rmmErrorSurface: ErrorSurface = {
  name: 'rmm',
  matches: pathStartsWith('/api/v3', '/rmm', '/deploy'),
  render: (e) => {
    const status = e.status >= 500 ? 500 : e.status;
    if (status === 400 && e.kind !== ErrorKind.Validation && e.message) {
      return { status, body: { detail: e.message } };
    }
    if (status === 400) {
      const errors = e.fields.length > 0 ? e.fields : [{ field: null, message: e.message }];
      return { status, body: { detail: DETAIL[400], errors } };
    }
    return { status, body: { detail: DETAIL[status] ?? e.message } };
  },
};
