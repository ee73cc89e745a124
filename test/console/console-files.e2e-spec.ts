import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createOperator } from '../utils/operators';
import { AGENT_JS, AgentProcess, cleanEnv, ROOT, run } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Issue 32's Files tab, in Debian's Chromium driven by playwright-core against the real server and a real agent
 * process: a technician browses a folder the test made (into a subfolder and back up with "..", a long one by
 * pages), downloads a
 * file (the bytes on disk), uploads a 3 MiB file in chunks with the progress bar reaching 100 % (the file on the
 * agent's disk is the one sent), replaces it after confirming, and goes on after a dropped connection; a path that
 * does not exist shows the server's reason. No CSP violation and nothing serious for axe.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const ADMIN_KEY = 'console-files-admin-key-0123456789';
const PASSWORD = 'correct horse battery staple';
const TECH = 'tech@files.test';
const HOSTNAME = 'console-files-01';
const DESKTOP = { width: 1280, height: 900 };
const HELLO = 'hello from the agent\n';

if (!CHROMIUM) {
  console.log('skipped: the console browser test needs Chromium (apt-get install -y chromium); .ci/run installs it where it can');
  describe('the console: an agent’s files (issue 32)', () => {
    it.skip('browses, downloads, uploads with progress and resumes (needs Chromium)', () => undefined);
  });
} else {
  describe('the console: an agent’s files (issue 32)', () => {
    let t: TestApp;
    let browser: Browser;
    let work: string;
    /** The folder the test browses on the agent (the agent runs on this machine). */
    let tree: string;
    let agent: AgentProcess | undefined;
    let agentId: string;
    const admin = { 'X-API-KEY': ADMIN_KEY };
    const contexts: BrowserContext[] = [];
    const cspViolations: string[] = [];

    const newPage = async (): Promise<Page> => {
      const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC', acceptDownloads: true });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => console.log(`CSP violation: ${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}`))",
      );
      page.on('console', (m) => {
        if (m.text().startsWith('CSP violation')) cspViolations.push(`${page.url()}: ${m.text()}`);
      });
      return page;
    };
    const signIn = async (page: Page): Promise<void> => {
      await page.goto(`${t.url}/app/`);
      await page.getByLabel('Email').fill(TECH);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    };
    const contents = (page: Page, path: string) => page.getByRole('region', { name: `Contents of ${path}` });
    /** The Files tab, showing `path`. */
    const openFolder = async (page: Page, path: string): Promise<void> => {
      await page.goto(`${t.url}/app/agents/${agentId}`);
      await page.getByRole('heading', { name: HOSTNAME, level: 1 }).waitFor();
      await page.getByRole('tab', { name: 'Files' }).click();
      await contents(page, '/').waitFor();
      await page.getByLabel('Path').fill(path);
      await page.getByRole('button', { name: 'Go' }).click();
      await contents(page, path).waitFor();
    };
    const upload = (page: Page, name: string, buffer: Buffer) =>
      page.getByLabel(/^Upload a file to /).setInputFiles({ name, mimeType: 'application/octet-stream', buffer });

    beforeAll(async () => {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
      t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN_KEY, RMM_RATE_LIMIT_PER_MINUTE: '100000' });
      work = mkdtempSync(join(tmpdir(), 'rmm-console-files-'));
      tree = join(work, 'tree');
      mkdirSync(join(tree, 'sub'), { recursive: true });
      writeFileSync(join(tree, 'hello.txt'), HELLO);
      writeFileSync(join(tree, 'sub', 'inner.txt'), 'inner\n');
      await createOperator(t, TECH, 'technician', { password: PASSWORD });

      const env = { ...cleanEnv(), RMM_AGENT_HOSTNAME: HOSTNAME };
      const d = await t.http
        .post('/api/v3/agents/deployments/')
        .set(admin)
        .send({ client: t.server.runtime.rmmDefaultClientId, site: t.server.runtime.rmmDefaultSiteId });
      expect(d.status).toBe(201);
      const reg = await run([AGENT_JS, 'register', '--server', t.url, '--token', d.body.uuid, '--prefix', join(work, 'agent')], env, 30_000);
      expect(reg.code).toBe(0);
      agentId = reg.stdout.trim();
      agent = new AgentProcess(join(work, 'agent'), env);
      agent.start();
      await until(`the agent online\n${agent.output}`, async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'online', 20_000);

      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    }, 180_000);

    afterAll(async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      await agent?.stop();
      await t?.close();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('lists a folder, goes into a subfolder and back up with "..", and says why a path cannot be listed', async () => {
      const page = await newPage();
      await signIn(page);
      await openFolder(page, tree);
      const list = contents(page, tree);
      const row = list.getByRole('row').filter({ hasText: 'hello.txt' });
      // (the link's text names its file for screen readers: "Download hello.txt")
      expect((await row.getByRole('cell').allInnerTexts()).map((c) => c.replace(/\s+/g, ' ').trim())).toEqual(['hello.txt', 'file', `${HELLO.length} B`, expect.stringMatching(/^0[0-7]{3}$/), expect.any(String), 'Download hello.txt']);
      await list.getByRole('button', { name: 'sub/' }).click();
      const sub = contents(page, join(tree, 'sub'));
      await sub.getByRole('cell', { name: 'inner.txt', exact: true }).waitFor();
      await expect(page.getByLabel('Path').inputValue()).resolves.toBe(join(tree, 'sub'));
      await sub.getByRole('button', { name: /^\.\./ }).click();
      await contents(page, tree).getByRole('cell', { name: 'hello.txt', exact: true }).waitFor();

      await page.getByLabel('Path').fill(join(tree, 'no-such-folder'));
      await page.getByRole('button', { name: 'Go' }).click();
      await page.getByRole('alert').filter({ hasText: 'no such file or directory' }).waitFor();
    }, 90_000);

    it('shows a long folder by pages: Load more reads the next one', async () => {
      // The server answers 1,000 entries a page.
      const long = join(work, 'long');
      mkdirSync(long);
      for (let i = 0; i < 1005; i++) writeFileSync(join(long, `f${String(i).padStart(4, '0')}.txt`), '');
      const page = await newPage();
      await signIn(page);
      await openFolder(page, long);
      const rows = contents(page, long).locator('tbody tr');
      await until('the first page', async () => (await rows.count()) === 1001); // with ".."
      await page.getByRole('button', { name: 'Load more' }).click();
      await until('both pages', async () => (await rows.count()) === 1006);
      await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    }, 90_000);

    it('downloads a file: the bytes saved are the file’s', async () => {
      const page = await newPage();
      await signIn(page);
      await openFolder(page, tree);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download hello.txt' }).click()]);
      expect(download.suggestedFilename()).toBe('hello.txt');
      expect(readFileSync((await download.path())!, 'utf8')).toBe(HELLO);
    }, 60_000);

    it('uploads a 3 MiB file in chunks with the progress reaching 100 %, then replaces it after confirming', async () => {
      const page = await newPage();
      await signIn(page);
      await openFolder(page, tree);
      const first = randomBytes(3 * 1024 * 1024 + 12_345);
      await upload(page, 'big.bin', first);
      await page.getByRole('status').filter({ hasText: `Uploaded ${join(tree, 'big.bin')}.` }).waitFor({ timeout: 60_000 });
      expect(readFileSync(join(tree, 'big.bin')).equals(first)).toBe(true);
      // The listing is read again: the new file is in it
      await contents(page, tree).getByRole('cell', { name: 'big.bin', exact: true }).waitFor();
      expect(await contents(page, tree).getByRole('row').filter({ hasText: 'big.bin' }).getByRole('cell').nth(2).innerText()).toBe('3.0 MiB');

      // Progress as a labelled bar and as text (what the operator watched, left at its end)
      const bar = page.getByRole('progressbar', { name: 'Uploading big.bin' });
      await expect(bar.getAttribute('value')).resolves.toBe(String(first.length));
      await expect(bar.getAttribute('max')).resolves.toBe(String(first.length));
      await page.locator('.upload-progress').getByText('100 %').waitFor();

      // The same name again: the server says it exists; the console asks, and replaces on Replace
      const second = randomBytes(2 * 1024 * 1024 + 7);
      await upload(page, 'big.bin', second);
      const ask = page.getByRole('alertdialog', { name: `${join(tree, 'big.bin')} exists on the agent. Replace it?` });
      await ask.waitFor({ timeout: 30_000 });
      expect(readFileSync(join(tree, 'big.bin')).equals(first)).toBe(true);
      await ask.getByRole('button', { name: 'Replace' }).click();
      await page.getByRole('status').filter({ hasText: `Uploaded ${join(tree, 'big.bin')}.` }).waitFor({ timeout: 60_000 });
      expect(readFileSync(join(tree, 'big.bin')).equals(second)).toBe(true);
    }, 120_000);

    it('goes on from what the server received when a chunk’s connection drops', async () => {
      const page = await newPage();
      await signIn(page);
      await openFolder(page, tree);
      // The second chunk's request is cut off in the browser's network layer (as a dropped connection): the
      // console asks the server what it has and sends the rest from there.
      let puts = 0;
      await page.route(/\/files\/uploads\/[^/?]+\?offset=/, async (route) => {
        if (route.request().method() === 'PUT' && ++puts === 2) return route.abort('connectionreset');
        return route.fallback();
      });
      const body = randomBytes(3 * 1024 * 1024 + 1);
      await upload(page, 'resumed.bin', body);
      await page.getByRole('status').filter({ hasText: 'Connection lost: resuming…' }).waitFor({ timeout: 30_000 });
      await page.getByRole('status').filter({ hasText: `Uploaded ${join(tree, 'resumed.bin')}.` }).waitFor({ timeout: 60_000 });
      expect(readFileSync(join(tree, 'resumed.bin')).equals(body)).toBe(true);
      expect(puts).toBeGreaterThanOrEqual(5); // 4 chunks, one of them sent twice
    }, 120_000);

    it('has no serious or critical accessibility violation on the Files tab, and no CSP violation', async () => {
      const { AxeBuilder } = await import('@axe-core/playwright');
      const page = await newPage();
      await signIn(page);
      await openFolder(page, tree);
      await upload(page, 'small.txt', Buffer.from('small\n'));
      await page.getByRole('status').filter({ hasText: 'Uploaded' }).waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 15_000 });
      const result = await new AxeBuilder({ page }).analyze();
      const found = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(found).toEqual([]);
      expect(cspViolations).toEqual([]);
    }, 90_000);
  });
}
