import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { createOperator } from '../utils/operators';
import { ROOT } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * Passkeys in the console (docs/sso.md, "Passkeys"), in Debian's Chromium with its virtual authenticator (CDP
 * WebAuthn.addVirtualAuthenticator: internal, resident keys, user verification): an operator signs in with the
 * password, adds a passkey on the Account page, signs out and signs in with "Sign in with a passkey" alone; a cloned
 * credential (the same key with a lower signature counter) is refused and the page says so; then the password asks
 * for the passkey as the second factor ("Use your passkey"). WebAuthn needs a secure
 * context and a domain as RP id, so the page is opened at http://localhost:<port> and PUBLIC_URL names that origin.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const PASSWORD = 'correct horse battery staple';
const EMAIL = 'keys@console-passkeys.test';

type Credential = { credentialId: string; isResidentCredential: boolean; rpId: string; privateKey: string; userHandle: string; signCount: number };

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the console: passkeys', () => {
    it.skip('registers a passkey, signs in with it alone, refuses a cloned one (needs Chromium)', () => undefined);
  });
} else {
  describe('the console: passkeys', () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      t = await startTestApp({ RMM_RATE_LIMIT_PER_MINUTE: '100000' });
      // The relying party is PUBLIC_URL's host: localhost (Chromium refuses an IP address as an RP id).
      base = t.url.replace('127.0.0.1', 'localhost');
      t.server.runtime.publicUrl = base;
      await createOperator(t, EMAIL, 'technician', { password: PASSWORD });
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    }, 180_000);

    afterAll(async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      await t?.close();
    });

    /** A page with a virtual platform authenticator that verifies the user without asking. */
    const newPage = async (): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
      return { page, cdp, authenticatorId };
    };

    it('adds a passkey on the Account page, then signs in with it alone; a cloned credential with a lower counter is refused', async () => {
      const { page, cdp, authenticatorId } = await newPage();
      await page.goto(`${base}/app/`);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();

      await page.goto(`${base}/app/account`);
      await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
      await page.getByText('No passkey yet').waitFor();
      await page.getByLabel('Passkey name').fill('Chromium virtual key');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByRole('cell', { name: 'Chromium virtual key', exact: true }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Passkey added' }).waitFor();
      const [stored] = await sql<{ name: string }>(t.db.url, `SELECT name FROM operator_passkeys`);
      expect(stored).toEqual({ name: 'Chromium virtual key' });

      // Rename it.
      await page.getByRole('button', { name: 'Rename Chromium virtual key' }).click();
      await page.getByLabel('New name for Chromium virtual key').fill('Work laptop');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('cell', { name: 'Work laptop', exact: true }).waitFor();

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.goto(`${base}/app/`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      const [session] = await sql<{ method: string }>(t.db.url, `SELECT method FROM operator_sessions WHERE method = 'passkey'`);
      expect(session).toEqual({ method: 'passkey' });

      // A clone: the same key, but the counter it had before the last sign-in (lower than the server's).
      const { credentials } = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: Credential[] };
      expect(credentials).toHaveLength(1);
      const [original] = credentials;
      const [{ counter }] = await sql<{ counter: string }>(t.db.url, `SELECT counter FROM operator_passkeys`);
      expect(Number(counter)).toBe(original.signCount);
      expect(original.signCount).toBeGreaterThan(0);
      await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: original.credentialId });
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...original, signCount: original.signCount - 1 } });

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('alert').filter({ hasText: 'This passkey was refused' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Sign in', level: 1 }).isVisible()).toBe(true);
      // Refused for its counter (the server's log says why; the page and the answer do not), and no session made.
      expect(t.logs.filter((l) => l.includes('passkey assertion refused')).map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([
        expect.stringMatching(/counter value \d+ was lower than expected \d+/),
      ]);
      expect(await sql(t.db.url, `SELECT 1 FROM operator_sessions`)).toHaveLength(0);

      // The password alone is not enough any more: the passkey is the second factor.
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'Use your passkey to finish signing in' }).waitFor();
      await page.getByRole('button', { name: 'Use your passkey' }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      expect(await sql(t.db.url, `SELECT method FROM operator_sessions`)).toEqual([{ method: 'password+passkey' }]);
    }, 60_000);
  });
}
