import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { UsersService } from '../../apps/api/src/platform/users/users.service';
import { createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';

/**
 * Swagger UI in a real browser (Debian's Chromium driven by playwright-core) against a real server: an
 * operator loads /docs, authorizes once per scheme, and runs one call of each surface with Try-it-out.
 * What is asserted is what the page shows. SWAGGER_UI_SCREENSHOTS=<dir> keeps a screenshot of each step.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const ADMIN = 'swagger-ui-admin-key-0123456789abcdef';
const EMAIL = 'operator@acme.test';
const PASSWORD = 'correct horse battery';
const SHOTS = process.env.SWAGGER_UI_SCREENSHOTS;

if (!CHROMIUM) {
  console.log('skipped: the Swagger UI browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('Swagger UI in a browser', () => {
    it.skip('runs one call of each surface through Try-it-out (needs Chromium)', () => undefined);
  });
} else {
  describe('Swagger UI in a browser', () => {
    let t: TestApp;
    let browser: Browser;
    let page: Page;
    let deploymentUuid: string;

    beforeAll(async () => {
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
      const tenant = await createTenant(t, 'Acme Browser Co');
      await t.server.app.get(UsersService).create({ email: EMAIL, password: PASSWORD, ...tenant });
      const { chromium } = await import('playwright-core');
      // --no-sandbox: the test may run as root (CI containers), where Chromium's sandbox refuses to start.
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
      page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(`${t.url}/docs`);
      await page.locator('.swagger-ui .opblock').first().waitFor({ timeout: 30_000 });
    }, 90_000);
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    const shot = async (name: string): Promise<void> => {
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
    };

    /** Opens the Authorize dialog, gives `value` to the scheme `scheme`, closes it. */
    async function authorize(scheme: string, value: string): Promise<void> {
      await page.locator('.auth-wrapper > button.authorize').click();
      const form = page.locator('.modal-ux .auth-container').filter({ has: page.locator('h4', { hasText: new RegExp(`^${scheme}\\b`) }) });
      await form.locator('input').fill(value);
      await form.locator('button.authorize').click();
      await form.locator('button', { hasText: 'Logout' }).waitFor();
      await shot(`authorized-${scheme}`);
      await page.locator('.modal-ux button.close-modal').click();
    }

    /** The operation's block, expanded and in Try-it-out mode. */
    async function tryOut(method: string, path: string): Promise<Locator> {
      const block = page.locator(`.opblock-${method}`).filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
      // With this many operations Swagger UI renders them as a virtual list: only those near the view exist in the
      // page, so scroll down as a reader would until the operation is there.
      for (let i = 0; i < 400 && (await block.count()) === 0; i++) {
        await page.mouse.wheel(0, 700);
        await page.waitForTimeout(25);
      }
      await block.locator('.opblock-summary').first().click();
      await block.locator('.try-out__btn').click();
      return block;
    }

    /** Executes, and returns the status and the JSON body the page shows for the live answer. */
    async function execute(block: Locator, name: string): Promise<{ status: number; body: any }> {
      await block.locator('button.execute').click();
      const live = block.locator('.live-responses-table .response').first();
      await live.waitFor({ timeout: 20_000 });
      await live.scrollIntoViewIfNeeded();
      await shot(name);
      const status = Number((await live.locator('.response-col_status').innerText()).trim());
      const text = await live.locator('.response-col_description pre').first().innerText();
      return { status, body: JSON.parse(text) };
    }

    it('shows the document with every surface and the five ways to authorize', async () => {
      await shot('loaded');
      await expect(page.locator('.opblock-summary-path[data-path="/functions/v1/enroll-rmm"]').count()).resolves.toBe(1);
      await page.locator('.auth-wrapper > button.authorize').click();
      const schemes = await page.locator('.modal-ux .auth-container h4').allInnerTexts();
      expect(schemes.map((s) => s.trim().split(/\s/)[0]).sort()).toEqual(['api-key', 'data-key', 'deployment-token', 'session-cookie', 'user-jwt']);
      await page.locator('.modal-ux button.close-modal').click();
    });

    it('signs in on /auth/v1/token with grant_type=password, authorized with the anon key', async () => {
      await authorize('data-key', t.server.runtime.dataAnonKey);
      const block = await tryOut('post', '/auth/v1/token');
      await block.locator('tr[data-param-name="grant_type"] select').selectOption('password');
      await block.locator('textarea.body-param__text').fill(JSON.stringify({ email: EMAIL, password: PASSWORD }));
      const { status, body } = await execute(block, 'auth-token');
      expect(status).toBe(200);
      expect(body).toEqual(expect.objectContaining({ token_type: 'bearer', access_token: expect.any(String), refresh_token: expect.any(String) }));
      expect(body.user.email).toBe(EMAIL);

      // The user-jwt scheme takes the token just shown, for the enrollment function.
      await authorize('user-jwt', body.access_token);
      const enrolled = await t.http
        .post('/functions/v1/enroll-rmm')
        .set('Authorization', `Bearer ${body.access_token}`)
        .send({ hostname: 'ACME-BROWSER-01', platform: 'linux' });
      expect(enrolled.status).toBe(200);
      deploymentUuid = enrolled.body.deployment_uuid;
    }, 60_000);

    it("reads the enrollment's status from the function, with the token given once under Authorize", async () => {
      const block = await tryOut('get', '/functions/v1/enroll-rmm/status');
      // No authorization header parameter to fill: the user-jwt scheme sends the token.
      await expect(block.locator('tr[data-param-name="authorization"]').count()).resolves.toBe(0);
      await block.locator('tr[data-param-name="deployment_uuid"] input').fill(deploymentUuid);
      const { status, body } = await execute(block, 'function-status');
      expect(status).toBe(200);
      expect(body).toEqual({ status: 'pending', agent_id: null, hostname: 'ACME-BROWSER-01', expires_at: expect.any(String) });
    }, 60_000);

    it('lists clients on /api/v3 with the management key', async () => {
      await authorize('api-key', ADMIN);
      const block = await tryOut('get', '/api/v3/clients');
      const { status, body } = await execute(block, 'api-v3-clients');
      expect(status).toBe(200);
      expect(body).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Acme Browser Co' })]));
    }, 60_000);
  });
}
