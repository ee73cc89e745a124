import { useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { forgetData, ME_KEY, signIn } from '../api/session';
import { PasskeySecondFactor, PasskeySignIn, type PasskeyStep } from '../components/passkey-sign-in';

/** Email and password; "Code" appears when the account has two-factor sign-in (TOTP) and asks for it. */
export function SignInPage() {
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needCode, setNeedCode] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  // Passkeys (docs/sso.md): the second factor the password sign-in asked for, when the account has passkeys.
  const [passkeyStep, setPasskeyStep] = useState<PasskeyStep | null>(null);
  const signedIn = async () => {
    forgetData(qc);
    await qc.invalidateQueries({ queryKey: ME_KEY });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const result = await signIn(email.trim(), password, needCode ? code.trim() : undefined);
    setBusy(false);
    if (result.ok) {
      await signedIn();
      return;
    }
    if (result.passkey) {
      const first = !passkeyStep;
      setPasskeyStep(result.passkey);
      if (result.totpRequired) setNeedCode(true);
      if (first) {
        setError(result.totpRequired ? 'Use your passkey, or enter the code from your authenticator app' : 'Use your passkey to finish signing in');
        return;
      }
    }
    if (result.totpRequired && !needCode) {
      setNeedCode(true);
      setError('Enter the code from your authenticator app');
      setTimeout(() => codeRef.current?.focus(), 0);
      return;
    }
    setError(result.totpRequired ? 'Invalid credentials or code' : (result.error ?? 'Invalid credentials'));
  };

  return (
    <main className="container sign-in">
      <article>
        <header>
          <h1>Sign in</h1>
          <p>RMM operator console</p>
        </header>
        <form onSubmit={(e) => void submit(e)}>
          <label>
            Email
            <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
          {needCode && (
            <label>
              Code
              <input
                ref={codeRef}
                name="totp"
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </label>
          )}
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          <button type="submit" aria-busy={busy} disabled={busy}>
            Sign in
          </button>
        </form>
        {passkeyStep && <PasskeySecondFactor email={email.trim()} password={password} step={passkeyStep} onSignedIn={signedIn} onAgain={setPasskeyStep} />}
        {!passkeyStep && <PasskeySignIn onSignedIn={signedIn} />}
      </article>
    </main>
  );
}
