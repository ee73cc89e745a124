import type { IncomingHttpHeaders } from 'node:http';

/** The console's session cookie (HttpOnly, SameSite=Strict, Path=/, Secure when PUBLIC_URL is https). */
export const SESSION_COOKIE = 'rmm_session';
/** The header every cookie-authenticated change must carry (a page of another site cannot set it: CSRF). */
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_HEADER_VALUE = 'rmm-console';

/** What a session token looks like (32 random bytes, base64url): anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session token a request carries in its Cookie header (RFC 6265 `name=value; name=value`), if any. Only our
 * own cookie is read, and only a value of our token's shape (so nothing needs decoding): a few lines, not a library
 * (the `cookie` package's current major is ESM-only and needs Node 22).
 */
export function sessionTokenOf(headers: IncomingHttpHeaders): string | undefined {
  const raw = headers.cookie;
  if (!raw || raw.length > 8192) return undefined;
  for (const pair of raw.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(eq + 1).trim();
    if (TOKEN.test(value)) return value;
  }
  return undefined;
}

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** True for methods that change something (a cookie-authenticated one needs the CSRF header). */
export const isChange = (method: string | undefined): boolean => !['GET', 'HEAD', 'OPTIONS'].includes((method ?? 'GET').toUpperCase());

export function hasCsrfHeader(headers: IncomingHttpHeaders): boolean {
  const h = headers[CSRF_HEADER];
  return (Array.isArray(h) ? h[0] : h) === CSRF_HEADER_VALUE;
}
