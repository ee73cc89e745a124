import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/http';
import { useSignOut } from '../api/session';
import { AccountPasskeys } from '../components/account-passkeys';
import { CopyButton, ErrorNote, Loading, Section } from '../components/bits';
import { ago, when } from '../components/format';

const ACCOUNT_KEY = ['auth', 'account'] as const;
const SESSIONS_KEY = ['auth', 'sessions'] as const;

/** How a session signed in, as a person reads it. */
const HOW: Record<string, string> = {
  password: 'Password',
  'password+totp': 'Password + code',
  'password+recovery_code': 'Password + recovery code',
  'password+passkey': 'Password + passkey',
  passkey: 'Passkey',
  oidc: 'Single sign-on',
};

/** "Firefox on Linux" out of a User-Agent: enough to recognise one's own browsers, not a full parser. */
function shortUserAgent(ua: string | null): string {
  if (!ua) return 'unknown';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /curl\//.test(ua)
              ? 'curl'
              : ua.split(/[\s/]/)[0] || 'unknown';
  const os = /Windows/.test(ua) ? 'Windows' : /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X|Macintosh/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : null;
  return os ? `${browser} on ${os}` : browser;
}

/** The signed-in operator's own account: two-factor, passkeys, and the sessions signed in (docs/sso.md). */
export default function AccountPage() {
  const account = useQuery({ queryKey: ACCOUNT_KEY, queryFn: () => ok(api.GET('/api/v3/auth/me')) });
  return (
    <>
      <div className="page-head">
        <h1>Account</h1>
        {account.data && <p className="muted">{account.data.operator.email}</p>}
      </div>
      <Totp totpOn={account.data?.totp} loading={account.isPending} error={account.error} />
      <Section id="passkeys" title="Passkeys">
        <AccountPasskeys />
      </Section>
      <Sessions />
    </>
  );
}

function Totp({ totpOn, loading, error }: { totpOn: boolean | undefined; loading: boolean; error: unknown }) {
  const qc = useQueryClient();
  const change = useMutation({
    mutationFn: async (on: boolean) => (on ? ok(api.POST('/api/v3/auth/totp')) : (await ok(api.DELETE('/api/v3/auth/totp')), null)),
    onSettled: () => void qc.invalidateQueries({ queryKey: ACCOUNT_KEY }),
  });
  return (
    <Section id="totp" title="Two-factor (TOTP)">
      {loading ? (
        <Loading what="your account" />
      ) : (
        <>
          <ErrorNote error={error ?? change.error} />
          <p>{totpOn ? 'On: signing in with your password also asks for a code from your authenticator app.' : 'Off: your password alone signs you in.'}</p>
          <div className="actions">
            <button type="button" className={totpOn ? 'secondary outline' : undefined} disabled={change.isPending} onClick={() => change.mutate(true)}>
              {totpOn ? 'Set up again (new secret)' : 'Set up TOTP'}
            </button>
            {totpOn && (
              <button type="button" className="secondary outline" disabled={change.isPending} onClick={() => change.mutate(false)}>
                Remove TOTP
              </button>
            )}
          </div>
          {change.data && (
            <div className="created" role="status">
              <p>Two-factor sign-in set up. Add this URI to an authenticator app (most accept it pasted as a setup key); it and the recovery codes are shown only this once.</p>
              <div className="command">
                <span className="command-label">URI</span>
                <code>{change.data.otpauth_uri}</code>
                <CopyButton text={change.data.otpauth_uri} label="the otpauth URI" />
              </div>
              <div className="command">
                <span className="command-label">Recovery codes</span>
                <code>{change.data.recovery_codes.join(' ')}</code>
                <CopyButton text={change.data.recovery_codes.join('\n')} label="the recovery codes" />
              </div>
            </div>
          )}
        </>
      )}
    </Section>
  );
}

function Sessions() {
  const qc = useQueryClient();
  const signOut = useSignOut();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => ok(api.GET('/api/v3/auth/sessions')) });
  const refresh = () => void qc.invalidateQueries({ queryKey: SESSIONS_KEY });
  const end = useMutation({
    mutationFn: async (s: { id: string; current: boolean }) => {
      await ok(api.DELETE('/api/v3/auth/sessions/{id}', { params: { path: { id: s.id } } }));
      return s.current;
    },
    onSuccess: (wasCurrent) => (wasCurrent ? void signOut() : refresh()),
  });
  const others = useMutation({ mutationFn: () => ok(api.DELETE('/api/v3/auth/sessions')), onSuccess: refresh });
  const hasOthers = (sessions.data ?? []).some((s) => !s.current);
  return (
    <Section
      id="sessions"
      title="Sessions"
      actions={
        <button type="button" className="secondary outline small" disabled={!hasOthers || others.isPending} onClick={() => others.mutate()}>
          Sign out everywhere else
        </button>
      }
    >
      <ErrorNote error={sessions.error ?? end.error ?? others.error} />
      {others.data && (
        <p role="status">
          {others.data.ended} other {others.data.ended === 1 ? 'session' : 'sessions'} ended.
        </p>
      )}
      {sessions.isPending ? (
        <Loading what="sessions" />
      ) : sessions.data ? (
        <div className="table-scroll" tabIndex={0}>
          <table className="striped">
            <thead>
              <tr>
                <th scope="col">Where</th>
                <th scope="col">Browser</th>
                <th scope="col">How</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((s) => (
                <tr key={s.id}>
                  <td>
                    {s.address ?? 'unknown'}
                    {s.current && (
                      <>
                        {' '}
                        <small className="badge">This session</small>
                      </>
                    )}
                  </td>
                  <td title={s.user_agent ?? undefined}>{shortUserAgent(s.user_agent)}</td>
                  <td>{HOW[s.method] ?? s.method}</td>
                  <td>{when(s.created_at)}</td>
                  <td>{ago(s.last_seen_at)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="small secondary outline"
                      disabled={end.isPending}
                      aria-label={s.current ? 'End this session (sign out)' : `End the session of ${shortUserAgent(s.user_agent)} from ${s.address ?? 'unknown'}`}
                      onClick={() => end.mutate(s)}
                    >
                      End
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Section>
  );
}
