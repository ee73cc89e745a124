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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let unauthorized: (() => void) | undefined;
/** Called when a request other than sign-in answers 401: the session is gone (expired, signed out elsewhere). */
export function onUnauthorized(fn: () => void): void {
  unauthorized = fn;
}

async function send(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { ...CSRF_HEADER, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`/api/v3${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!res.ok) {
    const data = await readJson(res);
    if (res.status === 401 && !path.startsWith('/auth/')) unauthorized?.();
    throw new ApiError(res.status, detailOf(data, res), data);
  }
  return res;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function detailOf(data: unknown, res: Response): string {
  if (data && typeof data === 'object' && typeof (data as { detail?: unknown }).detail === 'string') {
    const { detail, errors } = data as { detail: string; errors?: Array<{ field?: string; message?: string }> };
    if (Array.isArray(errors) && errors.length > 0) return `${detail}: ${errors.map((e) => e.message ?? e.field).join('; ')}`;
    return detail;
  }
  return `${res.status} ${res.statusText || 'error'}`;
}

export async function api<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const res = await send(method, path, body, signal);
  return (res.status === 204 ? undefined : await readJson(res)) as T;
}

export const get = <T>(path: string, signal?: AbortSignal): Promise<T> => api<T>('GET', path, undefined, signal);

/** A paged list (`?limit=&offset=`): its rows and X-Total-Count. */
export async function getPage<T>(path: string, limit: number, offset: number, signal?: AbortSignal): Promise<{ rows: T[]; total: number }> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await send('GET', `${path}${sep}limit=${limit}&offset=${offset}`, undefined, signal);
  const rows = (await readJson(res)) as T[];
  return { rows, total: Number(res.headers.get('x-total-count') ?? rows.length) };
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

/** Query string from the defined values. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
