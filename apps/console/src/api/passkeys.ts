/**
 * Passkeys in the browser (@simplewebauthn/browser; docs/sso.md, "Passkeys"). Placeholder of the foundation commit:
 * the passkeys work replaces it. `passkeyStepUp` re-authenticates the current session with a passkey (the step-up
 * dialog calls it) and throws an Error with the reason when it cannot.
 */
export async function passkeyStepUp(): Promise<void> {
  await Promise.resolve();
  throw new Error('passkeys are not available yet');
}
