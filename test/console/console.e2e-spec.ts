import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCode } from '../../apps/api/src/rmm/access/operators/totp';
import { CLI_JS, cleanEnv, ROOT, run } from '../utils/processes';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * The operator console (apps/console/, served at /app/) in a real browser, Debian's Chromium driven by
 * playwright-core, against the real server and a real agent process (dist/agent/rmm-agent.js). What is asserted
 * is what the page shows, and what the API answers the page's own session. CONSOLE_SCREENSHOTS=<dir> keeps a
 * screenshot of each step (docs/images/console/ has a few of them).
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SHOTS = process.env.CONSOLE_SCREENSHOTS;
const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');
const ADMIN_KEY = 'console-e2e-admin-key-0123456789abcdef';
const PASSWORD = 'correct horse battery staple';
const HOSTNAME = 'console-e2e-ws-01';
const OTHER_HOSTNAME = 'OTHER-CO-SRV-01';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the operator console in a browser', () => {
    it.skip('signs in, watches the fleet live, runs a script, acknowledges an alert, creates a deployment (needs Chromium)', () => undefined);
  });
} else {
  describe('the operator console in a browser', () => {
    let t: TestApp;
    let browser: Browser;
    let work: string;
    let agent: ChildProcess | undefined;
    let agentOutput = '';
    let agentId: string;
    let otherAgentId: number;
    let scriptId: number;
    let defaultClient: number;
    let defaultSite: number;
    const admin = { 'X-API-KEY': ADMIN_KEY };
    const contexts: BrowserContext[] = [];
    /** Content-Security-Policy violations any page reported (there must be none). */
    const cspViolations: string[] = [];
    const accounts = {
      admin: 'admin@console.test',
      totp: 'totp-admin@console.test',
      viewer: 'viewer@console.test',
      tech: 'limited-tech@console.test',
    };

    const shot = async (page: Page, name: string): Promise<void> => {
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
    };

    /** A fresh browser context (its own cookies), optionally allowed to use the clipboard. */
    const newPage = async (viewport = DESKTOP, clipboard = false): Promise<Page> => {
      const context = await browser.newContext({ viewport, permissions: clipboard ? ['clipboard-read', 'clipboard-write'] : [] });
      contexts.push(context);
      const page = await context.newPage();
      // (Scripts that run in the page are given as text: this file is compiled without the DOM's types.)
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => console.log(`CSP violation: ${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}`))",
      );
      page.on('console', (m) => {
        if (m.text().startsWith('CSP violation')) cspViolations.push(`${page.url()}: ${m.text()}`);
      });
      return page;
    };

    const signIn = async (page: Page, email: string, password = PASSWORD): Promise<void> => {
      await page.goto(`${t.url}/app/`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    };

    /** The page's own session calling the API (same origin, its cookie), as the console does. */
    const fetchFromPage = (page: Page, path: string, init: { method?: string; body?: unknown; csrf?: boolean } = {}) =>
      page.evaluate(
        async ({ path, method, body, csrf }) => {
          const headers: Record<string, string> = { 'Content-Type': 'application/json' };
          if (csrf) headers['X-Requested-With'] = 'rmm-console';
          const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
          const text = await res.text();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          return { status: res.status, body: json as any };
        },
        { path, method: init.method ?? 'GET', body: init.body, csrf: init.csrf ?? true },
      );

    const agentRow = (page: Page, hostname: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: hostname, exact: true }) });

    beforeAll(async () => {
      // The console's bundle, built when its sources changed (the same stale check as npm start).
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' });
      work = mkdtempSync(join(tmpdir(), 'rmm-console-e2e-'));
      if (SHOTS) mkdirSync(SHOTS, { recursive: true });
      defaultClient = t.server.runtime.rmmDefaultClientId;
      defaultSite = t.server.runtime.rmmDefaultSiteId;
      const other = await createTenant(t, 'Other Co', 'Branch');
      otherAgentId = await insertAgent(t, { hostname: OTHER_HOSTNAME, ...other, status: 'offline' });

      const create = async (email: string, role: string, clients?: number[]) => {
        const res = await t.http.post('/api/v3/operators/').set(admin).send({ email, password: PASSWORD, role, ...(clients ? { clients } : {}) });
        expect([email, res.status]).toEqual([email, 201]);
      };
      await create(accounts.admin, 'admin');
      await create(accounts.totp, 'admin');
      await create(accounts.viewer, 'viewer');
      await create(accounts.tech, 'technician', [defaultClient]);

      const script = await t.http
        .post('/api/v3/scripts/')
        .set(admin)
        .send({ name: 'Count slowly', shell: 'bash', body: 'for i in 1 2 3 4; do echo "line $i"; sleep 1.5; done; echo done >&2', default_timeout: 60 });
      expect(script.status).toBe(201);
      scriptId = script.body.id;

      const { chromium } = await import('playwright-core');
      // --no-sandbox: the test may run as root (CI containers), where Chromium's sandbox refuses to start.
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    }, 180_000);

    afterAll(async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      if (agent && agent.exitCode === null && agent.signalCode === null) {
        const exited = new Promise((r) => agent!.once('exit', r));
        agent.kill('SIGKILL');
        await exited;
      }
      await t?.close();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    let page: Page;

    it('signs in: a wrong password shows an error and no session; the right one opens the Agents page with the operator’s email', async () => {
      page = await newPage(DESKTOP);
      await signIn(page, accounts.admin, 'not the password');
      await expect(page.getByRole('alert').innerText()).resolves.toBe('Invalid credentials');
      await shot(page, '01-sign-in-wrong-password');
      expect((await fetchFromPage(page, '/api/v3/auth/me')).status).toBe(401);

      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      await expect(page.getByRole('banner').getByText(accounts.admin).isVisible()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Sign out', exact: true }).isVisible()).resolves.toBe(true);
      expect(new URL(page.url()).pathname).toBe('/app/agents');
      // The session cookie is HttpOnly: the page's script cannot read it.
      expect(await page.evaluate('document.cookie')).not.toContain('rmm_session');
      const me = await fetchFromPage(page, '/api/v3/auth/me');
      expect(me).toEqual({ status: 200, body: expect.objectContaining({ operator: expect.objectContaining({ email: accounts.admin, role: 'admin' }), has_password: true, totp: false }) });
    }, 60_000);

    it('asks an operator with two-factor sign-in for the Code, and lets them in with a valid one', async () => {
      const enrolled = await run([CLI_JS, 'operator', 'totp', '--email', accounts.totp], cleanEnv({ DATABASE_URL: t.db.url }));
      expect(enrolled.code).toBe(0);
      const secret = new URL(/otpauth:\/\/\S+/.exec(enrolled.stdout)![0]).searchParams.get('secret')!;
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);

      const p = await newPage(DESKTOP);
      await signIn(p, accounts.totp);
      await p.getByLabel('Code').waitFor();
      await shot(p, '02-sign-in-code');
      await p.getByLabel('Code').fill(totpCode(secret, new Date(Date.now() - 120_000))); // an old code is refused
      await p.getByRole('button', { name: 'Sign in', exact: true }).click();
      await until('the wrong code refused', async () => (await p.getByRole('alert').innerText().catch(() => '')).includes('Invalid'));
      expect((await fetchFromPage(p, '/api/v3/auth/me')).status).toBe(401);

      await p.getByLabel('Code').fill(totpCode(secret, new Date()));
      await p.getByRole('button', { name: 'Sign in', exact: true }).click();
      await p.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      expect((await fetchFromPage(p, '/api/v3/auth/me')).body.operator.email).toBe(accounts.totp);
    }, 90_000);

    it('shows an agent come online live, without a reload, when its process starts after the page is open', async () => {
      await agentRow(page, OTHER_HOSTNAME).waitFor();
      await page.evaluate('window.notReloaded = true');
      await shot(page, '03-agents-before');

      const prefix = join(work, 'agent');
      const env = { ...process.env, RMM_AGENT_HOSTNAME: HOSTNAME };
      const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: defaultClient, site: defaultSite });
      expect(d.status).toBe(201);
      const reg = await run([AGENT_JS, 'register', '--server', t.url, '--token', d.body.uuid, '--prefix', prefix], env, 30_000);
      expect(reg.code).toBe(0);
      agentId = reg.stdout.trim();
      // Registered, not started yet: a page opened now lists it as "registered, never connected" (issue #29 point 12)
      const fresh = await newPage(DESKTOP);
      await signIn(fresh, accounts.admin);
      await agentRow(fresh, HOSTNAME).waitFor();
      expect(await agentRow(fresh, HOSTNAME).getByRole('cell').allInnerTexts()).toEqual(['', HOSTNAME, 'Default / Default', expect.stringMatching(/^linux/i), 'offline', 'registered, never connected', '0', '']); // (select box; no tags)
      await agentRow(fresh, HOSTNAME).getByRole('link', { name: HOSTNAME }).click();
      await fresh.getByRole('heading', { name: HOSTNAME, level: 1 }).waitFor();
      await expect(fresh.getByText('Default / Default · registered, never connected').count()).resolves.toBe(1);
      await fresh.context().close();
      agent = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', prefix], { env, cwd: ROOT });
      agent.stdout!.on('data', (c) => (agentOutput += c));
      agent.stderr!.on('data', (c) => (agentOutput += c));

      const row = agentRow(page, HOSTNAME);
      await until(`the agent online in the list\n${agentOutput}`, async () => (await row.innerText().catch(() => '')).includes('online'), 20_000);
      expect(await row.getByRole('cell').allInnerTexts()).toEqual(['', HOSTNAME, 'Default / Default', expect.stringMatching(/^linux/i), 'online', 'now', '0', '']);
      expect(await page.evaluate('window.notReloaded')).toBe(true);
      await shot(page, '04-agents');

      // Search and the status filter narrow the list.
      await page.getByLabel('Search').fill('other-co');
      await until('the search applied', async () => (await page.getByRole('link', { name: HOSTNAME }).count()) === 0);
      await expect(agentRow(page, OTHER_HOSTNAME).count()).resolves.toBe(1);
      await page.getByLabel('Search').fill('');
      await page.getByLabel('Status').selectOption('online');
      await until('the status filter applied', async () => (await agentRow(page, OTHER_HOSTNAME).count()) === 0);
      await expect(agentRow(page, HOSTNAME).count()).resolves.toBe(1);
      await page.getByLabel('Status').selectOption('');
    }, 90_000);

    it('runs a script on the agent page and shows its output line by line as it streams, then the return code and time', async () => {
      await agentRow(page, HOSTNAME).getByRole('link', { name: HOSTNAME }).click();
      await page.getByRole('heading', { name: HOSTNAME, level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Run script' }).click();
      await page.getByLabel('Script', { exact: true }).selectOption({ label: 'Count slowly (bash)' });
      await expect(page.getByLabel('Timeout (seconds)').inputValue()).resolves.toBe('60');
      await page.getByRole('button', { name: 'Run', exact: true }).click();

      const output = page.getByRole('log', { name: 'Script output' });
      const result = page.getByRole('status').filter({ hasText: /Running|Return code|Timed out/ });
      await until('the first line', async () => (await output.innerText()).includes('line 1'), 20_000);
      // Streamed: the first line is shown while the script is still running (it sleeps 1.5 s between lines).
      const early = await output.innerText();
      expect(early).not.toContain('line 4');
      await expect(result.innerText()).resolves.toBe('Running…');
      await until('the second line', async () => (await output.innerText()).includes('line 2'), 20_000);
      await shot(page, '05-agent-run-streaming');

      await until('the end of the run', async () => (await result.innerText()).startsWith('Return code'), 30_000);
      await expect(output.innerText()).resolves.toBe('line 1\nline 2\nline 3\nline 4\ndone\n');
      expect(await result.innerText()).toMatch(/^Return code 0 · \d+\.\d{3} s$/);
      await shot(page, '06-agent-run-finished');
      // The run is in the run history too.
      await until('the run in the history', async () => (await page.getByRole('region', { name: 'Run history' }).innerText()).includes('Count slowly'));
    }, 90_000);

    it('acknowledges, from the Alerts page, an alert raised by a real failing check on the agent', async () => {
      const check = await t.http
        .post('/api/v3/checks/')
        .set(admin)
        .send({ agent: agentId, check_type: 'diskspace', settings: { drive: '/', threshold_percent: 99 }, run_interval: 5, fails_b4_alert: 1, severity: 'error' });
      expect(check.status).toBe(201);
      // The agent page shows the check failing, live.
      const checks = page.getByRole('region', { name: 'Checks' });
      await until(`the check failing on the agent page\n${agentOutput}`, async () => (await checks.innerText().catch(() => '')).includes('failing'), 30_000);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
      await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
      const row = page.getByRole('row').filter({ hasText: 'threshold 99 %' });
      await until('the alert on the Alerts page', async () => (await row.count()) === 1, 30_000);
      await expect(row.getByRole('link', { name: HOSTNAME }).count()).resolves.toBe(1);
      await shot(page, '07-alerts');
      await row.getByRole('button', { name: 'Acknowledge' }).click();
      await until('the alert gone from Open', async () => (await row.count()) === 0);

      await page.getByRole('radio', { name: /Acknowledged/ }).check();
      await until('the alert under Acknowledged', async () => (await row.count()) === 1);
      await expect(row.innerText()).resolves.toContain(`Acknowledged by ${accounts.admin}`);
      const alerts = await t.http.get('/api/v3/alerts/').query({ agent: agentId }).set(admin);
      expect(alerts.body).toEqual([expect.objectContaining({ check: check.body.id, acknowledged: true, acknowledged_by: accounts.admin, resolved: false })]);
      await shot(page, '08-alerts-acknowledged');
    }, 90_000);

    it('creates a deployment and copies its Linux install command, which holds the download URL', async () => {
      const p = await newPage(DESKTOP, true);
      await signIn(p, accounts.admin);
      await p.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deployments' }).click();
      const form = p.getByRole('region', { name: 'Create a deployment' });
      await form.getByLabel('Client').selectOption({ label: 'Other Co' });
      await form.getByLabel('Site').selectOption({ label: 'Branch' });
      await form.getByRole('button', { name: 'Create deployment' }).click();
      const created = p.getByRole('region', { name: 'New deployment' });
      await created.waitFor();

      const list = await t.http.get('/api/v3/agents/deployments/').set(admin);
      const deployment = (list.body as Array<{ client: number; download_url: string }>).find((x) => x.client !== defaultClient)!;
      expect(deployment.download_url).toMatch(new RegExp(`^${t.url}/deploy/[0-9a-f-]{36}$`));
      await expect(created.innerText()).resolves.toContain(deployment.download_url);
      await created.getByRole('button', { name: 'Copy Linux command' }).click();
      await created.getByRole('button', { name: 'Copy Linux command' }).filter({ hasText: 'Copied' }).waitFor();
      const copied = await p.evaluate<string>('navigator.clipboard.readText()');
      expect(copied).toContain(`${deployment.download_url}?platform=linux`);
      // as root without sudo (a root shell often has none), else through sudo (issue #29 point 12)
      expect(copied).toMatch(/^curl -fsSL '.+' -o rmm-agent-install\.sh && if \[ "\$\(id -u\)" = 0 \]; then sh rmm-agent-install\.sh; else sudo sh rmm-agent-install\.sh; fi$/);
      // The command works: what it downloads is the Linux installer of this deployment.
      const linuxUrl = new URL(`${deployment.download_url}?platform=linux`);
      const installer = await t.http.get(`${linuxUrl.pathname}${linuxUrl.search}`);
      expect([installer.status, installer.headers['content-type']]).toEqual([200, 'text/x-shellscript; charset=utf-8']);
      await expect(created.innerText()).resolves.toContain(`${deployment.download_url}?platform=windows`);
      await shot(p, '09-deployments');

      // Revoked from the list (after the browser's confirmation): gone from it, and its download URL answers 410.
      p.once('dialog', (d) => void d.accept());
      const listed = p.getByRole('region', { name: 'Active deployments' }).getByRole('row').filter({ hasText: 'Other Co / Branch' });
      await listed.getByRole('button', { name: 'Revoke' }).click();
      await until('the deployment gone from the list', async () => (await listed.count()) === 0);
      expect((await t.http.get(`${linuxUrl.pathname}${linuxUrl.search}`)).status).toBe(410);
    }, 90_000);

    it('creates a script in the editor, highlighted for its shell, and saves changes to it', async () => {
      await page.goto(`${t.url}/app/scripts`);
      await page.getByRole('button', { name: 'New script' }).click(); // (a link styled as Pico's button)
      await page.getByRole('heading', { name: 'New script', level: 1 }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Hello from Python');
      await page.getByLabel('Shell').selectOption('python');
      const body = page.getByRole('textbox', { name: 'Body' });
      await body.click();
      // (insertText: as pasted, so the editor's own indentation on Enter does not add to the typed one)
      await page.keyboard.insertText('def hello(name):\n    return "hello " + name\n');
      await page.getByRole('button', { name: 'Create script' }).click();
      await page.getByRole('heading', { name: 'Hello from Python', level: 1 }).waitFor();
      const id = Number(/\/app\/scripts\/(\d+)$/.exec(page.url())![1]);
      const stored = await t.http.get(`/api/v3/scripts/${id}/`).set(admin);
      expect(stored.body).toMatchObject({ name: 'Hello from Python', shell: 'python', body: 'def hello(name):\n    return "hello " + name\n' });
      // Highlighted: the keyword and the string are tokens of their own (CodeMirror's python mode).
      const tokens = await body.locator('span').allInnerTexts();
      expect(tokens).toEqual(expect.arrayContaining(['def', '"hello "']));
      await shot(page, '10-script-editor');

      await page.getByLabel('Default timeout (seconds)').fill('30');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await t.http.get(`/api/v3/scripts/${id}/`).set(admin)).body.default_timeout).toBe(30);
    }, 60_000);

    it('asks for the paths as docs/api.md writes them: the Audit page finds the script saved above under /api/v3/scripts/', async () => {
      // (The OpenAPI document's paths have no trailing slash; the audit log keeps the path the console requested.)
      await page.goto(`${t.url}/app/audit`);
      await page.getByLabel('Path starts with').fill('/api/v3/scripts/');
      const targets = page.getByRole('row').filter({ hasText: accounts.admin }).locator('code');
      const shown = await until('the list filtered by that path', async () => {
        const texts = await targets.allInnerTexts();
        return texts.length > 0 && texts.every((x) => x.startsWith('/api/v3/scripts/')) && texts;
      });
      expect(shown).toEqual(expect.arrayContaining(['/api/v3/scripts/', expect.stringMatching(/^\/api\/v3\/scripts\/\d+\/$/)]));
    });

    it('offers a viewer no Run script and no Acknowledge, and the API refuses them 403', async () => {
      const p = await newPage(DESKTOP);
      await signIn(p, accounts.viewer);
      await p.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      await expect(p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operators' }).count()).resolves.toBe(0);
      await agentRow(p, HOSTNAME).getByRole('link', { name: HOSTNAME }).click();
      await p.getByRole('heading', { name: HOSTNAME, level: 1 }).waitFor();
      await p.getByRole('region', { name: 'Run history' }).waitFor();
      await p.getByRole('region', { name: 'Alerts', exact: true }).getByText('threshold 99 %').waitFor();
      await expect(p.getByRole('button', { name: 'Run script' }).count()).resolves.toBe(0);
      await expect(p.getByRole('button', { name: 'Allow re-enrollment' }).count()).resolves.toBe(0);
      await expect(p.getByRole('button', { name: 'Acknowledge' }).count()).resolves.toBe(0);
      await expect(p.getByRole('button', { name: 'Resolve' }).count()).resolves.toBe(0);
      await shot(p, '11-viewer-agent');

      const refused = await fetchFromPage(p, `/api/v3/agents/${agentId}/runscript/`, { method: 'POST', body: { script: scriptId, output: 'forget' } });
      expect(refused).toEqual({ status: 403, body: { detail: 'permission denied' } });
      // Reading is allowed.
      expect((await fetchFromPage(p, `/api/v3/agents/${agentId}/`)).status).toBe(200);
    }, 60_000);

    it('shows a client-limited technician only their clients’ agents; another client’s agent does not exist for them', async () => {
      const p = await newPage(DESKTOP);
      await signIn(p, accounts.tech);
      await p.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
      await agentRow(p, HOSTNAME).waitFor();
      await expect(agentRow(p, OTHER_HOSTNAME).count()).resolves.toBe(0);
      await expect(p.getByText('1 of 1 agents').count()).resolves.toBe(1);
      await expect(p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).count()).resolves.toBe(0);
      await shot(p, '12-technician-agents');

      await p.goto(`${t.url}/app/agents/${otherAgentId}`);
      await p.getByRole('alert').filter({ hasText: 'Not found' }).waitFor();
      expect(await fetchFromPage(p, `/api/v3/agents/${otherAgentId}/`)).toEqual({ status: 404, body: { detail: 'Not found' } });
      // A technician runs scripts on their own client's agents.
      await p.goto(`${t.url}/app/agents/${agentId}`);
      await p.getByRole('button', { name: 'Run script' }).waitFor();
      // and answers an enrollment_conflict of one (issue #30, N1): the next registration within 24 h may take it over
      await p.getByRole('button', { name: 'Allow re-enrollment' }).click();
      await p.getByRole('status').filter({ hasText: 'Re-enrollment allowed until' }).waitFor();
      const [allowed] = await sql<{ until: Date | null }>(t.db.url, `SELECT reenroll_allowed_until AS until FROM agents WHERE id = $1`, [Number(agentId)]);
      expect(allowed.until).toBeInstanceOf(Date);
      await sql(t.db.url, `UPDATE agents SET reenroll_allowed_until = NULL WHERE id = $1`, [Number(agentId)]);
    }, 60_000);

    it('refuses a change by cookie without the console’s header (CSRF), and a WebSocket with the cookie from another origin', async () => {
      const noHeader = await fetchFromPage(page, '/api/v3/scripts/', { method: 'POST', csrf: false, body: { name: 'csrf', shell: 'bash', body: 'true' } });
      expect(noHeader).toEqual({ status: 403, body: { detail: 'CSRF check failed' } });
      const scripts = await t.http.get('/api/v3/scripts/').set(admin);
      expect(scripts.body.map((s: { name: string }) => s.name)).not.toContain('csrf');

      const cookie = (await page.context().cookies(t.url)).find((c) => c.name === 'rmm_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      const upgrade = (origin: string) =>
        new Promise<number>((resolve, reject) => {
          const ws = new WebSocket(`${t.url.replace('http', 'ws')}/rmm/fleet/`, { headers: { Cookie: `rmm_session=${cookie!.value}`, Origin: origin } });
          ws.on('open', () => {
            ws.close();
            resolve(101);
          });
          ws.on('unexpected-response', (_req, res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          ws.on('error', reject);
        });
      await expect(upgrade('http://evil.example')).resolves.toBe(403);
      await expect(upgrade(t.url)).resolves.toBe(101);
    }, 60_000);

    it('has no serious or critical accessibility violation and no CSP violation on any page, at 1280×800 and at 390×844', async () => {
      const { AxeBuilder } = await import('@axe-core/playwright');
      const pages = ['agents', `agents/${agentId}`, 'alerts', 'deployments', 'scripts', `scripts/${scriptId}`, 'scripts/new', 'clients', 'notifications', 'api-keys', 'operators', 'audit'];
      const found: string[] = [];
      for (const viewport of [DESKTOP, PHONE]) {
        const p = await newPage(viewport);
        await signIn(p, accounts.admin);
        await p.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
        for (const path of pages) {
          await p.goto(`${t.url}/app/${path}`);
          await p.getByRole('heading', { level: 1 }).first().waitFor();
          // (A function, not a string: the console's CSP refuses string evaluation, and Playwright would eval one.)
          await p.waitForFunction(() => (globalThis as any).document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 15_000 });
          const result = await new AxeBuilder({ page: p }).analyze();
          for (const v of result.violations) {
            if (v.impact === 'serious' || v.impact === 'critical') found.push(`${viewport.width}px /app/${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          }
        }
        if (viewport === PHONE) {
          // The navigation collapses behind "Menu" on a narrow screen.
          await p.goto(`${t.url}/app/agents`);
          const nav = p.getByRole('navigation', { name: 'Main' });
          await expect(nav.getByRole('link', { name: 'Alerts' }).isVisible()).resolves.toBe(false);
          await shot(p, '13-phone-agents');
          await nav.getByRole('button', { name: 'Menu' }).click();
          await expect(nav.getByRole('link', { name: 'Alerts' }).isVisible()).resolves.toBe(true);
          await shot(p, '14-phone-menu');
          await nav.getByRole('link', { name: 'Alerts' }).click();
          await p.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
          await expect(nav.getByRole('link', { name: 'Agents' }).isVisible()).resolves.toBe(false);
        }
      }
      expect(found).toEqual([]);
      expect(cspViolations).toEqual([]);
    }, 240_000);

    it('signs out: the sign-in page again, and the session is gone on the server', async () => {
      await page.goto(`${t.url}/app/agents`);
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect((await fetchFromPage(page, '/api/v3/auth/me')).status).toBe(401);
    }, 30_000);
  });
}
