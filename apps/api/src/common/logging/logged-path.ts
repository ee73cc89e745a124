/**
 * Paths whose rest is a credential: a deployment's download URL (`/deploy/{uuid}`: the uuid is the installer's
 * enrollment token, docs/enrolling.md "treat the file like a password"). Matched without regard to case, so a
 * request that misses the route (404) is redacted too.
 */
const CREDENTIAL_PATH = /^\/deploy\//i;
/** How much of a credential a log line keeps: enough to tell two apart, too little to use. */
export const SHOWN_CREDENTIAL_CHARS = 8;

/**
 * A request's URL as log lines show it: without its query string (where keys and tokens travel), and with the
 * credential of a path that carries one cut to its first 8 characters and `…` (`/deploy/3f2a9c1e…`), as every
 * other secret is kept out of the log (logger.ts). Every line that names a request's path uses this: the access
 * log, the refusal and fault lines.
 */
export function loggedPath(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const m = CREDENTIAL_PATH.exec(path);
  if (!m) return path;
  const secret = path.slice(m[0].length);
  return secret.length === 0 ? path : `${path.slice(0, m[0].length)}${secret.slice(0, SHOWN_CREDENTIAL_CHARS)}…`;
}
