import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { EventsHub } from '../../apps/api/src/rmm/events/events-hub';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';
import { freePort, ROOT, run } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const WATCH_JS = join(ROOT, 'scripts/watch.js');
const ADMIN = 'watch-e2e-admin-key-0123456789abcdef';

interface Watcher {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `npm run watch -- …` (scripts/watch.js, no build step) as a person runs it, against the real server. */
describe('npm run watch', () => {
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  const watchers: Watcher[] = [];

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    tenant = await createTenant(t, 'Watch Ltd');
  });
  afterEach(async () => {
    for (const w of watchers.splice(0)) {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      await w.exited;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const watch = (...args: string[]): Watcher => watchWith({}, ...args);
  const watchWith = (env: Record<string, string>, ...args: string[]): Watcher => {
    const child = spawn(process.execPath, [WATCH_JS, ...args], { cwd: ROOT, env: { ...process.env, RMM_API_KEY: '', RMM_WATCH_KEY: '', RMM_URL: '', ...env } });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    const w = { child, stdout: () => out, stderr: () => err, exited: new Promise<number | null>((r) => child.on('exit', (code) => r(code))) };
    watchers.push(w);
    return w;
  };
  const lines = (w: Watcher): string[] => w.stdout().split('\n').filter(Boolean);
  const line = (w: Watcher, pattern: RegExp): Promise<string> =>
    until(`a line ${pattern} (stdout: ${w.stdout()} stderr: ${w.stderr()})`, async () => lines(w).find((l) => pattern.test(l)));

  it('prints one readable line per event, reconnects after a drop, and stops with 0 on Ctrl-C', async () => {
    const id = await insertAgent(t, { hostname: 'watch-01', clientId: tenant.clientId, siteId: tenant.siteId });
    const [alert] = await sql<{ id: number }>(t.db.url, `INSERT INTO alerts (alert_type, agent_id, severity, message) VALUES ('agent_overdue', $1, 'error', 'agent watch-01 is overdue') RETURNING id`, [id]);
    const w = watch('--url', t.url, '--key', ADMIN, '--agent', String(id));
    expect(await line(w, /hello/)).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d hello {14}agent ${id} watch-01 online, 1 open alert$`));

    const bus = t.server.app.get(RmmEvents);
    bus.emit('script.started', { agentId: id, runId: 17, script: 3 });
    bus.emit('script.output', { agentId: id, runId: 17, stream: 'stdout', chunk: 'hi there\n', seq: 0 });
    bus.emit('script.finished', { agentId: id, runId: 17, retcode: 0, executionTime: 1.5, timedOut: false });
    bus.emit('check.status', { agentId: id, checkId: 5, status: 'failing', previousStatus: 'passing', moreInfo: 'C: 3% free' });
    bus.emit('task.run', { agentId: id, taskId: 4, runId: 12, status: 'failed', retcode: 2 });
    bus.emit('agent.offline', { agentId: id });
    expect((await t.http.post(`/api/v3/alerts/${alert.id}/acknowledge/`).set('X-API-KEY', ADMIN)).status).toBe(200);
    await line(w, /alert\.acknowledged/);
    expect(lines(w).slice(1).map((l) => l.replace(/^\d\d:\d\d:\d\d /, ''))).toEqual([
      'script.started     run 17 script 3',
      'script.output      run 17 stdout "hi there\\n"',
      'script.finished    run 17 retcode 0 in 1.5 s',
      'check.status       check 5 passing -> failing "C: 3% free"',
      'task.run           task 4 run 12 failed retcode 2',
      `agent.offline      agent ${id}`,
      `alert.acknowledged alert ${alert.id} agent_overdue acknowledged by ${(await t.http.get(`/api/v3/alerts/${alert.id}/`).set('X-API-KEY', ADMIN)).body.acknowledged_by}`,
    ]);

    // A dropped connection (no close frame, as when the network goes) is not the end: it reconnects and says so.
    const hub = t.server.app.get(EventsHub);
    const sockets = (hub as unknown as { byAgent: Map<number, Set<{ ws: { terminate(): void } }>> }).byAgent.get(id)!;
    for (const s of sockets) s.ws.terminate();
    await until(`a second hello (stderr: ${w.stderr()})`, async () => lines(w).filter((l) => / hello /.test(l)).length === 2);
    expect(w.stderr()).toMatch(/connection closed \(1006\); reconnecting in 1 s/);

    w.child.kill('SIGINT');
    expect(await w.exited).toBe(0);
  });

  it('exits 1 with the status and detail when the server refuses, or closes for good; 1 when unreachable', async () => {
    const id = await insertAgent(t, { hostname: 'watch-02', clientId: tenant.clientId, siteId: tenant.siteId });
    const noScope = await createKey(t, ['checks:read']);
    for (const [key, agent, expected] of [
      ['rmm_wrong', String(id), 'the server refused: 401 Invalid token'],
      [noScope, String(id), 'the server refused: 403 permission denied'],
      [ADMIN, '999999', 'the server refused: 404 Not found'],
    ]) {
      const res = await run([WATCH_JS, '--url', t.url, '--key', key, '--agent', agent], process.env, 15_000);
      expect([res.code, res.stderr.split('\n')[0], res.stdout]).toEqual([1, `watch: ${expected}`, '']);
      expect(res.stderr).not.toContain(key);
      // a refused key is told which scope it needs and how to make one
      const hint = 'watch: watch needs a management API key with the agents:read scope (an admin key has it); create one with: npm run -s cli -- apikey create --name watch --scopes agents:read, and pass it in RMM_WATCH_KEY';
      expect(res.stderr.trim().split('\n').slice(1)).toEqual(expected.includes('404') ? [] : [hint]);
    }

    const w = watch('--url', t.url, '--key', ADMIN, '--agent', String(id));
    await line(w, /hello/);
    expect((await t.http.delete(`/api/v3/agents/${id}/`).set('X-API-KEY', ADMIN)).status).toBe(204);
    expect(await w.exited).toBe(1);
    expect(w.stderr()).toContain('watch: closed by the server: 4404 agent deleted');

    const port = await freePort();
    const down = await run([WATCH_JS, '--url', `http://127.0.0.1:${port}`, '--key', ADMIN, '--agent', '1'], process.env, 15_000);
    expect([down.code, down.stderr]).toEqual([1, `watch: cannot connect to ws://127.0.0.1:${port}/rmm/1/: ECONNREFUSED\n`]);
  });

  it("runs the README's plain WebSocket client (node and ws, the key as ?api_key=): it prints hello", async () => {
    const id = await insertAgent(t, { hostname: 'watch-03', clientId: tenant.clientId, siteId: tenant.siteId });
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf("## Watching an agent's events"));
    const command = section.split('\n').find((l) => l.startsWith("node -e '"))!;
    expect(command).toContain('"ws://localhost:3000/rmm/42/?api_key=$KEY"');
    const child = spawn('bash', ['-c', command.replace('localhost:3000', new URL(t.url).host).replace('/rmm/42/', `/rmm/${id}/`)], { cwd: ROOT, env: { ...process.env, KEY: ADMIN } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise((r) => child.on('exit', r));
    try {
      const first = await until(`hello from the README's client (${out})`, async () => {
        const line = out.split('\n');
        if (line.length < 2) return undefined; // the first line is not complete yet
        return JSON.parse(line[0]) as Record<string, unknown>;
      });
      expect(first).toMatchObject({ event: 'hello', agent_id: String(id), data: { hostname: 'watch-03' } });
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });

  it('takes its key from RMM_WATCH_KEY (nothing on the command line), never from the function key RMM_API_KEY', async () => {
    const id = await insertAgent(t, { hostname: 'watch-04', clientId: tenant.clientId, siteId: tenant.siteId });
    const w = watchWith({ RMM_WATCH_KEY: ADMIN, RMM_API_KEY: 'rmm_the-function-key' }, '--url', t.url, '--agent', String(id));
    expect(await line(w, /hello/)).toMatch(/hello {14}agent \d+ watch-04 online, 0 open alerts$/);
    expect(w.stdout() + w.stderr()).not.toContain(ADMIN);

    // RMM_API_KEY alone is not a watch key: asked for one, with where it comes from
    const res = await run([WATCH_JS, '--url', t.url, '--agent', String(id)], { ...process.env, RMM_WATCH_KEY: '', RMM_API_KEY: ADMIN }, 15_000);
    expect([res.code, res.stderr.split('\n')[0]]).toEqual([2, 'watch: a key is required: RMM_WATCH_KEY (or --key), a management API key with agents:read']);
    expect(res.stderr).toContain('npm run -s cli -- apikey create --name watch --scopes agents:read');
  });

  it('exits 2 with the usage for a usage error, through npm run watch', () => {
    const npm = (...args: string[]) => spawnSync('npm', ['run', '-s', 'watch', '--', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, RMM_API_KEY: '', RMM_WATCH_KEY: '', RMM_URL: '' } });
    for (const [args, message] of <Array<[string[], string]>>[
      [['--key', 'k'], '--agent is required'],
      [['--agent', '42'], 'a key is required: RMM_WATCH_KEY (or --key), a management API key with agents:read'],
      [['--agent', 'abc', '--key', 'k'], '--agent must be an agent id (digits), not "abc"'],
      [['--agent', '1', '--key', 'k', '--url', 'ftp://x'], '--url must be http(s):// or ws(s)://, not ftp:'],
      [['--agent', '1', '--key', 'k', '--bogus'], 'unknown argument --bogus'],
    ]) {
      const res = npm(...args);
      expect([args, res.status, res.stderr.split('\n')[0]]).toEqual([args, 2, `watch: ${message}`]);
      expect(res.stderr).toContain('usage: npm run watch -- --agent ID');
    }
    const help = npm('--help');
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('usage: npm run watch')]);
  });
});
