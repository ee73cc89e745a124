import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createOperator, OPERATOR_PASSWORD } from '../utils/operators';
import { oidcSettings, startTestProvider, TestProvider } from '../utils/oidc-test-provider';
import { freePort, ROOT } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * Issue 33's single sign-on in Debian's Chromium (playwright-core) through the real redirect dance: the console's
 * "Sign in with …" button, panva's oidc-provider on 127.0.0.1 (test/utils/oidc-provider-process.mjs; its
 * interaction page signs in the account the test chose), and back to the console.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SECRET = 'console-sso-client-secret-0123456789';

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the console: single sign-on (issue 33)', () => {
    it.skip('signs in through the provider, and shows "no access" (needs Chromium)', () => undefined);
  });
} else {
  describe('the console: single sign-on (issue 33)', () => {
    let t: TestApp;
    let provider: TestProvider;
    let browser: Browser;
    const contexts: BrowserContext[] = [];

    const newPage = async (): Promise<Page> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    };
    const sessionsOf = async (email: string): Promise<number> =>
      (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE o.email = $1`, [email]))[0].n;

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      const port = await freePort();
      provider = await startTestProvider({
        clients: [{ client_id: 'rmm-console', client_secret: SECRET, redirect_uris: [`http://127.0.0.1:${port}/api/v3/auth/oidc/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
        accounts: {
          tech: { email: 'tech@sso.test', email_verified: true, groups: ['rmm-techs'] },
          outsider: { email: 'outsider@sso.test', email_verified: true, groups: ['marketing'] },
        },
      });
      t = await startTestApp({ RMM_PASSWORD_LOGIN: 'false' }, { port, overrides: { oidc: oidcSettings(provider.issuer, 'rmm-console', SECRET, { button: 'Acme Login' }), passwordLogin: false } });
      await createOperator(t, 'glass@sso.test', 'admin');
      await sql(t.db.url, `UPDATE operators SET break_glass = true WHERE email = 'glass@sso.test'`);
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    }, 180_000);

    afterAll(async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      await t?.close();
      await provider?.close();
    });

    it('signs a user of rmm-techs in through the provider and lands on the Agents page as a technician', async () => {
      const page = await newPage();
      await provider.signInNext('tech');
      await page.goto(`${t.url}/app/agents`);
      await page.getByRole('button', { name: 'Sign in with Acme Login' }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/app/agents');
      await expect(page.locator('.who .email').getAttribute('title')).resolves.toBe('Your account: tech@sso.test (technician)');
      // a technician's console: no admin pages
      await expect(page.getByRole('link', { name: 'Operators' }).count()).resolves.toBe(0);
      expect(await sessionsOf('tech@sso.test')).toBe(1);
    }, 60_000);

    it('tells a user in no mapped group that they have no access, and gives no session', async () => {
      const page = await newPage();
      await provider.signInNext('outsider');
      await page.goto(`${t.url}/app/`);
      await page.getByRole('button', { name: 'Sign in with Acme Login' }).click();
      await page.getByRole('alert').filter({ hasText: 'no access' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      await expect(page.getByRole('heading', { name: 'Sign in', level: 1 }).isVisible()).resolves.toBe(true);
      expect((await page.context().cookies()).find((c) => c.name === 'rmm_session')).toBeUndefined();
      expect(await sql(t.db.url, `SELECT 1 FROM operators WHERE email = 'outsider@sso.test'`)).toEqual([]);
    }, 60_000);

    it('folds the password form under "Break-glass sign-in" when password sign-in is off, and leaves the sign-in page once signed in', async () => {
      const page = await newPage();
      await page.goto(`${t.url}/app/sign-in`);
      await page.getByRole('button', { name: 'Sign in with Acme Login' }).waitFor();
      await expect(page.getByLabel('Password').isVisible()).resolves.toBe(false);
      await page.getByText('Break-glass sign-in').click();
      await page.getByLabel('Email').fill('glass@sso.test');
      await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/app/agents');
    }, 60_000);
  });
}
