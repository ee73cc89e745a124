import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { api, ApiError, ok } from './http';
import type { components } from './openapi';

/**
 * Passkeys in the browser (@simplewebauthn/browser; docs/sso.md, "Passkeys"): register one for the signed-in
 * operator, sign in with one alone, use one as the second factor of a password sign-in, re-authenticate (step-up).
 * Each helper throws an Error whose message the page can show as it is.
 */
export type Passkey = components['schemas']['PasskeyDto'];

interface Ceremony {
  challenge_id: string;
  options: Record<string, unknown>;
}

export const NO_PASSKEY_SUPPORT = 'This browser has no passkey support';

/** What the browser's refusal means to the operator (cancelled, no matching passkey, no support). */
function browserError(err: unknown): Error {
  if (err instanceof WebAuthnError) {
    if (err.code === 'ERROR_CEREMONY_ABORTED') return new Error('Cancelled');
    if (err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return new Error('This passkey is registered already');
    if (err.code === 'ERROR_INVALID_DOMAIN' || err.code === 'ERROR_INVALID_RP_ID') {
      return new Error(`Passkeys do not work at this address: open the console at the address PUBLIC_URL names (${err.message})`);
    }
  }
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || (err instanceof WebAuthnError && (err.cause as { name?: string } | undefined)?.name === 'NotAllowedError')) {
    return new Error('Cancelled, or no passkey was chosen');
  }
  return err instanceof Error ? err : new Error(String(err));
}

function supported(): void {
  if (!browserSupportsWebAuthn()) throw new Error(NO_PASSKEY_SUPPORT);
}

async function create(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  supported();
  try {
    return (await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON })) as unknown as Record<string, unknown>;
  } catch (err) {
    throw browserError(err);
  }
}

/** navigator.credentials.get for these options (exported for the sign-in page's second factor). */
export async function getPasskey(options: unknown): Promise<Record<string, unknown>> {
  supported();
  try {
    return (await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON })) as unknown as Record<string, unknown>;
  } catch (err) {
    throw browserError(err);
  }
}

/** The server's refusal as the page says it. */
function serverError(err: unknown): Error {
  if (err instanceof ApiError && err.status === 401) return new Error('This passkey was refused');
  return err instanceof Error ? err : new Error(String(err));
}

export function listPasskeys(): Promise<Passkey[]> {
  return ok(api.GET('/api/v3/auth/passkeys'));
}

/** Registers a passkey of this browser (or a security key, a phone) under `name`. */
export async function registerPasskey(name: string): Promise<Passkey> {
  const ceremony = (await ok(api.POST('/api/v3/auth/passkeys/options'))) as Ceremony;
  const response = await create(ceremony.options);
  return ok(api.POST('/api/v3/auth/passkeys', { body: { challenge_id: ceremony.challenge_id, name: name.trim() || undefined, response } }));
}

export function renamePasskey(id: string, name: string): Promise<Passkey> {
  return ok(api.PATCH('/api/v3/auth/passkeys/{id}', { params: { path: { id } }, body: { name } }));
}

export async function removePasskey(id: string): Promise<void> {
  await ok(api.DELETE('/api/v3/auth/passkeys/{id}', { params: { path: { id } } }));
}

/** Signs in with a passkey alone (the browser offers the passkeys it has for this site); the session cookie is set. */
export async function signInWithPasskey(): Promise<void> {
  const ceremony = (await ok(api.POST('/api/v3/auth/passkeys/sign-in/options'))) as Ceremony;
  const response = await getPasskey(ceremony.options);
  await ok(api.POST('/api/v3/auth/passkeys/sign-in', { body: { challenge_id: ceremony.challenge_id, response } })).catch((err: unknown) => {
    throw serverError(err);
  });
}

/**
 * Re-authenticates the current session with a passkey (the step-up dialog calls it); throws an Error with the
 * reason when it cannot (no passkey registered, cancelled, refused).
 */
export async function passkeyStepUp(): Promise<void> {
  const ceremony = (await ok(api.POST('/api/v3/auth/passkeys/step-up/options'))) as Ceremony;
  const response = await getPasskey(ceremony.options);
  await ok(api.POST('/api/v3/auth/passkeys/step-up', { body: { challenge_id: ceremony.challenge_id, response } })).catch((err: unknown) => {
    throw serverError(err);
  });
}
