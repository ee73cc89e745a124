import { useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/http';
import { forgetData, ME_KEY, signIn } from '../api/session';
import { PasskeySecondFactor, PasskeySignIn, type PasskeyStep } from '../components/passkey-sign-in';

/** What the sign-in page says for `/app/sign-in?error=<code>` (a failed single sign-on: docs/sso.md, "Error codes"). */
const SSO_ERRORS: Record<string, string> = {
  no_access: 'Your account has no access to this console (no mapped group). Ask an administrator to add you to one of its groups at the provider.',
  email_in_use: 'Single sign-on refused: an operator with this e-mail exists here. An administrator can allow the link (operator link-oidc), then sign in again.',
  disabled: 'This operator is disabled.',
  state_mismatch: 'The sign-in expired or was begun in another browser or tab: try again.',
  no_email: 'The provider gave no e-mail address for your account.',
  provider_refused: 'The provider did not sign you in.',
  step_up_mismatch: 'The provider account is not the operator signed in here.',
  not_configured: 'Single sign-on is not set up on this server.',
  rate_limited: 'Too many sign-ins were begun from this address: wait a minute and try again.',
  oidc_failed: 'Single sign-on failed: try again, or ask an administrator to look at the server log.',
};

/** The page to come back to after a provider sign-in: this one, unless it is the sign-in page itself. */
function returnTo(): string {
  const here = `${window.location.pathname}${window.location.search}`;
  return here.startsWith('/app/') && !here.startsWith('/app/sign-in') ? here : '/app/agents';
}

/**
 * The sign-in page: "Sign in with <provider>" when single sign-on is set up, then the password form (email,
 * password, and "Code" when the account has TOTP), folded away under "Break-glass sign-in" when password sign-in
 * is turned off for everyone but break-glass operators.
 */
export function SignInPage() {
  const methods = useQuery({ queryKey: ['auth', 'methods'], queryFn: () => ok(api.GET('/api/v3/auth/methods')), staleTime: 300_000, retry: 1 });
  const errorCode = new URLSearchParams(window.location.search).get('error');
  const ssoError = errorCode ? (SSO_ERRORS[errorCode] ?? SSO_ERRORS.oidc_failed) : undefined;
  const oidc = methods.data?.oidc ?? null;
  const passwordOn = methods.data?.password ?? true;

  return (
    <main className="container sign-in">
      <article>
        <header>
          <h1>Sign in</h1>
          <p>RMM operator console</p>
        </header>
        {ssoError && (
          <p role="alert" className="error">
            {ssoError}
          </p>
        )}
        {oidc && (
          <p>
            <a role="button" className="sign-in-sso" href={`/api/v3/auth/oidc/login?return_to=${encodeURIComponent(returnTo())}`}>
              Sign in with {oidc.button}
            </a>
          </p>
        )}
        <PasskeySignInButton />
        {passwordOn ? (
          <PasswordForm />
        ) : (
          <details>
            <summary>Break-glass sign-in</summary>
            <p>Password sign-in is turned off here but for break-glass operators.</p>
            <PasswordForm />
          </details>
        )}
      </article>
    </main>
  );
}

/** "Sign in with a passkey" (a discoverable credential: no e-mail asked; docs/sso.md, "Passkeys"). */
function PasskeySignInButton() {
  const qc = useQueryClient();
  return (
    <PasskeySignIn
      onSignedIn={async () => {
        forgetData(qc);
        await qc.invalidateQueries({ queryKey: ME_KEY });
      }}
    />
  );
}

/** Email and password; "Code" appears when the account has two-factor sign-in (TOTP) and asks for it. */
function PasswordForm() {
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
    <>
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
            <input ref={codeRef} name="totp" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
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
    </>
  );
}
