/**
 * Small value rules used across the surfaces, each written once: dates on the wire, UUIDs, and
 * numeric ids (path segments, agent ids as strings of digits) bounded by PostgreSQL's integer.
 */

import { AGENT_HOSTNAME_MAX, AGENT_HOSTNAME_PATTERN, PG_INT_MAX } from '@app/protocol';

// Written once in the agent protocol (libs/protocol), which the agent shares: PG_INT_MAX, the largest value of a
// PostgreSQL `integer` column (ids, counts), and the rule of an agent's hostname.
export { AGENT_HOSTNAME_MAX, AGENT_HOSTNAME_PATTERN, PG_INT_MAX };

/** A timestamp as the APIs show it: ISO 8601 UTC, or null. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

/** An id written as digits (an agent id is a string of digits on the wire): 1 to 10 digits. */
export const ID_DIGITS_PATTERN = /^\d{1,10}$/;
export const AGENT_ID_MESSAGE = 'must be an agent id (digits)';

/**
 * The id a value names (1 … PG_INT_MAX), or null when it names none: text of digits only, or a whole number
 * (the global ValidationPipe has already turned a path parameter typed `number` into one).
 */
export function parseId(value: unknown): number | null {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && ID_DIGITS_PATTERN.test(value)) n = Number(value);
  else return null;
  return Number.isInteger(n) && n >= 1 && n <= PG_INT_MAX ? n : null;
}

const UNSTORABLE_SOURCE = '\\u0000|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const UNSTORABLE = new RegExp(UNSTORABLE_SOURCE);
const UNSTORABLE_ALL = new RegExp(UNSTORABLE_SOURCE, 'g');

/**
 * Text as PostgreSQL can store it, from anyone (an agent's output, a check's message, a fact): NUL, which
 * `text` and `jsonb` refuse, and lone UTF-16 surrogates, which `jsonb` refuses (`\ud800`) and UTF-8 cannot
 * carry, each become U+FFFD (the replacement character), so a reader sees that something was there. Every
 * other character is kept.
 */
export function pgText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, '\uFFFD') : text;
}

/** An agent's hostname (the protocol's rule: AGENT_HOSTNAME_PATTERN, at most AGENT_HOSTNAME_MAX code points). */
export const isAgentHostname = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= 1 && [...value].length <= AGENT_HOSTNAME_MAX && AGENT_HOSTNAME_PATTERN.test(value);

/** A connection URL with its password replaced, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
