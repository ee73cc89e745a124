import { isIP } from 'node:net';
import { fieldInvalid } from '../errors/domain-error';

/** What decides the console's origins (config/app-config.ts's fields; `listenPort` once the server listens). */
export interface ConsoleOriginSettings {
  readonly publicUrl: string;
  /** Whether PUBLIC_URL was given: its default (http://localhost:$PORT) is a guess, so the loopback names count too. */
  readonly publicUrlSet: boolean;
  readonly host: string;
  readonly port: number;
  /** The port the server listens on (PORT=0 picks one); PORT until it listens. */
  readonly listenPort?: number;
  readonly rmmCorsOrigins: readonly string[];
}

/**
 * The page origins whose WebSocket upgrades may use the console's session cookie: where the server itself is
 * reachable, and RMM_CORS_ORIGINS. With PUBLIC_URL given, its origin is the console's address; without it, the
 * default http://localhost:$PORT is only a guess, so the loopback names at the listening port are all the console's
 * (`localhost`, `127.0.0.1`, `[::1]`: the same process answers each), and so is HOST at that port when it is one
 * address rather than every one (0.0.0.0, ::).
 */
export function consoleOrigins(s: ConsoleOriginSettings): string[] {
  const own: string[] = [];
  const add = (text: string): void => {
    const origin = originOf(text);
    if (origin !== null && !own.includes(origin)) own.push(origin);
  };
  add(s.publicUrl);
  if (!s.publicUrlSet) {
    const port = s.listenPort ?? s.port;
    for (const host of ['localhost', '127.0.0.1', '[::1]']) add(`http://${host}:${port}`);
    const bound = s.host.replace(/^\[|\]$/g, '');
    if (isIP(bound) !== 0 && bound !== '0.0.0.0' && bound !== '::') add(`http://${isIP(bound) === 6 ? `[${bound}]` : bound}:${port}`);
  }
  for (const listed of s.rmmCorsOrigins) add(listed);
  return own;
}

/**
 * Whether a request's `Origin` header names a page allowed to use the console's session cookie: one of `allowed`
 * (consoleOrigins). A browser sends `Origin` on every WebSocket upgrade, so a missing one, `null` (a sandboxed page,
 * a file), several or one that is not an origin are refused: a cookie-authenticated upgrade from elsewhere is
 * cross-site WebSocket hijacking (docs/security.md). Compared as origins (scheme, host, port), so `https://x:443`
 * is `https://x`.
 */
export function originAllowed(header: string | string[] | undefined, allowed: readonly string[]): boolean {
  if (typeof header !== 'string') return false;
  const origin = originOf(header);
  return origin !== null && allowed.some((entry) => originOf(entry) === origin);
}

/** Longest Origin header text quoted back (a log line, an answer): an origin is short, anything longer is noise. */
const MAX_QUOTED = 200;

/**
 * Why a page at `header` cannot use the session cookie on the events WebSockets, and the setting that would allow
 * it: what the server logs at warn for a refused upgrade, and what the console shows instead of "reconnecting…".
 */
export function originRefusal(header: string | string[] | undefined, s: Pick<ConsoleOriginSettings, 'publicUrlSet'>, allowed: readonly string[]): string {
  const origin = typeof header === 'string' ? (originOf(header) ?? header.slice(0, MAX_QUOTED)) : null;
  const from = origin === null ? 'a page that sent no Origin' : `the page origin ${JSON.stringify(origin)}`;
  const where = `this server's console is at ${allowed.join(', ') || 'no origin'}`;
  const because = s.publicUrlSet ? 'PUBLIC_URL names it' : 'PUBLIC_URL is not set: localhost and 127.0.0.1 at the listening port';
  const fix =
    origin !== null && originOf(origin) !== null
      ? `open the console at one of those, or set PUBLIC_URL=${origin} (the address operators open) or add ${origin} to RMM_CORS_ORIGINS, and restart the server`
      : 'open the console at one of those';
  return `live updates refused for ${from}: ${where} (${because}); ${fix}`;
}

/** The origin of an http(s) URL, as browsers serialise it; null for anything else (`null`, a path, another scheme). */
export function originOf(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.origin;
}

/** What GET /api/v3/auth/origin answers: may a console page at `origin` open the events WebSockets, and if not, why. */
export interface OriginVerdict {
  origin: string;
  allowed: boolean;
  /** originRefusal's text when refused, null when allowed. */
  reason: string | null;
  /** The console's origins (consoleOrigins). */
  allowed_origins: string[];
}

/**
 * The verdict for a page origin the console names (its own `location.origin`: a browser tells the page nothing of a
 * refused upgrade but that it failed, so the console asks). 400 naming `origin` when it is not an http(s) origin.
 */
export function originVerdict(text: string, s: ConsoleOriginSettings): OriginVerdict {
  const origin = originOf(text);
  if (origin === null || text.trim().length > MAX_QUOTED) throw fieldInvalid('origin', 'must be an http:// or https:// origin (scheme, host and optional port), like http://localhost:3000');
  const allowed = consoleOrigins(s);
  const ok = originAllowed(origin, allowed);
  return { origin, allowed: ok, reason: ok ? null : originRefusal(origin, s, allowed), allowed_origins: allowed };
}
