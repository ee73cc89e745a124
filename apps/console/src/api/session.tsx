import { createContext, useContext, type ReactNode } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, ok } from './http';
import type { Operator, Scope } from './schemas';

/**
 * The signed-in operator, or null. GET /api/v3/auth/session answers 200 {signed_in: false} without a session,
 * so a signed-out visit logs no failed request in the browser's console (GET /auth/me would be a 401).
 */
async function fetchMe(): Promise<Operator | null> {
  const { operator } = await ok(api.GET('/api/v3/auth/session'));
  return operator;
}

export const ME_KEY = ['auth', 'me'] as const;

export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000, retry: 1 });
}

export interface Session {
  operator: Operator;
  /** What the operator may do: the scope, or admin (every scope). */
  can: (scope: Scope) => boolean;
  isAdmin: boolean;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ operator, children }: { operator: Operator; children: ReactNode }) {
  const isAdmin = operator.scopes.includes('admin');
  const value: Session = { operator, isAdmin, can: (scope) => isAdmin || operator.scopes.includes(scope) };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}

export interface SignInResult {
  ok: boolean;
  totpRequired?: boolean;
  /** The password was right and the account has passkeys: the ceremony to run for the second factor (api/passkeys.ts). */
  passkey?: { options: unknown; challengeId: string };
  error?: string;
}

export async function signIn(email: string, password: string, totp?: string, passkey?: { challenge_id: string; response: Record<string, unknown> }): Promise<SignInResult> {
  try {
    await ok(api.POST('/api/v3/auth/login', { body: { email, password, ...(totp ? { totp } : {}), ...(passkey ? { passkey } : {}) } }));
    return { ok: true };
  } catch (err) {
    if (err instanceof ApiError) {
      const body = err.body as { totp_required?: boolean; passkey_required?: boolean; passkey_options?: unknown; challenge_id?: string } | undefined;
      const passkey = body?.passkey_required && body.challenge_id ? { passkey: { options: body.passkey_options, challengeId: body.challenge_id } } : {};
      if (err.status === 401) return { ok: false, totpRequired: body?.totp_required === true, ...passkey, error: err.detail };
      if (err.status === 429) return { ok: false, error: 'Too many sign-in attempts: wait a few minutes and try again' };
      return { ok: false, error: err.detail };
    }
    return { ok: false, error: 'The server cannot be reached' };
  }
}

/**
 * Forgets everything read for the operator before (another may sign in next in this tab). The session query
 * itself is kept and set, not removed: its observer would otherwise keep watching the removed one.
 */
export function forgetData(qc: QueryClient): void {
  qc.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
}

export function useSignOut(): () => Promise<void> {
  const qc = useQueryClient();
  return async () => {
    await ok(api.POST('/api/v3/auth/logout')).catch(() => undefined);
    qc.setQueryData(ME_KEY, null);
    forgetData(qc);
  };
}
