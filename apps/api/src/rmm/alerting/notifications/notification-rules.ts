import { AlertSeverity, eventsNeverSent, NOTIFICATION_EVENT_SEVERITY, NotificationEvent } from '@app/entities';
import { fieldInvalid } from '../../../common/errors/domain-error';
import { isPrivateAddress, literalAddress } from './address-guard';
import { MAX_HEADERS } from './notifications.dto';

/** A header name: an HTTP token (RFC 9110), at most 64 characters. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
/** A header value: visible ASCII, spaces and tabs, at most 2,048 characters (no CR, LF or NUL: no header injection). */
const HEADER_VALUE = /^[\x20-\x7e\t]{0,2048}$/;
/** What the server sets itself, what HTTP/1.1 owns (hop-by-hop), and our own namespace. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'user-agent', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-authorization', 'proxy-connection']);
/** A plain e-mail address (no display name, no comments): what nodemailer sends to without interpreting it. */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/**
 * A channel URL: http(s), a host, no fragment. With private addresses not allowed, an address literal in a private,
 * loopback or link-local range and `localhost` are refused here already (400); names are checked again, resolved,
 * at every delivery (address-guard.ts).
 */
export function checkUrl(value: string, allowPrivate: boolean): string {
  const url = value.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fieldInvalid('url', 'must be an http:// or https:// URL');
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname) throw fieldInvalid('url', 'must be an http:// or https:// URL');
  if (!allowPrivate) {
    const host = parsed.hostname.toLowerCase();
    const literal = literalAddress(host);
    if ((literal !== null && isPrivateAddress(literal)) || host === 'localhost' || host.endsWith('.localhost')) {
      throw fieldInvalid('url', 'points to a private, loopback or link-local address (allowed only with RMM_NOTIFY_ALLOW_PRIVATE=true)');
    }
  }
  return url;
}

export function checkRecipients(to: string[]): string[] {
  const clean = to.map((a) => (typeof a === 'string' ? a.trim() : a));
  const bad = clean.find((a) => typeof a !== 'string' || a.length > 254 || !EMAIL.test(a));
  if (bad !== undefined) throw fieldInvalid('to', `not an e-mail address: ${JSON.stringify(String(bad).slice(0, 80))}`);
  return [...new Set(clean)];
}

/** Extra headers: a bounded object of string → string with safe names (see RESERVED_HEADERS) and values. */
export function checkHeaders(headers: Record<string, unknown>): Record<string, string> {
  if (Array.isArray(headers)) throw fieldInvalid('headers', 'must be an object of header name → value');
  const entries = Object.entries(headers);
  if (entries.length > MAX_HEADERS) throw fieldInvalid('headers', `at most ${MAX_HEADERS} headers`);
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw fieldInvalid('headers', `not a header name: ${JSON.stringify(name.slice(0, 80))}`);
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('x-rmm-') || lower.startsWith('proxy-')) throw fieldInvalid('headers', `${name} is set by the server and cannot be given`);
    if (seen.has(lower)) throw fieldInvalid('headers', `${name} is given twice`);
    seen.add(lower);
    if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      throw fieldInvalid('headers', `the value of ${name} must be text of at most 2048 visible ASCII characters`);
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/**
 * Refuses a channel that lists an event its min_severity always drops (issue 29: agent.online or
 * enrollment.completed under warning were accepted and never sent): 400 naming each with its severity. agent.online
 * listed with agent.offline can fire, as the recovery of each offline the channel was sent (eventsNeverSent).
 */
export function checkEventsCanFire(events: readonly NotificationEvent[], minSeverity: AlertSeverity): void {
  const never = eventsNeverSent(events, minSeverity);
  if (never.length === 0) return;
  const named = never.map((e) => `${e} (${NOTIFICATION_EVENT_SEVERITY[e]})`).join(', ');
  throw fieldInvalid(
    'events',
    `${named} can never be sent at min_severity ${minSeverity}: lower min_severity or leave ${never.length === 1 ? 'it' : 'them'} out` +
      (never.includes('agent.online') ? ' (agent.online is also sent, whatever min_severity, after each agent.offline of the channel it recovers)' : ''),
  );
}
