import createClient from 'openapi-fetch';
import type { paths } from './openapi';
import { isStepUpAnswer, stepUp } from './step-up';

/**
 * The console's one way to call the management API (/api/v3): same-origin, with the session cookie, and the
 * header every console request carries (the server's CSRF rule refuses a cookie-authenticated change without it).
 */
export const CSRF_HEADER = { 'X-Requested-With': 'rmm-console' } as const;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly body: unknown,
  ) {
    super(detail);
  }
}

let unauthorized: (() => void) | undefined;
/** Called when a request other than sign-in answers 401: the session is gone (expired, signed out elsewhere). */
export function onUnauthorized(fn: () => void): void {
  unauthorized = fn;
}

/** For calls made without `api` (api/hands.ts): a 401 there means the same. */
export function notifyUnauthorized(): void {
  unauthorized?.();
}

/**
 * Requests go to the paths as docs/api.md writes them, with the trailing slash (the OpenAPI document's have none;
 * the server answers both): the audit log keeps the path requested, so the console's changes read as they always did.
 */
class ApiRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? withTrailingSlash(input) : input, init);
  }
}

function withTrailingSlash(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path.endsWith('/') ? url : `${path}/${q === -1 ? '' : url.slice(q)}`;
}

/**
 * Typed by docs/openapi.json (the generated `paths`): a call names the document's path, e.g.
 * `api.GET('/api/v3/agents/{agentId}', { params: { path: { agentId } } })`, and its parameters, body and answer
 * are the document's. `ok` and `okPage` turn its answer into the body, or an ApiError.
 */
export const api = createClient<paths>({
  headers: { ...CSRF_HEADER, Accept: 'application/json' },
  credentials: 'same-origin',
  Request: ApiRequest,
});
/** A copy of each request in flight (its body unread), sent again after a step-up. */
const copies = new Map<string, Request>();
api.use({
  onRequest({ request, id }) {
    copies.set(id, request.clone());
  },
  async onResponse({ response, schemaPath, id }) {
    const copy = copies.get(id);
    copies.delete(id);
    if (response.status !== 401) return undefined;
    // A dangerous action in a session authenticated too long ago: not a sign-out. Confirm, then once more.
    if (copy && (await isStepUpAnswer(response))) {
      await stepUp();
      return fetch(copy);
    }
    if (!schemaPath.startsWith('/api/v3/auth/')) unauthorized?.();
    return undefined;
  },
  onError({ id }) {
    copies.delete(id);
  },
});

/** What a call of `api` resolves to: the body (`data`) when the answer is 2xx, else the parsed `error`. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

async function answer<T>(call: Promise<Answer<T>>): Promise<{ data: T; response: Response }> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, detailOf(error, response), error);
  return { data: data as T, response };
}

/** The body of a successful answer; any other answer throws an ApiError with the server's detail. */
export async function ok<T>(call: Promise<Answer<T>>): Promise<T> {
  return (await answer(call)).data;
}

/** A paged list (`?limit=&offset=`): its rows and X-Total-Count. */
export async function okPage<T>(call: Promise<Answer<T[]>>): Promise<{ rows: T[]; total: number }> {
  const { data: rows, response } = await answer(call);
  return { rows, total: Number(response.headers.get('x-total-count') ?? rows.length) };
}

function detailOf(data: unknown, res: Response): string {
  if (data && typeof data === 'object' && typeof (data as { detail?: unknown }).detail === 'string') {
    const { detail, errors } = data as { detail: string; errors?: Array<{ field?: string; message?: string }> };
    if (Array.isArray(errors) && errors.length > 0) return `${detail}: ${errors.map((e) => e.message ?? e.field).join('; ')}`;
    return detail;
  }
  return `${res.status} ${res.statusText || 'error'}`;
}

/** What to show a person for a failed call. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 403) return `Not allowed: ${err.detail}`;
    return err.detail;
  }
  if (err instanceof Error) return err.message === 'Failed to fetch' ? 'The server cannot be reached' : err.message;
  return String(err);
}
