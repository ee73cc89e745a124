import type { OidcConfig, OidcRole } from '../../../config/app-config';
import { OIDC_ROLE_ORDER } from '../../../config/app-config';

/** Why a provider sign-in ended on the sign-in page (`/app/sign-in?error=<code>`): a word, never the provider's text. */
export type OidcFailureCode = 'oidc_failed' | 'state_mismatch' | 'no_access' | 'email_in_use' | 'no_email' | 'disabled' | 'not_configured' | 'provider_refused' | 'step_up_mismatch' | 'rate_limited';

/** A refused provider sign-in: `code` goes in the URL, `reason` (never a token or secret) in the log only. */
export class OidcFailure extends Error {
  constructor(
    readonly code: OidcFailureCode,
    readonly reason?: string,
  ) {
    super(code);
  }
}

/** What the user's groups give: the highest mapped role (null = no access) and the clients (null = every client). */
export interface Mapped {
  role: OidcRole | null;
  clients: number[] | null;
}

/** The groups claim as a list: an array of strings, or a single string; anything else is no group. */
export function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim)) return claim.filter((g): g is string => typeof g === 'string');
  return [];
}

/**
 * RMM_OIDC_ROLE_MAP and RMM_OIDC_CLIENT_MAP applied to a user's groups (docs/sso.md, "Mapping"): the highest role
 * any group maps to; the union of the clients of every client-map group the user is in, or every client when the
 * user is in none of them.
 */
export function mapGroups(groups: readonly string[], config: Pick<OidcConfig, 'roleMap' | 'clientMap'>): Mapped {
  let rank = -1;
  const clients = new Set<number>();
  let limited = false;
  for (const group of groups) {
    const role = config.roleMap.get(group);
    if (role !== undefined) rank = Math.max(rank, OIDC_ROLE_ORDER.indexOf(role));
    const ids = config.clientMap.get(group);
    if (ids !== undefined) {
      limited = true;
      for (const id of ids) clients.add(id);
    }
  }
  return { role: rank < 0 ? null : OIDC_ROLE_ORDER[rank], clients: limited ? [...clients].sort((a, b) => a - b) : null };
}

/** Where to go after sign-in: a console path (`/app/…`, no `//`, no backslash, no control character), else `/app/`. */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 1000) return '/app/';
  if (!value.startsWith('/app/') || value.includes('//') || value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return '/app/';
  if (value.startsWith('/app/sign-in')) return '/app/';
  return value;
}
