'use strict';
/**
 * The console's figures (issue 21), a step of `npm run bench`, or alone: `node bench/console.js [--agents N]`.
 *
 * - the initial JavaScript of /app/ (what index.html loads before anything else), gzipped, and its CSS;
 * - the agents page with N (20,000) agents in headless Chromium (Debian's, through playwright-core): the time from
 *   navigation to the whole list shown ("N of N agents"), and to the page answering a search typed into it
 *   (interactive), three runs each, median and max;
 * - the time from an agent's status event (agent.online / agent.offline, its `ts` as an /rmm/{agent_id}/
 *   subscriber receives it) to the new status shown in the agents list (the page's clock, the same machine);
 * - axe-core (@axe-core/playwright) on every page: violations by impact.
 *
 * Against the built server as a child process, on a database of its own (DATABASE_URL's PostgreSQL, else an
 * embedded one), seeded as bench/seed.js does (20 clients × 5 sites). Writes docs/performance.md between the
 * console-bench markers and prints the table. Traffic to 127.0.0.1 only. Benchmarks measure; nothing asserts.
 */
const { replaceDocSection } = require('./doc-section');
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { gzipSync } = require('node:zlib');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const WebSocket = require('ws');
const { ServerProcess, benchEnv, createDatabase, dropDatabase, freePort, request, round, sleep } = require('./agents');
const { seedAgents } = require('./seed');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist', 'console');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const EMAIL = 'bench-admin@console.bench';
const PASSWORD = 'bench console password 1';
const PAGES = ['agents', 'agents/{agent}', 'alerts', 'deployments', 'scripts', 'scripts/new', 'clients', 'api-keys', 'operators', 'audit'];

/** What index.html loads at once: its module script, the modules it preloads, its style sheets (gzip -9). */
function initialAssets() {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="\/app\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  const size = (ext) =>
    refs
      .filter((r) => r.endsWith(ext))
      .reduce(
        (sum, r) => {
          const body = readFileSync(path.join(DIST, r));
          return { raw: sum.raw + body.length, gzip: sum.gzip + gzipSync(body, { level: 9 }).length, files: [...sum.files, r] };
        },
        { raw: 0, gzip: 0, files: [] },
      );
  const lazy = readdirAssets().filter((f) => f.endsWith('.js') && !refs.includes(`assets/${f}`));
  const editor = lazy.find((f) => f.startsWith('code-editor-'));
  return {
    js: size('.js'),
    css: size('.css'),
    editorGzip: editor ? gzipSync(readFileSync(path.join(DIST, 'assets', editor)), { level: 9 }).length : null,
  };
}

