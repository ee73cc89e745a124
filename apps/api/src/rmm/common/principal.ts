import type { FastifyRequest } from 'fastify';
import { API_KEY_SCOPES, ApiKeyEntity, ApiKeyScope, OperatorRole } from '@app/entities';
import { CommonErrorCode, DomainError } from '../../common/errors/domain-error';

/**
 * Who is calling the management backend: an API key (X-API-KEY) or a signed-in operator (the console's
 * `rmm_session` cookie). Both carry scopes (an operator's come from the role) and the clients they may see.
 */
export interface Principal {
  kind: 'api_key' | 'operator';
  /** The key's id or the operator's id (unique within its kind only: see principalKey). */
  id: number;
  /** The key's name or the operator's e-mail: what the audit log and acknowledgements show. */
  name: string;
  scopes: readonly ApiKeyScope[];
  /** The clients this caller may see and act in; null = every client. */
  clients: readonly number[] | null;
  /** When the key expires (operators: the session's end is checked per request instead). */
  expiresAt: Date | null;
  /** An API key's stored hash (the enrollment function's key is recognised by it); null for operators. */
  secretHash: string | null;
  /** An operator's session id (logout, revocation); null for keys. */
  sessionId: string | null;
  /** When the operator's session last proved who they are (sign-in or re-authentication; step-up counts from here); null for keys. */
  authenticatedAt?: Date | null;
}

/**
 * How an operator signed in, or tried to: the password alone, or with the TOTP code, a recovery code or a passkey as
 * the second factor; a passkey alone; the OpenID provider (docs/sso.md). Stored per session (`operator_sessions.method`).
 */
export type SignInMethod = 'password' | 'password+totp' | 'password+recovery_code' | 'password+passkey' | 'passkey' | 'oidc';

/**
 * A console sign-in, as the audit log records it (access/audit/audit-http.ts): the account tried (normalised e-mail,
 * null when none was given) and the method, and, once it succeeded, the operator. Never the password or the code.
 */
export interface SignInAttempt {
  email: string | null;
  method: SignInMethod;
  operator?: { id: number; email: string };
}

/** A request the guard has admitted; a sign-in carries its attempt (the guard does not run there). */
export type AuthedRequest = FastifyRequest & { principal?: Principal; signIn?: SignInAttempt };

/** One string per caller across kinds: rate-limit buckets, subscription counts. */
export const principalKey = (p: Pick<Principal, 'kind' | 'id'>): string => `${p.kind}:${p.id}`;

export function keyPrincipal(key: ApiKeyEntity): Principal {
  return {
    kind: 'api_key',
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    clients: key.clients ?? null,
    expiresAt: key.expiresAt,
    secretHash: key.secretHash,
    sessionId: null,
    authenticatedAt: null,
  };
}

/**
 * An operator's role as scopes: admin = `admin` (every scope); technician = every scope but `admin` (so not
 * keys, audit, operators, client create/delete); viewer = every `:read` scope.
 */
export const ROLE_SCOPES: Record<OperatorRole, readonly ApiKeyScope[]> = {
  admin: ['admin'],
  technician: API_KEY_SCOPES.filter((s) => s !== 'admin'),
  // (files:read is hands on a machine, not a view of the fleet: a viewer has none of terminal, files:read, files:write)
  viewer: API_KEY_SCOPES.filter((s) => s.endsWith(':read') && s !== 'files:read'),
};

/** True when the caller may see things of this client (an agent without a client: only callers without a list). */
export function canSeeClient(p: Pick<Principal, 'clients'> | undefined, clientId: number | null | undefined): boolean {
  if (!p || p.clients === null) return true;
  return clientId !== null && clientId !== undefined && p.clients.includes(clientId);
}

/** The clients filter for a list query: null = no filter; an array (maybe empty) = only those clients. */
export const clientFilter = (p: Pick<Principal, 'clients'> | undefined): readonly number[] | null => p?.clients ?? null;

/** True when the caller (a key, or an operator's role) has `scope`; `admin` has every scope. */
export const hasScope = (key: { readonly scopes: readonly ApiKeyScope[] }, scope: ApiKeyScope): boolean => key.scopes.includes('admin') || key.scopes.includes(scope);

/** 403 {detail: 'permission denied'} unless the caller has `scope` (admin has every scope). */
export function requireScope(key: { readonly scopes: readonly ApiKeyScope[] }, scope: ApiKeyScope): void {
  if (!hasScope(key, scope)) throw permissionDenied();
}

export const permissionDenied = (): DomainError => new DomainError(CommonErrorCode.Forbidden, 'permission denied');
