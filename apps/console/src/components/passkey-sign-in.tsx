import { useState } from 'react';
import { getPasskey, signInWithPasskey } from '../api/passkeys';
import { signIn } from '../api/session';

/** "Sign in with a passkey": the browser offers the passkeys it holds for this site; no e-mail or password. */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const start = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await signInWithPasskey();
      await onSignedIn();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="passkey-sign-in">
      <button type="button" className="secondary" aria-busy={busy} disabled={busy} onClick={() => void start()}>
        Sign in with a passkey
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The ceremony the password sign-in asked for (401 passkey_required). */
export interface PasskeyStep {
  options: unknown;
  challengeId: string;
}

/**
 * The second factor with a passkey, after a right password: "Use your passkey" runs the ceremony the server began
 * and signs in with the password and the passkey's answer. A refusal comes back with a new ceremony (`onAgain`).
 */
export function PasskeySecondFactor({
  email,
  password,
  step,
  onSignedIn,
  onAgain,
}: {
  email: string;
  password: string;
  step: PasskeyStep;
  onSignedIn: () => Promise<void>;
  onAgain: (next: PasskeyStep | null) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const use = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const response = await getPasskey(step.options);
      const result = await signIn(email, password, undefined, { challenge_id: step.challengeId, response });
      if (result.ok) {
        await onSignedIn();
        return;
      }
      setError(result.passkey ? 'This passkey was refused' : (result.error ?? 'Invalid credentials'));
      onAgain(result.passkey ?? null);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="passkey-second-factor">
      <button type="button" aria-busy={busy} disabled={busy} onClick={() => void use()}>
        Use your passkey
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