function readdirAssets() {
  return require('node:fs').readdirSync(path.join(DIST, 'assets'));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function runConsoleBench({ baseUrl, agents = 20_000, log = () => undefined }) {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-console.js'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const result = { agents, assets: initialAssets() };
  if (!CHROMIUM) {
    log('console: no Chromium (apt-get install -y chromium): only the bundle size is measured');
    return { ...result, skipped: 'no Chromium' };
  }
  const dbName = 'rmm_bench_console';
  const databaseUrl = await createDatabase(baseUrl, dbName);
  const env = benchEnv(databaseUrl, await freePort());
  const server = new ServerProcess(env, path.join(__dirname, 'results', 'console-server.log'));
  let browser;
  try {
    log('console: starting the server…');
    await server.start();
    await seedAgents(databaseUrl, agents);
    // Seeded agents are not connected: offline (else the server's presence pass would turn them offline during
    // the run, 20,000 events). One agent can really connect (its secret's hash stored): its status changes are
    // the events measured.
    const secret = 'bench-console-agent-secret';
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    await db.query(`UPDATE agents SET status = 'offline'`);
    const { rows } = await db.query(
      `UPDATE agents SET status = 'offline', hostname = 'bench-live-agent', secret_hash = $1 WHERE id = (SELECT min(id) FROM agents) RETURNING id`,
      [createHash('sha256').update(secret).digest('hex')],
    );
    await db.end();
    const liveId = String(rows[0].id);
    const admin = { 'X-API-KEY': env.RMM_ADMIN_API_KEY };
    const op = await request('POST', `${server.url}/api/v3/operators/`, { headers: admin, body: { email: EMAIL, password: PASSWORD, role: 'admin' } });
    if (op.status !== 201) throw new Error(`creating the bench operator answered ${op.status} ${JSON.stringify(op.body)}`);

    const { chromium } = require('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/app/`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const all = `${agents} of ${agents} agents`;
    await page.getByText(all).waitFor({ timeout: 120_000 });

    log(`console: the agents page with ${agents} agents, three loads…`);
    const loads = [];
    for (let i = 0; i < 3; i++) {
      const p = await context.newPage();
      const started = performance.now();
      await p.goto(`${server.url}/app/agents`);
      await p.getByText(all).waitFor({ timeout: 120_000 });
      const shown = performance.now() - started;
      await p.getByLabel('Search').fill('host-000777');
      await p.getByText(`1 of ${agents} agents`).waitFor({ timeout: 60_000 });
      const interactive = performance.now() - started;
      loads.push({ shown, interactive });
      await p.close();
    }
    result.load = {
      shownMs: round(median(loads.map((l) => l.shown))),
      interactiveMs: round(median(loads.map((l) => l.interactive))),
      maxInteractiveMs: round(Math.max(...loads.map((l) => l.interactive))),
    };

    log('console: status event → shown in the list, 10 changes…');
    await page.getByLabel('Search').fill('bench-live-agent');
    const row = page.getByRole('row').filter({ hasText: 'bench-live-agent' });
    await row.waitFor();
    await page.evaluate(`(() => {
      window.__shown = [];
      const seen = { last: null };
      new MutationObserver(() => {
        const cell = [...document.querySelectorAll('tr[data-agent-id="${liveId}"] .badge')][0];
        const text = cell ? cell.textContent : null;
        if (text && text !== seen.last) { seen.last = text; window.__shown.push([text, Date.now()]); }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    const events = [];
    const watch = new WebSocket(`${server.url.replace('http', 'ws')}/rmm/${liveId}/`, { headers: admin });
    watch.on('message', (m) => {
      const e = JSON.parse(m.toString());
      if (e.event === 'agent.online' || e.event === 'agent.offline') events.push([e.event.slice(6), Date.parse(e.ts)]);
    });
    await new Promise((resolve, reject) => (watch.once('open', resolve), watch.once('error', reject)));
    const latencies = [];
    for (let i = 0; i < 5; i++) {
      const agent = new WebSocket(`${server.url.replace('http', 'ws')}/agent/v1/ws`, { headers: { 'X-Agent-Id': liveId, Authorization: `Bearer ${secret}` } });
      for (const [status, close] of [
        ['online', false],
        ['offline', true],
      ]) {
        if (close) agent.close();
        const n = events.length;
        const deadline = Date.now() + 15_000;
        while (events.length === n && Date.now() < deadline) await sleep(20);
        const ev = events[events.length - 1];
        if (!ev || ev[0] !== status) throw new Error(`no agent.${status} event within 15 s`);
        let shownAt;
        while (!shownAt && Date.now() < deadline + 5_000) {
          const shown = await page.evaluate('window.__shown');
          shownAt = shown.filter(([text]) => text === status).map(([, at]) => at).find((at) => at >= ev[1] - 5);
          if (!shownAt) await sleep(20);
        }
        if (shownAt) latencies.push(shownAt - ev[1]);
        await page.evaluate('window.__shown = []');
      }
    }
    watch.close();
    result.statusEvent = { samples: latencies.length, medianMs: round(median(latencies)), maxMs: round(Math.max(...latencies)) };

    log('console: axe-core on every page…');
    const { AxeBuilder } = require('@axe-core/playwright');
    result.axe = [];
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      for (const p of PAGES) {
        const at = p.replace('{agent}', liveId);
        await page.goto(`${server.url}/app/${at}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        // (A function: the console's CSP refuses the eval Playwright would use for a string.)
        await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 60_000 });
        const r = await new AxeBuilder({ page }).analyze();
        const by = { critical: 0, serious: 0, moderate: 0, minor: 0 };
        for (const v of r.violations) by[v.impact] = (by[v.impact] ?? 0) + v.nodes.length;
        result.axe.push({ page: `/app/${p}`, width: viewport.width, ...by, rules: r.violations.map((v) => `${v.id} (${v.impact})`) });
      }
    }
    result.loadAverage = round(os.loadavg()[0], 2);
  } finally {
    await browser?.close();
    await server.stop(15_000);
    await dropDatabase(baseUrl, dbName).catch(() => undefined);
  }
  return result;
}

