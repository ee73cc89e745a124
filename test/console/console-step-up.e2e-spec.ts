import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FixedClock } from '../../apps/api/src/common/clock';
import { OPERATOR_PASSWORD, createOperator, sessionPair } from '../utils/operators';
import { ROOT } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * Issue 33 in the console (Chromium via playwright-core, as console.e2e-spec.ts does): an admin whose sign-in is 11
 * minutes old (the server's FixedClock) creates an API key, is asked "Confirm it's you", gives the password and the
 * key is made without doing it again; cancelling fails the action with a message and keeps them signed in; the
 * Account page lists their sessions, ends another one, and signs out everywhere else. CONSOLE_SCREENSHOTS=<dir>
 * keeps a screenshot of each step.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SHOTS = process.env.CONSOLE_SCREENSHOTS;
const ADMIN = 'admin@step-up-console.test';
const MINUTE = 60_000;
const OTHER_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the console: step-up dialog and the Account page', () => {
    it.skip('re-authenticates in a dialog and lists sessions (needs Chromium)', () => undefined);
  });
} else {
  describe('the console: step-up dialog and the Account page (issue 33)', () => {
    let t: TestApp;
    let clock: FixedClock;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;

    const shot = async (name: string): Promise<void> => {
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
    };
    const dialog = () => page.getByRole('dialog', { name: "Confirm it's you" });
    const createKey = async (name: string): Promise<void> => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      await page.getByLabel('Key name').fill(name);
      await page.getByRole('checkbox', { name: 'agents:read' }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
    };
    /** axe-core's serious and critical violations on the page as it is now (none expected). */
    const accessibilityProblems = async (): Promise<string[]> => {
      const { AxeBuilder } = await import('@axe-core/playwright');
      const result = await new AxeBuilder({ page }).analyze();
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    };
    const meWith = async (cookie: string): Promise<number> => (await t.http.get('/api/v3/auth/me').set('Cookie', cookie)).status;

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      clock = new FixedClock();
      t = await startTestApp({ RMM_RATE_LIMIT_PER_MINUTE: '100000' }, { clock });
      await createOperator(t, ADMIN, 'admin');
      if (SHOTS) mkdirSync(SHOTS, { recursive: true });
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
      await page.goto(`${t.url}/app/`);
      await page.getByLabel('Email').fill(ADMIN);
      await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    }, 120_000);

    afterAll(async () => {
      await context?.close().catch(() => undefined);
      await browser?.close();
      await t?.close();
    });

    it('asks "Confirm it\'s you" for an API key 11 minutes after signing in, and makes the key once the password is given', async () => {
      clock.advance(11 * MINUTE);
      await createKey('made after a step-up');
      await dialog().getByLabel('Password').waitFor();
      await shot('step-up-dialog');
      expect(await accessibilityProblems()).toEqual([]);
      await dialog().getByLabel('Password').fill('not my password');
      await dialog().getByRole('button', { name: 'Confirm' }).click();
      await dialog().getByRole('alert').filter({ hasText: 'That did not match' }).waitFor();
      await dialog().getByLabel('Password').fill(OPERATOR_PASSWORD);
      await dialog().getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('status').filter({ hasText: 'shown this once' }).waitFor();
      await expect(dialog().isVisible()).resolves.toBe(false);
      await expect(page.getByRole('region', { name: 'New key' }).getByText('made after a step-up').count()).resolves.toBe(1);
      await shot('step-up-done');
      const keys = (await t.http.get('/api/v3/keys/').set('Cookie', await sessionCookie())).body as Array<{ name: string }>;
      expect(keys.map((k) => k.name).filter((n) => n !== 'enroll-rmm function')).toEqual(['made after a step-up']);
    });

    it('fails the action with a message when the dialog is cancelled, and keeps the operator signed in', async () => {
      clock.advance(11 * MINUTE);
      await createKey('never made');
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('alert').filter({ hasText: "this action needs you to confirm it's you" }).waitFor();
      await expect(page.getByRole('heading', { name: 'API keys', level: 1 }).isVisible()).resolves.toBe(true);
      const keys = (await t.http.get('/api/v3/keys/').set('Cookie', await sessionCookie())).body as Array<{ name: string }>;
      expect(keys.map((k) => k.name).filter((n) => n !== 'enroll-rmm function')).toEqual(['made after a step-up']);
    });

    it('lists the sessions on the Account page, ends another one, then signs out everywhere else', async () => {
      const login = () => t.http.post('/api/v3/auth/login').set('User-Agent', OTHER_BROWSER).send({ email: ADMIN, password: OPERATOR_PASSWORD });
      const other = sessionPair((await login()).headers['set-cookie']);
      await page.getByRole('link', { name: ADMIN }).click();
      await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
      const sessions = page.getByRole('region', { name: 'Sessions' });
      await sessions.getByText('Firefox on Linux').waitFor();
      await expect(sessions.locator('tbody tr').count()).resolves.toBe(2);
      const mine = sessions.locator('tbody tr').filter({ hasText: 'This session' });
      await expect(mine.count()).resolves.toBe(1);
      await expect(mine.getByText('Chrome on Linux').count()).resolves.toBe(1);
      await shot('account-sessions');
      expect(await accessibilityProblems()).toEqual([]);
      await sessions.getByRole('button', { name: /^End the session of Firefox on Linux/ }).click();
      await sessions.getByText('Firefox on Linux').waitFor({ state: 'detached' });
      expect(await meWith(other)).toBe(401);

      const third = sessionPair((await login()).headers['set-cookie']);
      await page.reload();
      await sessions.getByText('Firefox on Linux').waitFor();
      await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await sessions.getByRole('status').filter({ hasText: '1 other session ended.' }).waitFor();
      expect(await meWith(third)).toBe(401);
      await expect(sessions.locator('tbody tr').count()).resolves.toBe(1);
      await expect(page.getByRole('region', { name: 'Two-factor (TOTP)' }).getByText('Off: your password alone signs you in.').count()).resolves.toBe(1);
    });

    it("lets an admin end another operator's sessions from the Operators page", async () => {
      await createOperator(t, 'tech@step-up-console.test', 'technician');
      const tech = sessionPair((await t.http.post('/api/v3/auth/login').send({ email: 'tech@step-up-console.test', password: OPERATOR_PASSWORD })).headers['set-cookie']);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operators' }).click();
      await page.getByRole('heading', { name: 'Operators', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'End sessions of tech@step-up-console.test' }).click();
      await page.getByRole('status').filter({ hasText: 'Every session of tech@step-up-console.test ended' }).waitFor();
      expect(await meWith(tech)).toBe(401);
    });

    /** The browser's own session cookie (HttpOnly: read through the context). */
    async function sessionCookie(): Promise<string> {
      const c = (await context.cookies()).find((x) => x.name === 'rmm_session')!;
      return `rmm_session=${c.value}`;
    }
  });
}
