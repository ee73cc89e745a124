import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT, run } from '../utils/processes';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * The console's Notifications page and its queue option for an offline agent (docs/console.md), in Debian's
 * Chromium driven by playwright-core against the real server, as console.e2e-spec.ts does: a technician creates
 * a webhook channel pointing at a receiver on 127.0.0.1 (RMM_NOTIFY_ALLOW_PRIVATE=true) and sends it a test, a
 * viewer reads the same page without its controls, a run is queued for an offline agent and cancelled, and axe-core
 * walks the new views at both sizes. CONSOLE_SCREENSHOTS=<dir> keeps a screenshot of each step.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SHOTS = process.env.CONSOLE_SCREENSHOTS;
const ADMIN_KEY = 'console-notify-e2e-admin-key-0123456789';
const PASSWORD = 'correct horse battery staple';
const OFFLINE_HOSTNAME = 'AWAY-LAPTOP-07';
const RETURNING_HOSTNAME = 'console-notify-back-01';
const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');
const SECRET = 'the-webhook-secret-5f1d0c';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the console’s Notifications page and queued runs in a browser', () => {
    it.skip('creates a channel, sends a test, queues a run for an offline agent (needs Chromium)', () => undefined);
  });
} else {
  describe('the console’s Notifications page and queued runs in a browser', () => {
    let t: TestApp;
    let browser: Browser;
    let receiver: Server;
    let receiverUrl: string;
    const received: Received[] = [];
    let offlineAgentId: number;
    let scriptId: number;
    let work: string;
    let agent: ChildProcess | undefined;
    let agentOutput = '';
    const admin = { 'X-API-KEY': ADMIN_KEY };
    const contexts: BrowserContext[] = [];
    const cspViolations: string[] = [];
    const accounts = { admin: 'admin@notify.test', tech: 'tech@notify.test', viewer: 'viewer@notify.test' };

    const shot = async (page: Page, name: string): Promise<void> => {
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
    };

    const newPage = async (viewport = DESKTOP): Promise<Page> => {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      const page = await context.newPage();
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => console.log(`CSP violation: ${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}`))",
      );
      page.on('console', (m) => {
        if (m.text().startsWith('CSP violation')) cspViolations.push(`${page.url()}: ${m.text()}`);
      });
      return page;
    };

    const signIn = async (page: Page, email: string): Promise<void> => {
      await page.goto(`${t.url}/app/`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    };

    const openNotifications = async (page: Page): Promise<void> => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    };

    /** A channel's row in the list (not the row of its deliveries under it). */
    const channelRow = (page: Page, name: string) => page.getByRole('region', { name: 'Channels' }).locator('tr[data-channel-id]').filter({ hasText: name });

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => {
          received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
          res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/rmm-hook`;

      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_NOTIFY_ALLOW_PRIVATE: 'true' });
      work = mkdtempSync(join(tmpdir(), 'rmm-console-notify-e2e-'));
      if (SHOTS) mkdirSync(SHOTS, { recursive: true });
      for (const [email, role] of [
        [accounts.admin, 'admin'],
        [accounts.tech, 'technician'],
        [accounts.viewer, 'viewer'],
      ]) {
        const res = await t.http.post('/api/v3/operators/').set(admin).send({ email, password: PASSWORD, role });
        expect([email, res.status]).toEqual([email, 201]);
      }
      const tenant = await createTenant(t, 'Field Co', 'Vans');
      offlineAgentId = await insertAgent(t, { hostname: OFFLINE_HOSTNAME, ...tenant, plat: 'linux', status: 'offline' });
      const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'Collect logs', shell: 'bash', body: 'journalctl -n 50', default_timeout: 60 });
      expect(script.status).toBe(201);
      scriptId = script.body.id;

      const { chromium } = await import('playwright-core');
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
      if (receiver) await new Promise((r) => receiver.close(r));
    });

    let tech: Page;

    it('a technician creates a webhook channel in the page; the list shows it, and the secret is never shown or answered', async () => {
      tech = await newPage(DESKTOP);
      await signIn(tech, accounts.tech);
      await openNotifications(tech);
      await tech.getByText('No channel yet.').waitFor();

      const form = tech.getByRole('region', { name: 'New channel' });
      await form.getByLabel('Channel name').fill('On-call hook');
      await form.getByLabel('Type').selectOption('webhook');
      await form.getByLabel('URL').fill(receiverUrl);
      await form.getByLabel(/^Secret/).fill(SECRET);
      await form.getByLabel('Minimum severity').selectOption('info');
      await form.getByRole('checkbox', { name: 'agent.offline' }).check();
      await form.getByRole('checkbox', { name: 'Field Co' }).check();
      await form.getByRole('button', { name: 'Create channel' }).click();
      await form.getByRole('status').filter({ hasText: 'Channel On-call hook created.' }).waitFor();

      const row = channelRow(tech, 'On-call hook');
      await row.waitFor();
      const port = new URL(receiverUrl).port;
      expect(await row.getByRole('cell').allInnerTexts()).toEqual([
        'On-call hook\nsigned',
        'Webhook',
        `127.0.0.1:${port}`,
        'alert.created, alert.resolved, agent.offline',
        'info',
        'Field Co',
        'enabled',
        expect.stringContaining('Send test'),
      ]);
      await expect(tech.locator('body').innerText()).resolves.not.toContain(SECRET);
      await shot(tech, 'notify-01-created');

      const list = await t.http.get('/api/v3/notifications/').set(admin);
      expect(list.body).toEqual([
        expect.objectContaining({
          name: 'On-call hook',
          type: 'webhook',
          url: receiverUrl,
          has_secret: true,
          min_severity: 'info',
          events: ['alert.created', 'alert.resolved', 'agent.offline'],
          enabled: true,
        }),
      ]);
      expect(list.body[0].clients).toHaveLength(1);
      expect(JSON.stringify(list.body)).not.toContain(SECRET);
    }, 90_000);

    it('Send test shows the channel delivered (200); the receiver got it, signed, as notification.test; the deliveries list it', async () => {
      const row = channelRow(tech, 'On-call hook');
      await row.getByRole('button', { name: 'Send test to On-call hook' }).click();
      await tech.getByRole('status').filter({ hasText: 'Test of On-call hook' }).waitFor();
      await expect(tech.getByRole('status').filter({ hasText: 'Test of On-call hook' }).innerText()).resolves.toBe('Test of On-call hook: delivered (200)');

      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ method: 'POST', url: '/rmm-hook' });
      expect(received[0].headers['x-rmm-event']).toBe('notification.test');
      expect(received[0].headers['x-rmm-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(JSON.parse(received[0].body)).toMatchObject({ event: 'notification.test', id: received[0].headers['x-rmm-delivery'] });

      await row.getByRole('button', { name: 'Deliveries of On-call hook' }).click();
      const deliveries = tech.getByRole('table', { name: 'Deliveries of On-call hook' });
      await deliveries.waitFor();
      const rows = deliveries.getByRole('row');
      await expect(rows.count()).resolves.toBe(2); // the heading row and the test
      const cells = await rows.nth(1).getByRole('cell').allInnerTexts();
      expect(cells.slice(1, 5)).toEqual(['notification.test (info)', 'delivered', '1', '200']);
      expect(cells[5]).toMatch(/^delivered /);
      await shot(tech, 'notify-02-test-delivered');
    }, 60_000);

    it('Send test to an unreachable receiver shows the error; Disable and Enable change the channel; Delete (confirmed) removes it', async () => {
      const made = await t.http
        .post('/api/v3/notifications/')
        .set(admin)
        .send({ name: 'Nobody home', type: 'webhook', url: 'http://127.0.0.1:1/hook', min_severity: 'error', events: ['agent.overdue'] });
      expect(made.status).toBe(201);
      await tech.reload();
      const row = channelRow(tech, 'Nobody home');
      await row.waitFor();
      await row.getByRole('button', { name: 'Send test to Nobody home' }).click();
      const outcome = tech.getByRole('status').filter({ hasText: 'Test of Nobody home' });
      await outcome.waitFor();
      expect(await outcome.innerText()).toMatch(/^Test of Nobody home: not delivered: .+/);
      expect(await outcome.innerText()).not.toContain('no reason given');

      // Issue 30, N2 point 3: failing for 20 minutes (moved back in the database), the next failure opens the
      // channel's circuit, and the page shows it with its reason; Enable (below) closes it.
      await sql(t.db.url, `UPDATE notification_channels SET failing_since = now() - interval '20 minutes' WHERE id = $1`, [made.body.id]);
      await row.getByRole('button', { name: 'Send test to Nobody home' }).click();
      await until('the circuit open', async () => (await t.http.get(`/api/v3/notifications/${made.body.id}/`).set(admin)).body.circuit_open === true);
      await tech.reload();
      await row.waitFor();
      await until('the channel shown with its circuit open', async () => (await row.innerText()).includes('circuit_open'));
      expect(await row.locator('[data-circuit-reason]').innerText()).toMatch(/^every attempt has failed since \d{4}-\d\d-\d\dT[\d:.]+Z; last: .+; one probe at a time until one succeeds$/);

      await row.getByRole('button', { name: 'Disable Nobody home' }).click();
      await until('the channel shown disabled', async () => (await row.innerText()).includes('disabled'));
      expect((await t.http.get(`/api/v3/notifications/${made.body.id}/`).set(admin)).body.enabled).toBe(false);
      await row.getByRole('button', { name: 'Enable Nobody home' }).click();
      await until('the channel shown enabled', async () => (await row.innerText()).includes('enabled'));
      expect((await t.http.get(`/api/v3/notifications/${made.body.id}/`).set(admin)).body).toMatchObject({ enabled: true, circuit_open: false, failing_since: null });
      expect(await row.innerText()).not.toContain('circuit_open');

      tech.once('dialog', (d) => void d.accept());
      await row.getByRole('button', { name: 'Delete Nobody home' }).click();
      await until('the channel gone from the list', async () => (await row.count()) === 0);
      expect((await t.http.get(`/api/v3/notifications/${made.body.id}/`).set(admin)).status).toBe(404);
      await expect(channelRow(tech, 'On-call hook').count()).resolves.toBe(1);
    }, 60_000);

    it('shows the API’s refusal next to the form (a URL that is not http or https), and creates nothing', async () => {
      const form = tech.getByRole('region', { name: 'New channel' });
      await form.getByLabel('Channel name').fill('Bad scheme');
      await form.getByLabel('URL').fill('ftp://files.example.com/hook');
      await form.getByRole('button', { name: 'Create channel' }).click();
      const error = form.getByRole('alert');
      await error.waitFor();
      expect(await error.innerText()).toContain('must be an http:// or https:// URL');
      const list = await t.http.get('/api/v3/notifications/').set(admin);
      expect(list.body.map((c: { name: string }) => c.name)).toEqual(['On-call hook']);
    }, 30_000);

    it('shows a viewer the channels without create, test, enable/disable or delete controls; the API refuses them 403', async () => {
      const p = await newPage(DESKTOP);
      await signIn(p, accounts.viewer);
      await openNotifications(p);
      const row = channelRow(p, 'On-call hook');
      await row.waitFor();
      await expect(p.getByRole('region', { name: 'New channel' }).count()).resolves.toBe(0);
      await expect(p.getByRole('button', { name: /Create channel|Send test|Disable|Enable|Delete/ }).count()).resolves.toBe(0);
      // Reading the deliveries is theirs.
      await row.getByRole('button', { name: 'Deliveries of On-call hook' }).click();
      await p.getByRole('table', { name: 'Deliveries of On-call hook' }).getByText('notification.test').waitFor();
      await shot(p, 'notify-03-viewer');

      const refused = await p.evaluate(async () => {
        const res = await fetch('/api/v3/notifications/', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'rmm-console' },
          body: JSON.stringify({ name: 'x', type: 'webhook', url: 'http://127.0.0.1/x', min_severity: 'info', events: ['alert.created'] }),
        });
        return { status: res.status, body: (await res.json()) as unknown };
      });
      expect(refused).toEqual({ status: 403, body: { detail: 'permission denied' } });
    }, 60_000);

    it('queues a run for an offline agent from its page, shows it queued (and in the run history), and cancels it', async () => {
      await tech.goto(`${t.url}/app/agents/${offlineAgentId}`);
      await tech.getByRole('heading', { name: OFFLINE_HOSTNAME, level: 1 }).waitFor();
      await tech.getByRole('button', { name: 'Run script' }).click();
      await tech.getByLabel('Script', { exact: true }).selectOption({ label: 'Collect logs (bash)' });
      await expect(tech.getByRole('button', { name: 'Run', exact: true }).count()).resolves.toBe(0);
      await tech.getByRole('button', { name: 'Queue until the agent is back' }).click();

      const result = tech.getByRole('status').filter({ hasText: /Queued|Running|Cancelled/ });
      await until('the run shown queued', async () => (await result.innerText().catch(() => '')) === 'Queued: it runs when the agent is back');
      const queued = await t.http.get(`/api/v3/agents/${offlineAgentId}/runs/`).query({ status: 'queued' }).set(admin);
      expect(queued.body).toEqual([expect.objectContaining({ script: scriptId, status: 'queued', started_at: null, output: 'forget', expires_at: expect.any(String) })]);
      const runId: number = queued.body[0].id;
      await tech.getByRole('heading', { name: `Run ${runId}` }).waitFor();
      const history = tech.getByRole('region', { name: 'Run history' });
      await until('the queued run in the history', async () => (await history.innerText()).includes('queued'));
      await shot(tech, 'notify-04-run-queued');

      await tech.getByRole('button', { name: `Cancel queued run ${runId}` }).click();
      await until('the run shown cancelled', async () => (await result.innerText()) === 'Cancelled: it will not run');
      expect((await t.http.get(`/api/v3/agents/${offlineAgentId}/runs/${runId}/`).set(admin)).body.status).toBe('cancelled');
      await until('the cancelled run in the history', async () => (await history.innerText()).includes('cancelled'));
      await expect(tech.getByRole('button', { name: /Cancel queued run/ }).count()).resolves.toBe(0);
    }, 60_000);

    it('runs a run queued from the page when its (real) agent comes back, streaming its output into the same panel', async () => {
      // An enrolled agent whose process is not running: offline.
      const prefix = join(work, 'agent');
      const env = { ...process.env, RMM_AGENT_HOSTNAME: RETURNING_HOSTNAME };
      const d = await t.http
        .post('/api/v3/agents/deployments/')
        .set(admin)
        .send({ client: t.server.runtime.rmmDefaultClientId, site: t.server.runtime.rmmDefaultSiteId });
      expect(d.status).toBe(201);
      const reg = await run([AGENT_JS, 'register', '--server', t.url, '--token', d.body.uuid, '--prefix', prefix], env, 30_000);
      expect(reg.code).toBe(0);
      const agentId = reg.stdout.trim();
      const hello = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'Say hello', shell: 'bash', body: 'echo "back again"', default_timeout: 30 });
      expect(hello.status).toBe(201);

      await tech.goto(`${t.url}/app/agents/${agentId}`);
      await tech.getByRole('heading', { name: RETURNING_HOSTNAME, level: 1 }).waitFor();
      await tech.getByRole('button', { name: 'Run script' }).click();
      await tech.getByLabel('Script', { exact: true }).selectOption({ label: 'Say hello (bash)' });
      await tech.getByRole('button', { name: 'Queue until the agent is back' }).click();
      const result = tech.getByRole('status').filter({ hasText: /Queued|Running|Return code|Timed out/ });
      await until('the run shown queued', async () => (await result.innerText().catch(() => '')) === 'Queued: it runs when the agent is back');

      agent = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', prefix], { env, cwd: ROOT });
      agent.stdout!.on('data', (c) => (agentOutput += c));
      agent.stderr!.on('data', (c) => (agentOutput += c));
      await until(`the queued run's end in the panel\n${agentOutput}`, async () => (await result.innerText()).startsWith('Return code'), 30_000);
      expect(await result.innerText()).toMatch(/^Return code 0 · \d+\.\d{3} s$/);
      await expect(tech.getByRole('log', { name: 'Script output' }).innerText()).resolves.toBe('back again\n');
      await expect(tech.getByRole('button', { name: /Cancel queued run/ }).count()).resolves.toBe(0);
      await shot(tech, 'notify-05-queued-run-ran');
    }, 90_000);

    it('has no serious or critical accessibility violation and no CSP violation on the new views, at 1280×800 and 390×844', async () => {
      const { AxeBuilder } = await import('@axe-core/playwright');
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
        await signIn(p, accounts.admin);
        await p.goto(`${t.url}/app/notifications`);
        await channelRow(p, 'On-call hook').waitFor();
        await check(p, '/app/notifications', viewport.width);
        // With a channel's deliveries open, and with the outcome of a test shown.
        await channelRow(p, 'On-call hook').getByRole('button', { name: 'Deliveries of On-call hook' }).click();
        await p.getByRole('table', { name: 'Deliveries of On-call hook' }).waitFor();
        await channelRow(p, 'On-call hook').getByRole('button', { name: 'Send test to On-call hook' }).click();
        await p.getByRole('status').filter({ hasText: 'Test of On-call hook' }).waitFor();
        await check(p, '/app/notifications (deliveries, test outcome)', viewport.width);
        if (viewport === PHONE) await shot(p, 'notify-06-phone');
        // The agent page's Run script panel offering the queue.
        await p.goto(`${t.url}/app/agents/${offlineAgentId}`);
        await p.getByRole('button', { name: 'Run script' }).click();
        await p.getByRole('button', { name: 'Queue until the agent is back' }).waitFor();
        await check(p, `/app/agents/${offlineAgentId} (queue)`, viewport.width);
      }
      expect(found).toEqual([]);
      expect(cspViolations).toEqual([]);
    }, 180_000);
  });
}
