import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FakeAgent } from '../utils/fake-agent';
import { createOperator } from '../utils/operators';
import { ROOT } from '../utils/processes';
import { createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * The console's live updates at the addresses the README's quick start leads to (issue 29, point 1), in Debian's
 * Chromium driven by playwright-core against the real server: without PUBLIC_URL, the console opened at
 * http://localhost:<port> and at http://127.0.0.1:<port> goes live (an agent that connects shows online without a
 * reload, and nothing says "reconnecting"); with PUBLIC_URL naming the other address, the page says why it cannot go
 * live and which setting to change, instead of "reconnecting…" forever.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const ADMIN_KEY = 'console-origins-e2e-admin-key-0123456789';
const EMAIL = 'admin@origins.test';
const PASSWORD = 'correct horse battery staple';

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the console’s live updates at localhost and 127.0.0.1', () => {
    it.skip('goes live at both addresses, and says why not when PUBLIC_URL names the other (needs Chromium)', () => undefined);
  });
} else {
  describe('the console’s live updates at localhost and 127.0.0.1', () => {
    let t: TestApp;
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    const agents: FakeAgent[] = [];
    const admin = { 'X-API-KEY': ADMIN_KEY };
    let tenant: { client: number; site: number };

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      // PUBLIC_URL not set: the README's quick start (the harness moves its default to the port it listens on).
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000' });
      await createOperator(t, EMAIL, 'admin', { password: PASSWORD });
      const created = await createTenant(t, 'Origins Ltd', 'HQ');
      tenant = { client: created.clientId, site: created.siteId };
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    }, 180_000);

    afterAll(async () => {
      for (const a of agents) a.ws.terminate();
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      await t?.close();
    });

    /** The console at `base`, signed in, on the Agents page. */
    const signedIn = async (base: string): Promise<Page> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(`${base}/app/`);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      return page;
    };

    /** A device enrolled over the API and connected on the agent channel (online while connected). */
    const connectAgent = async (hostname: string): Promise<string> => {
      const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send(tenant);
      expect(d.status).toBe(201);
      const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname, plat: 'linux', version: '0.1.0' });
      expect(r.status).toBe(200);
      const agent = await FakeAgent.connect(t.url, r.body.agent_id, r.body.agent_secret);
      agents.push(agent);
      await agent.next('hello');
      return r.body.agent_id;
    };

    const summary = (page: Page) => page.locator('.page-head p.muted');

    it.each([
      ['http://localhost', (url: string) => url.replace('127.0.0.1', 'localhost')],
      ['http://127.0.0.1', (url: string) => url],
    ])('goes live at %s:<port> while PUBLIC_URL is not set: an agent that connects shows online without a reload', async (_name, at) => {
      const page = await signedIn(at(t.url));
      const hostname = `live-at-${new URL(at(t.url)).hostname}`;
      await until('the agent list read', async () => /\d+ of \d+ agents/.test(await summary(page).innerText()), 15_000);
      const agentId = await connectAgent(hostname);
      // Enrolled after the list was read: the fleet socket's events bring its row and its status.
      const row = page.locator(`tr[data-agent-id="${agentId}"]`);
      await until(`${hostname} online in the list`, async () => (await row.innerText().catch(() => '')).includes('online'), 20_000);
      expect(await summary(page).innerText()).not.toContain('reconnecting');
      expect(await page.getByRole('alert').count()).toBe(0);
    }, 60_000);

    it('says why it cannot go live, and the setting to change, when PUBLIC_URL names the other address (not "reconnecting…" forever)', async () => {
      const runtime = t.server.runtime;
      const before = { publicUrl: runtime.publicUrl, publicUrlSet: runtime.publicUrlSet };
      const localhost = t.url.replace('127.0.0.1', 'localhost');
      // PUBLIC_URL=http://localhost:<port> given, and the console opened at 127.0.0.1 (read at each upgrade).
      Object.assign(runtime, { publicUrl: localhost, publicUrlSet: true });
      try {
        const page = await signedIn(t.url);
        const alert = page.getByRole('alert').filter({ hasText: 'Live updates are off' });
        await alert.waitFor({ timeout: 15_000 });
        const text = await alert.innerText();
        expect(text).toContain(`live updates refused for the page origin "${t.url}": this server's console is at ${localhost} (PUBLIC_URL names it)`);
        expect(text).toContain(`set PUBLIC_URL=${t.url}`);
        expect(text).toContain(`add ${t.url} to RMM_CORS_ORIGINS`);
        await until('the page says live updates are off', async () => (await summary(page).innerText()).includes('live updates off (see above)'), 10_000);
        expect(await summary(page).innerText()).not.toContain('reconnecting');
        // The list still works (read over HTTP).
        expect(await summary(page).innerText()).toMatch(/\d+ of \d+ agents/);
        // The server logged it, with the setting, once.
        expect(t.logs.filter((l) => l.includes('upgrade refused') && l.includes(`set PUBLIC_URL=${t.url}`)).length).toBeGreaterThanOrEqual(1);
        // At the address PUBLIC_URL names, the same server goes live.
        const there = await signedIn(localhost);
        await until('the agent list read at PUBLIC_URL', async () => /\d+ of \d+ agents/.test(await summary(there).innerText()), 15_000);
        const agentId = await connectAgent('live-at-public-url');
        await until('the agent online at PUBLIC_URL', async () => (await there.locator(`tr[data-agent-id="${agentId}"]`).innerText().catch(() => '')).includes('online'), 20_000);
        expect(await there.getByRole('alert').count()).toBe(0);
      } finally {
        Object.assign(runtime, before);
      }
    }, 60_000);
  });
}
