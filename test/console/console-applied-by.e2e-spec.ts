import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PolicyEngine } from '../../apps/api/src/rmm/automation/policies/policy-engine';
import { checkKey } from '../../apps/api/src/rmm/automation/policies/policy-merge';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { createOperator } from '../utils/operators';
import { ROOT } from '../utils/processes';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const ADMIN_KEY = 'console-applied-by-admin-key-0123456789';
const PASSWORD = 'correct horse battery staple';
const TECH = 'tech@applied-by.test';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * Issue #31's "Applied by" on the agent page (in Debian's Chromium, as the other console tests): each check and task
 * says whether the agent itself or a policy applies it, and a non-enforced policy's item can be disabled on this
 * agent only (its policy overrides), an enforced one cannot; axe finds nothing serious. The policies are written
 * with SQL, as the policies API stores them.
 */
if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium)');
  describe('the agent page: Applied by (issue 31)', () => {
    it.skip('Applied by and the per-agent Disable toggle (needs Chromium)', () => undefined);
  });
} else {
  describe('the agent page: Applied by (issue 31)', () => {
    let t: TestApp;
    let browser: Browser;
    let agentId: string;
    let policyId: number;
    const admin = { 'X-API-KEY': ADMIN_KEY };
    const contexts: BrowserContext[] = [];

    const newPage = async (viewport = DESKTOP): Promise<Page> => {
      const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC' });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    };
    const signIn = async (page: Page): Promise<void> => {
      await page.goto(`${t.url}/app/`);
      await page.getByLabel('Email').fill(TECH);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    };
    const policy = async (name: string, enforced: boolean, check: { type: 'memory' | 'ping'; settings: Record<string, unknown>; name: string }): Promise<number> => {
      const [p] = await sql<{ id: number }>(t.db.url, `INSERT INTO policies (name, enforced, targets) VALUES ($1, $2, '{"tags_any": ["finance"]}') RETURNING id`, [name, enforced]);
      await sql(t.db.url, `INSERT INTO policy_checks (policy_id, position, key, check_type, name, settings) VALUES ($1, 0, $2, $3, $4, $5)`, [
        p.id,
        checkKey(check.type, check.settings),
        check.type,
        check.name,
        JSON.stringify(check.settings),
      ]);
      t.server.app.get(RmmEvents).emit('policies.changed', { policyId: p.id });
      await t.server.app.get(PolicyEngine).settled();
      return p.id;
    };
    const checks = async (): Promise<Array<Record<string, any>>> => (await t.http.get('/api/v3/checks/').query({ agent: agentId }).set(admin)).body;

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000' });
      await createOperator(t, TECH, 'technician', { password: PASSWORD });
      const tenant = await createTenant(t, 'Applied By Ltd', 'HQ');
      const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
      const reg = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'APPLIED-BY-01', plat: 'linux', version: '0.1.0' });
      expect(reg.status).toBe(200);
      agentId = reg.body.agent_id;
      await sql(t.db.url, `UPDATE agents SET tags = '{finance}' WHERE id = $1`, [Number(agentId)]);
      const own = await t.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, check_type: 'diskspace', settings: { drive: '/', threshold_percent: 10 }, name: 'Own disk' });
      expect(own.status).toBe(201);
      policyId = await policy('Finance baseline', false, { type: 'ping', settings: { target: 'example.org' }, name: 'Ping the bank' });
      await policy('Security floor', true, { type: 'memory', settings: { threshold_percent: 90 }, name: 'Memory floor' });
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    }, 180_000);

    afterAll(async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      await t?.close();
    });

    it("shows who applies each check and disables a non-enforced policy's check on this agent only", async () => {
      const page = await newPage();
      await signIn(page);
      await page.goto(`${t.url}/app/agents/${agentId}`);
      await page.getByRole('heading', { name: 'Checks' }).waitFor();
      const row = (name: string) => page.locator('tr', { hasText: name });
      await row('Ping the bank').getByText('Policy Finance baseline').waitFor();
      await expect(row('Own disk').getByRole('cell', { name: 'This agent' }).count()).resolves.toBe(1);
      await expect(row('Memory floor').innerText()).resolves.toContain('Policy Security floor (enforced)');
      // and why it applies here (the effective policy's reason)
      await row('Ping the bank').getByText('matched by tag finance').waitFor();
      // A policy's item is not edited or deleted here; an enforced one cannot be disabled either.
      await expect(row('Ping the bank').getByRole('button', { name: /^Edit/ }).count()).resolves.toBe(0);
      await expect(row('Memory floor').getByRole('button', { name: /this agent/ }).count()).resolves.toBe(0);
      await expect(row('Own disk').getByRole('button', { name: 'Edit check Own disk' }).count()).resolves.toBe(1);

      await row('Ping the bank').getByRole('button', { name: 'Disable on this agent check Ping the bank' }).click();
      await row('Ping the bank').getByRole('button', { name: 'Enable on this agent check Ping the bank' }).waitFor();
      await until('the override stored', async () => (await checks()).some((c) => c.name === 'Ping the bank' && c.enabled === false));
      expect((await t.http.get(`/api/v3/agents/${agentId}/policy-overrides/`).set(admin)).body).toEqual([
        { policy: policyId, policy_name: 'Finance baseline', key: 'ping:example.org', disabled: true, settings: null, run_interval: null, fails_b4_alert: null },
      ]);
      await row('Ping the bank').getByRole('button', { name: 'Enable on this agent check Ping the bank' }).click();
      await row('Ping the bank').getByRole('button', { name: 'Disable on this agent check Ping the bank' }).waitFor();
      await until('the override gone', async () => (await checks()).some((c) => c.name === 'Ping the bank' && c.enabled === true));
      expect((await t.http.get(`/api/v3/agents/${agentId}/policy-overrides/`).set(admin)).body).toEqual([]);
    }, 60_000);

    it('has no serious or critical accessibility violation on the agent page, at 1280×900 and 390×844', async () => {
      const { AxeBuilder } = await import('@axe-core/playwright');
      const found: string[] = [];
      for (const viewport of [DESKTOP, PHONE]) {
        const p = await newPage(viewport);
        await signIn(p);
        await p.goto(`${t.url}/app/agents/${agentId}`);
        await p.locator('tr', { hasText: 'Ping the bank' }).waitFor();
        await p.waitForFunction(() => (globalThis as any).document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 15_000 });
        const result = await new AxeBuilder({ page: p }).analyze();
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') found.push(`${viewport.width}px: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        }
      }
      expect(found).toEqual([]);
    }, 60_000);
  });
}
