/**
 * Whether a request's `Origin` header names a page allowed to use the console's session cookie: the server's own
 * origin (that of `PUBLIC_URL`) or one listed in `RMM_CORS_ORIGINS` (already origins: config/app-config.ts).
 * A browser sends `Origin` on every WebSocket upgrade, so a missing one, `null` (a sandboxed page, a file), several
 * or one that is not an origin are refused: a cookie-authenticated upgrade from elsewhere is cross-site WebSocket
 * hijacking (docs/security.md). Compared as origins (scheme, host, port), so `https://x:443` is `https://x`.
 */
export function originAllowed(header: string | string[] | undefined, publicUrl: string, listed: readonly string[]): boolean {
  if (typeof header !== 'string') return false;
  const origin = originOf(header);
  if (origin === null) return false;
  return origin === originOf(publicUrl) || listed.some((entry) => originOf(entry) === origin);
}

/** The origin of an http(s) URL, as browsers serialise it; null for anything else (`null`, a path, another scheme). */
function originOf(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.origin;
}
