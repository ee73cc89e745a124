import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError, errorText, ok } from '../api/http';
import { passkeyStepUp } from '../api/passkeys';
import { onStepUp, StepUpCancelled } from '../api/step-up';

type Me = Awaited<ReturnType<typeof fetchAccount>>;

async function fetchAccount() {
  const [me, methods] = await Promise.all([ok(api.GET('/api/v3/auth/me')), ok(api.GET('/api/v3/auth/methods'))]);
  return { ...me, oidcButton: methods.oidc?.button ?? null };
}

/** The page the operator is on, to come back to after the provider's round trip (only under /app/). */
const here = (): string => `${window.location.pathname}${window.location.search}`;

/**
 * "Confirm it's you" (docs/sso.md, "Step-up"): opened when a dangerous action answers 401 {step_up: true}. It offers
 * the methods the operator's account has: the password (and its code when TOTP is on), a passkey, the OpenID
 * provider (a round trip: the page comes back, and the action is done again by hand). Confirmed, the refused
 * request is sent again; cancelled, it fails with a message saying why.
 */
export function StepUpDialog() {
  const qc = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const waiting = useRef<{ resolve: () => void; reject: (e: Error) => void } | null>(null);
  const [open, setOpen] = useState(false);
  const [account, setAccount] = useState<Me | null>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needCode, setNeedCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    onStepUp(
      () =>
        new Promise<void>((resolve, reject) => {
          waiting.current = { resolve, reject };
          setPassword('');
          setCode('');
          setError(null);
          setNeedCode(false);
          setAccount(null);
          setOpen(true);
          fetchAccount().then(
            (a) => {
              setAccount(a);
              setNeedCode(a.totp);
            },
            (err: unknown) => setError(errorText(err)),
          );
        }),
    );
    return () => onStepUp(undefined);
  }, []);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  const finish = (err?: Error) => {
    const w = waiting.current;
    waiting.current = null;
    setOpen(false);
    if (err) w?.reject(err);
    else {
      void qc.invalidateQueries({ queryKey: ['auth', 'account'] });
      w?.resolve();
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await ok(api.POST('/api/v3/auth/reauth', { body: { password, ...(code.trim() ? { totp: code.trim() } : {}) } }));
      finish();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        const totpRequired = (err.body as { totp_required?: boolean } | undefined)?.totp_required === true;
        if (totpRequired) setNeedCode(true);
        setError(totpRequired && !code.trim() ? 'Enter the code from your authenticator app (or a recovery code)' : 'That did not match: check the password and the code');
      } else if (err instanceof ApiError && err.status === 429) {
        setError('Too many attempts: wait a few minutes and try again');
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const withPasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      await passkeyStepUp();
      finish();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={dialog} aria-labelledby="step-up-title" aria-describedby="step-up-why" onCancel={(e) => (e.preventDefault(), finish(new StepUpCancelled()))}>
      {open && (
        <article>
          <header>
            <h2 id="step-up-title">Confirm it's you</h2>
          </header>
          <p id="step-up-why">This action needs a recent sign-in. Confirm who you are and it goes on where you left it.</p>
          {!account && !error && <p aria-busy="true">Loading…</p>}
          {account?.has_password && (
            <form onSubmit={(e) => void submit(e)}>
              <label>
                Password
                <input type="password" autoComplete="current-password" required autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
              </label>
              {needCode && (
                <label>
                  Code (authenticator app or a recovery code)
                  <input inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
                </label>
              )}
              <button type="submit" aria-busy={busy} disabled={busy}>
                Confirm
              </button>
            </form>
          )}
          {account && account.passkeys > 0 && (
            <button type="button" className="secondary" disabled={busy} onClick={() => void withPasskey()}>
              Use a passkey
            </button>
          )}
          {account?.sso && account.oidcButton && (
            <p>
              <a role="button" className="secondary outline" href={`/api/v3/auth/oidc/login?step_up=1&return_to=${encodeURIComponent(here())}`}>
                Continue with {account.oidcButton}
              </a>
            </p>
          )}
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          <footer>
            <button type="button" className="secondary outline" onClick={() => finish(new StepUpCancelled())}>
              Cancel
            </button>
          </footer>
        </article>
      )}
    </dialog>
  );
}
