import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createOperator } from '../utils/operators';
import { ROOT } from '../utils/processes';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Issue #31's console for tags and maintenance, in Debian's Chromium driven by playwright-core against the real
 * server (as console-papercuts.e2e-spec.ts): rows selected on the Agents page and tagged in bulk (Add tag, Remove
 * tag), the tag filter, the agent page's tag editor and its maintenance switch; axe finds nothing serious on
 * either page, at desktop and phone sizes.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const ADMIN_KEY = 'console-tags-admin-key-0123456789';
const PASSWORD = 'correct horse battery staple';
const TECH = 'tech@tags.test';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the console: tags and maintenance (issue 31)', () => {
    it.skip('bulk tagging, the tag filter, the tag editor and the maintenance switch (needs Chromium)', () => undefined);
  });
} else {
  describe('the console: tags and maintenance (issue 31)', () => {
    let t: TestApp;
    let browser: Browser;
    const ids: Record<string, number> = {};
    const admin = { 'X-API-KEY': ADMIN_KEY };
    const contexts: BrowserContext[] = [];

    const newPage = async (viewport = DESKTOP): Promise<Page> => {
      const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC' });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    };
    const signIn = async (page: Page, email: string): Promise<void> => {
      await page.goto(`${t.url}/app/`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    };
    const tagsOf = async (host: string): Promise<string[]> => (await t.http.get(`/api/v3/agents/${ids[host]}/`).set(admin)).body.tags;
    const shownHosts = async (page: Page): Promise<string[]> =>
      (await page.getByRole('region', { name: 'Agents list' }).locator('tbody tr[data-agent-id] td:nth-child(2)').allInnerTexts()).map((s) => s.trim());

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000' });
      await createOperator(t, TECH, 'technician', { password: PASSWORD });
      const tenant = await createTenant(t, 'Contoso Finance', 'Paris');
      for (const host of ['CONTOSO-FIN-01', 'CONTOSO-FIN-02', 'CONTOSO-HR-01']) ids[host] = await insertAgent(t, { hostname: host, ...tenant });
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    }, 180_000);

    afterAll(async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      await t?.close();
    });

    it('tags selected rows in bulk (Add tag, Remove tag) and filters the list by tags', async () => {
      const page = await newPage();
      await signIn(page, TECH);
      const list = page.getByRole('region', { name: 'Agents list' });
      await list.getByRole('link', { name: 'CONTOSO-HR-01' }).waitFor();
      const addTag = page.getByRole('button', { name: 'Add tag' });
      await expect(addTag.isDisabled()).resolves.toBe(true);

      await list.getByRole('checkbox', { name: 'Select CONTOSO-FIN-01' }).check();
      await list.getByRole('checkbox', { name: 'Select CONTOSO-FIN-02' }).check();
      await page.getByLabel('Tag for the selected agents').fill('Finance');
      await addTag.click();
      await page.getByRole('status').filter({ hasText: 'Added tag "finance": 2 agents changed.' }).waitFor();
      expect([await tagsOf('CONTOSO-FIN-01'), await tagsOf('CONTOSO-FIN-02'), await tagsOf('CONTOSO-HR-01')]).toEqual([['finance'], ['finance'], []]);
      // the rows follow (agent.updated on the fleet socket)
      await list.locator(`tr[data-agent-id="${ids['CONTOSO-FIN-02']}"] td.col-tags`).filter({ hasText: 'finance' }).waitFor();

      // every shown row, then a second tag
      await list.getByRole('checkbox', { name: 'Select every agent shown' }).check();
      await page.getByLabel('Tag for the selected agents').fill('paris');
      await addTag.click();
      await page.getByRole('status').filter({ hasText: 'Added tag "paris": 3 agents changed.' }).waitFor();

      // the filter: every tag given
      await page.getByRole('search').getByLabel('Tag').fill('finance');
      await until('two rows', async () => JSON.stringify(await shownHosts(page)) === JSON.stringify(['CONTOSO-FIN-01', 'CONTOSO-FIN-02']));
      await page.getByRole('search').getByLabel('Tag').fill('paris, FINANCE');
      await until('still two rows', async () => (await shownHosts(page)).length === 2);
      await page.getByRole('search').getByLabel('Tag').fill('paris');
      await until('three rows', async () => (await shownHosts(page)).length === 3);

      // remove from one selected row
      await page.getByRole('button', { name: 'Clear selection' }).click();
      await list.getByRole('checkbox', { name: 'Select CONTOSO-FIN-02' }).check();
      await page.getByLabel('Tag for the selected agents').fill('finance');
      await page.getByRole('button', { name: 'Remove tag' }).click();
      await page.getByRole('status').filter({ hasText: 'Removed tag "finance": 1 agent changed.' }).waitFor();
      expect(await tagsOf('CONTOSO-FIN-02')).toEqual(['paris']);
      await page.getByRole('search').getByLabel('Tag').fill('finance');
      await until('one row', async () => JSON.stringify(await shownHosts(page)) === JSON.stringify(['CONTOSO-FIN-01']));
    }, 90_000);

    it("edits an agent's tags on its page, and turns maintenance on and off", async () => {
      const page = await newPage();
      await signIn(page, TECH);
      await page.goto(`${t.url}/app/agents/${ids['CONTOSO-HR-01']}`);
      const section = page.getByRole('region', { name: 'Tags and maintenance' });
      await section.getByRole('list', { name: 'Tags' }).getByText('paris').waitFor();

      await section.getByLabel('New tag').fill('HR Team');
      await section.getByRole('button', { name: 'Add tag' }).click();
      await section.getByRole('list', { name: 'Tags' }).getByText('hr team').waitFor();
      expect(await tagsOf('CONTOSO-HR-01')).toEqual(['hr team', 'paris']);

      await section.getByRole('button', { name: 'Remove tag paris' }).click();
      await until('paris removed', async () => JSON.stringify(await tagsOf('CONTOSO-HR-01')) === JSON.stringify(['hr team']));
      await expect(section.getByRole('button', { name: 'Remove tag paris' }).count()).resolves.toBe(0);

      // A refused tag: the server's reason, nothing changed
      await section.getByLabel('New tag').fill('no/slash');
      await section.getByRole('button', { name: 'Add tag' }).click();
      await section.getByRole('alert').filter({ hasText: '"no/slash" is not a tag' }).waitFor();
      expect(await tagsOf('CONTOSO-HR-01')).toEqual(['hr team']);

      const toggle = section.getByRole('switch', { name: 'Maintenance' });
      await expect(toggle.isChecked()).resolves.toBe(false);
      await section.getByText('Not in maintenance').waitFor();
      // The switch shows what the server answered (it turns once the PATCH succeeded)
      await toggle.click();
      await until('the switch on', () => toggle.isChecked());
      await section.getByText('In maintenance: checks run and record, no alert opens, no notification is sent.').waitFor();
      await page.getByRole('heading', { level: 1 }).getByText('maintenance').waitFor();
      expect((await t.http.get(`/api/v3/agents/${ids['CONTOSO-HR-01']}/`).set(admin)).body).toMatchObject({ maintenance: true, maintenance_until: null });
      await toggle.click();
      await until('the switch off', async () => !(await toggle.isChecked()));
      await section.getByText('Not in maintenance').waitFor();
      expect((await t.http.get(`/api/v3/agents/${ids['CONTOSO-HR-01']}/`).set(admin)).body.maintenance).toBe(false);
    }, 90_000);

    it('has no serious or critical accessibility violation on the Agents page (rows selected) and the agent page, at 1280 and 390 px', async () => {
      const { AxeBuilder } = await import('@axe-core/playwright');
      await t.http.patch(`/api/v3/agents/${ids['CONTOSO-FIN-01']}/`).set(admin).send({ maintenance: true }).expect(200);
      const found: string[] = [];
      const check = async (p: Page, what: string, width: number) => {
        await p.waitForFunction(() => (globalThis as any).document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 15_000 });
        const result = await new AxeBuilder({ page: p }).analyze();
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') found.push(`${width}px ${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        }
      };
      for (const viewport of [DESKTOP, PHONE]) {
        const p = await newPage(viewport);
        await signIn(p, TECH);
        const list = p.getByRole('region', { name: 'Agents list' });
        await list.getByRole('link', { name: 'CONTOSO-FIN-01' }).waitFor();
        await list.getByRole('checkbox', { name: 'Select CONTOSO-FIN-01' }).check();
        await p.getByLabel('Tag for the selected agents').fill('finance');
        await check(p, '/app/agents', viewport.width);
        await p.goto(`${t.url}/app/agents/${ids['CONTOSO-FIN-01']}`);
        await p.getByRole('switch', { name: 'Maintenance' }).waitFor();
        await check(p, '/app/agents/{id}', viewport.width);
      }
      expect(found).toEqual([]);
    }, 120_000);
  });
}