function markdown(r) {
  const kb = (b) => `${round(b / 1024, 1)} KB`;
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} × ${os.cpus()[0]?.model}, headless Chromium (Debian's)${r.loadAverage !== undefined ? `, load average ${r.loadAverage}` : ''}.`,
    '',
    '| Figure | Measured | Target | Result |',
    '|---|---|---|---|',
    `| Initial JavaScript of /app/ (gzip -9; ${r.assets.js.files.length} files) | ${kb(r.assets.js.gzip)} (${kb(r.assets.js.raw)} raw) | ≤ 250 KB | ${r.assets.js.gzip <= 250 * 1024 ? 'met' : '**missed**'} |`,
    `| Its CSS (Pico and the console's) | ${kb(r.assets.css.gzip)} | — | — |`,
    `| The script editor (CodeMirror, loaded by the Scripts editor only) | ${r.assets.editorGzip === null ? '—' : kb(r.assets.editorGzip)} | — | lazy |`,
  ];
  if (r.skipped) return [...lines, '', `The browser figures were not measured: ${r.skipped}.`].join('\n');
  lines.push(
    `| Agents page, ${r.agents.toLocaleString('en-US')} agents: navigation → whole list shown (median of 3) | ${r.load.shownMs} ms | — | — |`,
    `| Agents page, ${r.agents.toLocaleString('en-US')} agents: navigation → a search typed in answered (interactive; median / max of 3) | ${r.load.interactiveMs} / ${r.load.maxInteractiveMs} ms | < 1,500 ms | ${r.load.interactiveMs < 1500 ? 'met' : '**missed**'} |`,
    `| Status event (its \`ts\`) → shown in the list (${r.statusEvent.samples} changes, median / max) | ${r.statusEvent.medianMs} / ${r.statusEvent.maxMs} ms | < 1,000 ms | ${r.statusEvent.maxMs < 1000 ? 'met' : '**missed**'} |`,
  );
  const serious = r.axe.reduce((n, a) => n + a.critical + a.serious, 0);
  lines.push(`| axe-core: serious or critical violations, ${r.axe.length / 2} pages at 1280×800 and 390×844 | ${serious} | 0 | ${serious === 0 ? 'met' : '**missed**'} |`, '');
  lines.push('axe-core per page (nodes by impact: critical / serious / moderate / minor):', '', '| Page | 1280×800 | 390×844 |', '|---|---|---|');
  for (const p of PAGES) {
    const cells = [1280, 390].map((w) => {
      const a = r.axe.find((x) => x.page === `/app/${p}` && x.width === w);
      return a ? `${a.critical} / ${a.serious} / ${a.moderate} / ${a.minor}${a.rules.length ? ` (${a.rules.join(', ')})` : ''}` : '—';
    });
    lines.push(`| \`/app/${p}\` | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

function updateDoc(table) {
  replaceDocSection('console-bench', `${table}\n`);
}

async function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf('--agents');
  const agents = i >= 0 ? Number(args[i + 1]) : 20_000;
  if (!Number.isInteger(agents) || agents < 1) {
    console.error('usage: node bench/console.js [--agents N]');
    process.exit(2);
  }
  const log = (m) => console.error(`[bench] ${m}`);
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.js')], { cwd: ROOT, stdio: 'inherit' });
  let baseUrl = process.env.DATABASE_URL;
  let embedded;
  if (!baseUrl) {
    const { startEmbeddedPostgres } = require(path.join(ROOT, 'dist/apps/api/src/database/embedded-postgres.js'));
    const dataDir = require('node:fs').mkdtempSync(path.join(os.tmpdir(), 'rmm-bench-console-'));
    require('node:fs').chmodSync(dataDir, 0o755);
    const pg = await startEmbeddedPostgres({ dataDir });
    embedded = { pg, dataDir };
    baseUrl = pg.adminUrl;
  }
  try {
    const r = await runConsoleBench({ baseUrl, agents, log });
    const table = markdown(r);
    updateDoc(table);
    console.log(table);
  } finally {
    if (embedded) {
      await embedded.pg.stop();
      require('node:fs').rmSync(embedded.dataDir, { recursive: true, force: true });
    }
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

module.exports = { runConsoleBench, consoleMarkdown: markdown, updateConsoleDoc: updateDoc };
