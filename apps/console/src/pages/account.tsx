import { AccountPasskeys } from '../components/account-passkeys';

/** The operator's own account (minimal: passkeys; the Account page's full version adds TOTP and sessions). */
export default function AccountPage() {
  return (
    <>
      <div className="page-head">
        <h1>Account</h1>
      </div>
      <section className="panel" aria-labelledby="passkeys-h">
        <h2 id="passkeys-h">Passkeys</h2>
        <AccountPasskeys />
      </section>
    </>
  );
}
