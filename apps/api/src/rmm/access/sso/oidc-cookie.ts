import type { IncomingHttpHeaders } from 'node:http';

const NAME = 'rmm_oidc';
const PATH = '/api/v3/auth/oidc';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The `rmm_oidc` cookie: the id of the sign-in begun in this browser (auth_challenges), so a callback whose state
 * was begun elsewhere (a forged or tampered one) finds nothing. SameSite=Lax: the provider's redirect back is a
 * cross-site top-level navigation, which Strict would strip. Only the callback's path sees it.
 */
export const OidcFlightCookie = {
  set: (challengeId: string, maxAgeSeconds: number, secure: boolean): string => `${NAME}=${challengeId}; Max-Age=${maxAgeSeconds}; Path=${PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  clear: (secure: boolean): string => `${NAME}=; Max-Age=0; Path=${PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  of(headers: IncomingHttpHeaders): string | undefined {
    const raw = headers.cookie;
    if (!raw || raw.length > 8192) return undefined;
    for (const pair of raw.split(';')) {
      const eq = pair.indexOf('=');
      if (eq < 0 || pair.slice(0, eq).trim() !== NAME) continue;
      const value = pair.slice(eq + 1).trim();
      if (UUID.test(value)) return value;
    }
    return undefined;
  },
};
