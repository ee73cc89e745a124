import { pathStartsWith } from '../common/errors/error-surfaces';

/** The console's pages and assets. */
export const isConsolePath = pathStartsWith('/app');

/**
 * The console's Content-Security-Policy: everything from this origin only, no inline script or style element,
 * no plugin, no framing. `connect-src 'self'` covers the page's fetches and its WebSockets to this origin
 * (CSP 3: 'self' matches ws: and wss: on the same host and port). Images: Pico CSS draws its form icons as
 * data: SVGs.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
