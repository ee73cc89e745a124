import type { AuditActorKind, AuditChanges } from '@app/entities';

/** What the audit service writes: one row of audit_log, before it has an id. */
export interface AuditEntry {
  at: Date;
  actorKind: AuditActorKind;
  actorId: string | null;
  actorName: string | null;
  method: string | null;
  action: string;
  target: string;
  clientAddress: string | null;
  status: number | null;
  outcome: string;
  requestId: string | null;
  /** Before and after, for the changes whose service notes them (AuditService.noteChanges). */
  changes?: AuditChanges | null;
}

export const AUDITED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type AuditedMethod = (typeof AUDITED_METHODS)[number];

/** Stored text is bounded (a path can be long; nobody needs more than this to review it). */
export const MAX_TARGET_LENGTH = 1000;

/** Which surface a route pattern belongs to, when its mutating calls are audited. */
export function auditedSurface(pattern: string | undefined): 'rmm' | 'platform-admin' | undefined {
  if (!pattern) return undefined; // no route matched: a 404 from the router, not a call to anything
  if (pattern === '/api/v3' || pattern.startsWith('/api/v3/')) return 'rmm';
  if (pattern.startsWith('/auth/v1/admin/')) return 'platform-admin';
  return undefined;
}

export const isAuditedMethod = (method: string): method is AuditedMethod => (AUDITED_METHODS as readonly string[]).includes(method);

/**
 * The action as the README names it: the method and the route pattern with `{param}` placeholders, and the
 * trailing slash /api/v3 paths are documented with (`DELETE /api/v3/clients/{id}/`).
 */
export function routeAction(method: string, pattern: string): string {
  let path = pattern.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  if (path.startsWith('/api/v3') && !path.endsWith('/')) path += '/';
  return `${method} ${path}`;
}

/** The path as requested, without the query string (the data platform accepts `apikey` there). */
export function requestedPath(url: string): string {
  const path = url.split('?')[0];
  return path.length > MAX_TARGET_LENGTH ? path.slice(0, MAX_TARGET_LENGTH) : path;
}

/** CLI flags whose values are safe to keep; every other flag's value is replaced (a password, a typo of one). */
const KEPT_FLAGS = new Set(['--name', '--scopes', '--clients', '--expires-in', '--email', '--client', '--site']);
const REDACTED = '[redacted]';

/**
 * The CLI arguments without secrets: flag names are kept, a value only for the known harmless flags, and
 * positional arguments only when they are ids. `user create --email a@b.c --password p` gives
 * `--email a@b.c --password [redacted]`.
 */
export function cliTarget(args: readonly string[]): string {
  const text = splitCliArgs(args)
    .map((a) => a.shown)
    .join(' ');
  return text.length > MAX_TARGET_LENGTH ? text.slice(0, MAX_TARGET_LENGTH) : text;
}

/**
 * The CLI outcome: `ok`, or `error: <message>` (first line, bounded), with any value the target redacts
 * taken out of the message as well (a parser may echo what it was given).
 */
export function cliOutcome(args: readonly string[], error?: unknown): string {
  if (error === undefined) return 'ok';
  let message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  for (const { hidden } of splitCliArgs(args)) {
    if (hidden) message = message.split(hidden).join(REDACTED);
  }
  return `error: ${message.slice(0, 500)}`;
}

/** One argument as the audit shows it, and the value it hides (if any). */
interface CliArg {
  shown: string;
  hidden?: string;
}

function splitCliArgs(args: readonly string[]): CliArg[] {
  const out: CliArg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      out.push(/^\d{1,10}$/.test(arg) ? { shown: arg } : { shown: REDACTED, hidden: arg });
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const kept = KEPT_FLAGS.has(flag);
    if (eq !== -1) {
      const value = arg.slice(eq + 1);
      out.push(kept ? { shown: arg } : { shown: `${flag}=${REDACTED}`, hidden: value });
      continue;
    }
    out.push({ shown: flag });
    const value = args[i + 1];
    if (value !== undefined && !value.startsWith('--')) {
      out.push(kept ? { shown: value } : { shown: REDACTED, hidden: value });
      i++;
    }
  }
  return out;
}
