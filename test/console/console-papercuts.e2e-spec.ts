import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { INSTALLER_REQUIREMENTS } from '../../apps/console/src/facts/installer-facts';
import { FakeAgent } from '../utils/fake-agent';
import { CONSOLE, createOperator, signIn as signInHttp } from '../utils/operators';
import { ROOT } from '../utils/processes';
import { createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';
import { sleep, until } from '../utils/wait';

/**
 * Issue #29's console papercuts (points 2, 3, 8 and the console's part of 9), in Debian's Chromium driven by
 * playwright-core against the real server, as console.e2e-spec.ts does: checks of every type and tasks added,
 * edited, disabled and deleted from the agent's page (the API's 400 under the form, a schedule's next runs
 * previewed); every page at 390×844 without sideways scrolling and with live-looking buttons; a signed-out visit
 * without a failed request; a queued run's start apart from its queueing and its stderr apart from its stdout;
 * the Deployments page's installer text and whole commands; the channel form fresh after Create.
 */
// What the functions given to playwright's evaluate use in the page (the tests are compiled without the DOM's types).
declare const document: { documentElement: { scrollWidth: number }; querySelectorAll(selector: string): Iterable<{ scrollWidth: number; clientWidth: number }> };
declare function getComputedStyle(element: unknown): { color: string; opacity: string; backgroundColor: string };

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const ADMIN_KEY = 'console-papercuts-admin-key-0123456789';
const PASSWORD = 'correct horse battery staple';
const TECH = 'tech@papercuts.test';
const ADMIN = 'admin@papercuts.test';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the console’s papercuts (issue 29)', () => {
    it.skip('checks and tasks forms, the phone layout, run output (needs Chromium)', () => undefined);
  });
} else {
  describe('the console’s papercuts (issue 29)', () => {
    let t: TestApp;
    let browser: Browser;
    let agentId: string;
    let secret: string;
    let scriptId: number;
    let agent: FakeAgent | undefined;
    const admin = { 'X-API-KEY': ADMIN_KEY };
    const contexts: BrowserContext[] = [];

    const newPage = async (viewport = DESKTOP): Promise<Page> => {
      const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC' });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on('dialog', (d) => void d.accept());
      return page;
    };
    const signIn = async (page: Page, email: string): Promise<void> => {
      await page.goto(`${t.url}/app/`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    };
    const openAgent = async (page: Page): Promise<void> => {
      await page.goto(`${t.url}/app/agents/${agentId}`);
      await page.getByRole('heading', { name: 'Checks' }).waitFor();
    };
    const checks = async (): Promise<Array<Record<string, any>>> => (await t.http.get('/api/v3/checks/').query({ agent: agentId }).set(admin)).body;
    const tasks = async (): Promise<Array<Record<string, any>>> => (await t.http.get('/api/v3/tasks/').query({ agent: agentId }).set(admin)).body;

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000' });
      await createOperator(t, TECH, 'technician', { password: PASSWORD });
      await createOperator(t, ADMIN, 'admin', { password: PASSWORD });
      const tenant = await createTenant(t, 'Northwind Logistics International', 'Rotterdam Distribution Centre');
      const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
      expect(d.status).toBe(201);
      const reg = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'NORTHWIND-WAREHOUSE-SCANNER-0042', plat: 'linux', version: '0.1.0' });
      expect(reg.status).toBe(200);
      agentId = reg.body.agent_id;
      secret = reg.body.agent_secret;
      const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'Check the spool', shell: 'bash', body: 'echo spool ok; echo spool is slow >&2' });
      expect(script.status).toBe(201);
      scriptId = script.body.id;
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    }, 180_000);

    afterAll(async () => {
      agent?.ws.terminate();
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      await t?.close();
    });

    it('asks GET /api/v3/auth/session first: a signed-out visit logs no failed request, and it names the operator once signed in', async () => {
      const page = await newPage();
      const errors: string[] = [];
      const failed: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('response', (r) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      });
      const session = page.waitForResponse((r) => r.url().includes('/api/v3/auth/session'));
      await page.goto(`${t.url}/app/`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await (await session).json()).toEqual({ signed_in: false, operator: null });
      expect({ errors, failed }).toEqual({ errors: [], failed: [] });

      const cookie = await signInHttp(t, TECH, PASSWORD);
      const signedIn = await t.http.get('/api/v3/auth/session/').set('Cookie', cookie).set(CONSOLE);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toEqual({ signed_in: true, operator: expect.objectContaining({ email: TECH, role: 'technician', scopes: expect.arrayContaining(['checks:write']) }) });
      // An API key is not a session: still 200, signed out.
      expect((await t.http.get('/api/v3/auth/session/').set(admin)).body).toEqual({ signed_in: false, operator: null });
    }, 60_000);

    it('adds a check of every type from the agent page, shows the API’s 400 under the form, edits, disables (the agent stops running it) and deletes', async () => {
      agent = await FakeAgent.connect(t.url, agentId, secret);
      await agent.next('hello');
      const page = await newPage();
      await signIn(page, TECH);
      await openAgent(page);
      const add = async (type: string, fill: (form: ReturnType<Page['getByRole']>) => Promise<void>): Promise<void> => {
        await page.getByRole('button', { name: 'Add check' }).click();
        const form = page.getByRole('region', { name: 'New check' });
        await form.getByLabel('Type').selectOption({ label: type });
        await fill(form);
        await form.getByRole('button', { name: 'Create check' }).click();
        await form.waitFor({ state: 'detached' });
      };

      // The API's 400, under the form's fields, named by the form's label; nothing is created.
      await page.getByRole('button', { name: 'Add check' }).click();
      const form = page.getByRole('region', { name: 'New check' });
      await form.getByLabel('Drive or mount point').fill('data');
      await form.getByRole('button', { name: 'Create check' }).click();
      expect((await form.getByRole('alert').innerText()).replace(/\n+/g, '\n')).toBe(
        'The server refused it (validation error):\nDrive or mount point: must be a drive letter such as "C:" or a mount point such as "/"',
      );
      expect(await form.getByLabel('Drive or mount point').getAttribute('aria-invalid')).toBe('true');
      expect(await checks()).toEqual([]);
      await form.getByLabel('Drive or mount point').fill('/var');
      await form.getByLabel('Alert below this % free').fill('15');
      await form.getByLabel('Run every (seconds)').fill('300');
      await form.getByRole('button', { name: 'Create check' }).click();
      await form.waitFor({ state: 'detached' });

      await add('CPU load', async (f) => {
        await f.getByLabel('Alert above this % CPU load').fill('85');
        await f.getByLabel('Alert severity').selectOption('error');
      });
      await add('Memory', async (f) => f.getByLabel('Alert above this % memory used').fill('92'));
      await add('Ping', async (f) => f.getByLabel('Host name or IP address').fill('gateway.northwind.test'));
      await add('Windows service', async (f) => f.getByLabel('Windows service name').fill('Spooler'));
      await add('Script', async (f) => {
        await f.getByLabel('Script', { exact: true }).selectOption({ label: 'Check the spool (bash)' });
        await f.getByLabel('Args (one per line)').fill('--queue\nmain');
        await f.getByLabel('Timeout (seconds)').fill('30');
      });
      await add('Event log', async (f) => {
        await f.getByLabel('Event log', { exact: true }).selectOption('Application');
        await f.getByLabel('Event ID (optional)').fill('1000');
        await f.getByLabel('Event type (optional)').selectOption('error');
        await f.getByLabel('Name (optional)').fill('Application crashes');
      });
      const made = await checks();
      expect(made.map((c) => [c.check_type, c.name, c.settings, c.enabled])).toEqual([
        ['diskspace', 'Disk space /var below 15% free', { drive: '/var', threshold_percent: 15 }, true],
        ['cpuload', 'CPU load above 85%', { threshold_percent: 85 }, true],
        ['memory', 'Memory use above 92%', { threshold_percent: 92 }, true],
        ['ping', 'Ping gateway.northwind.test', { target: 'gateway.northwind.test' }, true],
        ['winsvc', 'Service Spooler', { service_name: 'Spooler' }, true],
        ['script', `Script ${scriptId}`, { script: scriptId, args: ['--queue', 'main'], timeout: 30 }, true],
        ['eventlog', 'Application crashes', { log_name: 'Application', event_id: 1000, event_type: 'error' }, true],
      ]);
      expect(made[0].run_interval).toBe(300);
      expect(made[1].severity).toBe('error');
      const rows = page.getByRole('region', { name: 'Checks' }).locator('tr[data-check-id]');
      await until('seven checks listed', async () => (await rows.count()) === 7);

      // Edit: the form opens with the check's values; the type is fixed.
      await page.getByRole('button', { name: 'Edit check CPU load above 85%' }).click();
      const edit = page.getByRole('region', { name: 'Edit check CPU load above 85%' });
      expect(await edit.getByLabel('Alert above this % CPU load').inputValue()).toBe('85');
      expect(await edit.getByLabel('Type').isDisabled()).toBe(true);
      await edit.getByLabel('Alert above this % CPU load').fill('95');
      await edit.getByRole('button', { name: 'Save check' }).click();
      await edit.waitFor({ state: 'detached' });
      const cpu = (await checks()).find((c) => c.check_type === 'cpuload')!;
      expect([cpu.name, cpu.settings]).toEqual(['CPU load above 95%', { threshold_percent: 95 }]);

      // Disable: listed as disabled, and the agent's list no longer has it.
      await page.getByRole('button', { name: 'Disable check Memory use above 92%' }).click();
      await page.getByRole('button', { name: 'Enable check Memory use above 92%' }).waitFor();
      const memory = made.find((c) => c.check_type === 'memory')!;
      expect((await checks()).find((c) => c.id === memory.id)!.enabled).toBe(false);
      expect(await rows.filter({ hasText: 'Memory use above 92%' }).getByText('disabled', { exact: true }).count()).toBe(1);
      const synced = await until('a list without the disabled check', async () => {
        const m = agent!.messages.filter((x) => x.type === 'checks.sync').at(-1);
        return m && !(m.checks as Array<{ id: number }>).some((c) => c.id === memory.id) && (m.checks as unknown[]).length === 6 ? m : undefined;
      });
      expect(synced.checks).toHaveLength(6);
      await page.getByRole('button', { name: 'Enable check Memory use above 92%' }).click();
      await page.getByRole('button', { name: 'Disable check Memory use above 92%' }).waitFor();
      expect((await checks()).find((c) => c.id === memory.id)!.enabled).toBe(true);

      // Delete, after the confirmation.
      await page.getByRole('button', { name: 'Delete check Service Spooler' }).click();
      await until('the check gone', async () => (await rows.count()) === 6);
      expect((await checks()).map((c) => c.check_type)).not.toContain('winsvc');
    }, 90_000);

    it('adds a task with the next runs of its schedule previewed, shows a bad schedule’s 400, edits, disables and deletes it', async () => {
      const page = await newPage();
      await signIn(page, TECH);
      await openAgent(page);
      await page.getByRole('button', { name: 'Add task' }).click();
      const form = page.getByRole('region', { name: 'New task' });
      await form.getByLabel('Name').fill('Weekday spool check');
      await form.getByLabel('Script').selectOption({ label: 'Check the spool (bash)' });
      const schedule = form.getByLabel('Schedule (cron, UTC)');

      // Not a schedule: the preview says why, and Create shows the API's 400 under the form.
      await schedule.fill('every weekday');
      await form.getByText(/^Not a schedule:/).waitFor();
      expect(await form.getByText(/^Not a schedule:/).innerText()).toBe(
        'Not a schedule: a cron expression has 5 fields (minute hour day month weekday) or 6 (second minute hour day month weekday), got 2',
      );
      await form.getByRole('button', { name: 'Create task' }).click();
      expect((await form.getByRole('alert').innerText()).replace(/\n+/g, '\n')).toBe(
        'The server refused it (validation error):\nSchedule: a cron expression has 5 fields (minute hour day month weekday) or 6 (second minute hour day month weekday), got 2',
      );
      expect(await tasks()).toEqual([]);

      // The next five runs, as the server computes them, in words.
      await schedule.fill('0 3 * * 1-5');
      const expected = (await t.http.get('/api/v3/tasks/schedule-preview/').query({ schedule: '0 3 * * 1-5' }).set(admin)).body;
      expect(expected.next_runs).toHaveLength(5);
      const preview = form.getByRole('list', { name: 'Next runs' });
      await until('the preview of 0 3 * * 1-5', async () => JSON.stringify(await preview.locator('time').evaluateAll((ts) => ts.map((x) => x.getAttribute('datetime')))) === JSON.stringify(expected.next_runs));
      for (const line of await preview.locator('li').allInnerTexts()) expect(line).toMatch(/^(Mon|Tue|Wed|Thu|Fri), [A-Z][a-z]{2} \d{1,2}, \d{4}, 03:00 AM \(03:00 AM UTC\)$/);
      await form.getByRole('button', { name: 'Create task' }).click();
      await form.waitFor({ state: 'detached' });
      let [task] = await tasks();
      expect(task).toMatchObject({ name: 'Weekday spool check', script: scriptId, schedule: '0 3 * * 1-5', enabled: true, queue_if_offline: false, next_run_at: expected.next_runs[0] });

      // Edit the schedule.
      await page.getByRole('button', { name: 'Edit task Weekday spool check' }).click();
      const edit = page.getByRole('region', { name: 'Edit task Weekday spool check' });
      expect(await edit.getByLabel('Schedule (cron, UTC)').inputValue()).toBe('0 3 * * 1-5');
      await edit.getByLabel('Schedule (cron, UTC)').fill('30 4 * * *');
      await edit.getByLabel('Queue for the agent when it is offline').check();
      await edit.getByRole('button', { name: 'Save task' }).click();
      await edit.waitFor({ state: 'detached' });
      [task] = await tasks();
      expect(task).toMatchObject({ schedule: '30 4 * * *', queue_if_offline: true, enabled: true });

      // Disable, enable, delete.
      await page.getByRole('button', { name: 'Disable task Weekday spool check' }).click();
      await page.getByRole('button', { name: 'Enable task Weekday spool check' }).waitFor();
      expect((await tasks())[0]).toMatchObject({ enabled: false, next_run_at: null });
      await page.getByRole('button', { name: 'Enable task Weekday spool check' }).click();
      await page.getByRole('button', { name: 'Disable task Weekday spool check' }).waitFor();
      expect((await tasks())[0].enabled).toBe(true);
      await page.getByRole('button', { name: 'Delete task Weekday spool check' }).click();
      await page.getByText('No scheduled tasks.').waitFor();
      expect(await tasks()).toEqual([]);
    }, 90_000);

    it('shows a queued run started when the agent took it (queued time apart) and its stderr apart from its stdout', async () => {
      agent?.ws.terminate();
      await until('the agent offline', async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status !== 'online');
      const queued = await t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: scriptId, queue: true });
      expect(queued.body).toEqual({ id: expect.any(Number), status: 'queued' });
      const runId: number = queued.body.id;
      // The agent comes back in a later second than the run was queued (the console shows times to the second).
      const queuedAt = (await t.http.get(`/api/v3/agents/${agentId}/runs/${runId}/`).set(admin)).body.created_at as string;
      while (Math.floor(Date.now() / 1000) <= Math.floor(Date.parse(queuedAt) / 1000)) await sleep(50);
      agent = await FakeAgent.connect(t.url, agentId, secret);
      const sent = await agent.next('script.run', 15_000);
      agent.send({ type: 'result', id: sent.id, ok: true, result: { retcode: 3, stdout: 'spool ok\n', stderr: 'spool is slow\n', executionTime: 0.02, timedOut: false } });
      const run = await until('the run finished', async () => {
        const r = (await t.http.get(`/api/v3/agents/${agentId}/runs/${runId}/`).set(admin)).body;
        return r.status === 'finished' ? r : undefined;
      });
      expect(Date.parse(run.started_at)).toBeGreaterThan(Date.parse(run.created_at));

      const page = await newPage();
      await signIn(page, TECH);
      await openAgent(page);
      const history = page.getByRole('region', { name: 'Run history' });
      const when = (iso: string) =>
        page.evaluate((i) => new Date(i).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' }), iso);
      const row = history.locator('tbody tr').first();
      expect((await row.locator('td').first().innerText()).replace(/\s+/g, ' ')).toBe(`${await when(run.started_at)} queued ${await when(run.created_at)}`);
      await history.getByRole('button', { name: `Show output of run ${runId}` }).click();
      expect(await history.getByLabel('Output (stdout)').textContent()).toBe('spool ok\n');
      expect(await history.getByLabel('Errors (stderr)').textContent()).toBe('spool is slow\n');
      const colours = await history.locator('pre[data-stream]').evaluateAll((ps) => ps.map((p) => getComputedStyle(p).color));
      expect(colours[0]).not.toBe(colours[1]);

      // While a run streams in the Run script panel, its stderr chunks are set apart too.
      await page.getByRole('button', { name: 'Run script' }).click();
      await page.getByLabel('Script', { exact: true }).selectOption({ label: 'Check the spool (bash)' });
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      const live = await agent.next('script.run', 15_000);
      agent.send({ type: 'script.output', runId: live.runId, stream: 'stdout', chunk: 'spool ok\n', seq: 0 });
      agent.send({ type: 'script.output', runId: live.runId, stream: 'stderr', chunk: 'spool is slow\n', seq: 1 });
      const log = page.getByRole('log', { name: 'Script output' });
      await until('both chunks shown', async () => (await log.textContent()) === 'spool ok\nspool is slow\n');
      expect(await log.locator('[data-stream="stderr"]').allTextContents()).toEqual(['spool is slow\n']);
      const [logColour, stderrColour] = await log.evaluate((l) => [getComputedStyle(l).color, getComputedStyle(l.querySelector('[data-stream="stderr"]')).color]);
      expect(stderrColour).not.toBe(logColour);
      agent.send({ type: 'result', id: live.id, ok: true, result: { retcode: 3, stdout: 'spool ok\n', stderr: 'spool is slow\n', executionTime: 0.02, timedOut: false } });
    }, 60_000);

    it('is usable at 390×844: no page scrolls sideways, the agents list shows Status, actions are in view, and live buttons do not look disabled', async () => {
      await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: 1, site: 1 });
      const page = await newPage(PHONE);
      await signIn(page, ADMIN);
      const overflow = () =>
        page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          scrollers: [...document.querySelectorAll('.table-scroll')].filter((e) => e.scrollWidth > e.clientWidth).length,
        }));
      for (const [path, heading] of [
        ['agents', 'Agents'],
        [`agents/${agentId}`, 'NORTHWIND-WAREHOUSE-SCANNER-0042'],
        ['alerts', 'Alerts'],
        ['deployments', 'Deployments'],
        ['scripts', 'Scripts'],
        [`scripts/${scriptId}`, 'Check the spool'],
        ['clients', 'Clients and sites'],
        ['notifications', 'Notifications'],
        ['api-keys', 'API keys'],
        ['operators', 'Operators'],
        ['audit', 'Audit'],
      ]) {
        await page.goto(`${t.url}/app/${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.getByText(/^Loading/).first().waitFor({ state: 'detached' }).catch(() => undefined);
        if (path === 'deployments') await page.getByRole('button', { name: 'Install commands' }).first().click();
        expect({ path, ...(await overflow()) }).toEqual({ path, page: 390, scrollers: 0 });
        if (path === 'agents') {
          const status = page.locator(`tr[data-agent-id="${agentId}"] .badge`);
          expect(await status.innerText()).toBe('online');
          const box = (await status.boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(390);
        }
        if (path.startsWith('agents/')) {
          for (const name of ['Delete check CPU load above 95%', `Show output of run`]) {
            const box = (await page.getByRole('button', { name }).first().boundingBox())!;
            expect({ name, right: box.x + box.width <= 390 }).toEqual({ name, right: true });
          }
        }
        if (path === 'deployments') {
          // Whole one-liners: each command wraps inside its field, nothing cut off; the installer text is the docs'.
          const cut = await page.locator('.command code').evaluateAll((cs) => cs.filter((c) => c.scrollWidth > c.clientWidth).length);
          expect(cut).toBe(0);
          const note = await page.locator('.install p.small').first().innerText();
          expect(note.startsWith(INSTALLER_REQUIREMENTS)).toBe(true);
          expect(note).not.toContain('Node.js 20 or later on the device');
        }
        if (path === 'clients') {
          // A live outline button: its text contrasts like body text (7:1 and more), not the grey of a disabled one.
          const rename = page.getByRole('button', { name: /^Rename/ }).first();
          const contrast = await rename.evaluate((b) => {
            const rgb = (c: string) => (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
            const lum = ([r, g, bl]: number[]) => {
              const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
              return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(bl);
            };
            const s = getComputedStyle(b);
            const fg = lum(rgb(s.color));
            // The background it is drawn on: the nearest ancestor's that is not transparent (else the page's white).
            let under = [255, 255, 255];
            for (let e = b.parentElement; e; e = e.parentElement) {
              const c = getComputedStyle(e).backgroundColor;
              if (!/^rgba\(.*, 0\)$/.test(c) && c !== 'transparent') {
                under = rgb(c);
                break;
              }
            }
            const bg = lum(under);
            return { ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05), opacity: s.opacity, disabled: (b as { disabled: boolean }).disabled };
          });
          expect(contrast.ratio).toBeGreaterThanOrEqual(7);
          expect([contrast.opacity, contrast.disabled]).toEqual(['1', false]);
        }
      }
    }, 90_000);

    it('starts the channel form afresh after Create: the next channel does not inherit the ticked events', async () => {
      const page = await newPage();
      await signIn(page, TECH);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
      const form = page.getByRole('region', { name: 'New channel' });
      const events = form.getByRole('group', { name: /^Events/ });
      await form.getByLabel('Channel name').fill('night shift');
      await form.getByLabel('URL').fill('https://hooks.example.com/night');
      await events.getByRole('checkbox', { name: 'agent.offline' }).check();
      await events.getByRole('checkbox', { name: 'alert.resolved' }).uncheck();
      await form.getByRole('button', { name: 'Create channel' }).click();
      await form.getByRole('status').filter({ hasText: 'Channel night shift created.' }).waitFor();
      const ticked = await events.getByRole('checkbox').evaluateAll((cs) => cs.filter((c) => (c as { checked: boolean }).checked).map((c) => c.closest('label')!.textContent!.split(' ')[0]));
      expect(ticked).toEqual(['alert.created', 'alert.resolved']);
      expect(await form.getByLabel('Channel name').inputValue()).toBe('');
    }, 60_000);
  });
}
