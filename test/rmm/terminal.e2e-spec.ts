import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { linuxAmd64BinDir, manifestEntry } from '../utils/agent-binaries';
import { exec } from '../utils/processes';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';
import { CONSOLE, createOperator, signIn } from '../utils/operators';
import { startTestApp, TestApp } from '../utils/test-app';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { until } from '../utils/wait';

/**
 * Issue 32, the remote terminal, end to end: the real single-file agent (its shell in a real pseudo-terminal under
 * Bun) registered with and connected to the real server; sessions opened over the API and the WebSocket
 * /rmm/terminal/{session_id}/ with the `ws` client, as any API client would.
 */
const ADMIN = 'terminal-e2e-admin-key-0123456789abcdef';
const admin = { 'X-API-KEY': ADMIN };
const SETTINGS = { RMM_ADMIN_API_KEY: ADMIN, RMM_AGENT_HEARTBEAT_SECONDS: '1', RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' };

/** A terminal WebSocket as a client sees it: the bytes, the text frames, and how it closed. */
class Terminal {
  output = Buffer.alloc(0);
  texts: Array<Record<string, unknown>> = [];
  closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) this.output = Buffer.concat([this.output, data]);
      else this.texts.push(JSON.parse(data.toString()) as Record<string, unknown>);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Connects; rejects with the HTTP status of a refused upgrade ("unexpected-response 403"). */
  static open(url: string, headers: Record<string, string>): Promise<Terminal> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const t = new Terminal(ws);
      ws.once('open', () => resolve(t));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`unexpected-response ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  type(text: string | Buffer): void {
    this.ws.send(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, { binary: true });
  }

  text(): string {
    return this.output.toString('utf8');
  }

  /** Waits until the output (from `from` on) matches. */
  async expect(pattern: RegExp, from = 0): Promise<RegExpExecArray> {
    try {
      return await until(`output matching ${pattern}`, async () => pattern.exec(this.output.subarray(from).toString('utf8')) ?? undefined, 20_000);
    } catch (err) {
      throw new Error(`${(err as Error).message}; got ${JSON.stringify(this.output.subarray(from).toString('utf8').slice(-500))}`, { cause: err });
    }
  }
}

/** The real binary agent, registered with `url` and running. */
async function startAgent(work: string, url: string, hostname: string, children: ChildProcess[]): Promise<{ id: string; output: () => string }> {
  const dir = linuxAmd64BinDir();
  const bin = join(dir, manifestEntry(dir, 'linux-amd64').file);
  const prefix = join(work, hostname);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, RMM_AGENT_HOSTNAME: hostname };
  const http = await fetch(`${url}/api/v3/clients/`, { headers: admin });
  const clients = (await http.json()) as Array<{ id: number; sites: Array<{ id: number }> }>;
  const d = await fetch(`${url}/api/v3/agents/deployments/`, {
    method: 'POST',
    headers: { ...admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ client: clients[0].id, site: clients[0].sites[0].id }),
  });
  const token = ((await d.json()) as { uuid: string }).uuid;
  const reg = await exec(bin, ['register', '--server', url, '--token', token, '--prefix', prefix], { env, cwd: work, timeoutMs: 60_000 });
  expect(reg).toMatchObject({ code: 0 });
  let log = '';
  const agent = spawn(bin, ['run', '--prefix', prefix], { env, cwd: work, detached: true });
  children.push(agent);
  agent.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  agent.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  return { id: reg.stdout.trim(), output: () => log };
}

function killAll(children: ChildProcess[]): void {
  for (const c of children) {
    try {
      if (c.pid) process.kill(-c.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

const wsBase = (t: TestApp): string => t.url.replace(/^http/, 'ws');

describe('the remote terminal (the real binary agent, the real server)', () => {
  let db: TestDatabase;
  let t: TestApp;
  let work: string;
  let agentId: string;
  let agentLog: () => string;
  const children: ChildProcess[] = [];

  /** POST …/terminal/ and the WebSocket, with the admin key in the header. */
  const open = async (size: { cols: number; rows: number } = { cols: 80, rows: 24 }, key = ADMIN): Promise<{ id: string; term: Terminal }> => {
    const r = await t.http.post(`/api/v3/agents/${agentId}/terminal/`).set({ 'X-API-KEY': key }).send(size);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ session_id: expect.any(String), url: `/rmm/terminal/${r.body.session_id}/`, expires_in: 60 });
    const term = await Terminal.open(`${wsBase(t)}${r.body.url}`, { 'X-API-KEY': key });
    return { id: r.body.session_id, term };
  };
  const sessionRow = async (id: string): Promise<Record<string, any>> => {
    const rows = (await t.http.get('/api/v3/terminal-sessions/').query({ agent: agentId }).set(admin)).body as Array<Record<string, any>>;
    return rows.find((r) => r.id === id)!;
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rmm-terminal-e2e-'));
    db = await createTestDatabase();
    t = await startTestApp(SETTINGS, { db });
    const agent = await startAgent(work, t.url, 'terminal-e2e-01', children);
    agentId = agent.id;
    agentLog = agent.output;
    await until(`agent online\n${agentLog()}`, async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'online', 30_000);
  }, 300_000);
  afterAll(async () => {
    killAll(children);
    await t?.close();
    await db?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('runs commands in a real terminal: echo $((6*7)) gives 42, a resize to 50×120 is what stty size says, an invalid control message is answered', async () => {
    const { id, term } = await open();
    term.type('echo $((6*7))\r');
    await term.expect(/[\r\n]42\r\n/);
    const before = term.output.length;
    term.ws.send(JSON.stringify({ type: 'resize', cols: 120, rows: 50 }));
    term.type('stty size\r');
    await term.expect(/[\r\n]50 120\r\n/, before);
    term.ws.send(JSON.stringify({ type: 'resize', cols: 0, rows: 50 }));
    await until('an error frame', async () => term.texts.find((m) => m.type === 'error'));
    expect(term.texts.find((m) => m.type === 'error')).toEqual({ type: 'error', message: 'cols must be an integer from 1 to 1000' });
    expect(term.ws.readyState).toBe(WebSocket.OPEN);
    term.ws.close();
    expect(await term.closed).toMatchObject({ code: 1005 });
    await until('the row closed', async () => (await sessionRow(id))?.end_reason === 'closed');
  }, 60_000);

  it('passes bytes untouched: a 4-byte UTF-8 character arrives as its bytes, and one typed in two frames reaches the shell whole', async () => {
    const { term } = await open();
    term.type("printf 'x\\xf0\\x9f\\x98\\x80y\\n'\r");
    await until('the emoji between x and y', async () => term.output.includes(Buffer.from([0x78, 0xf0, 0x9f, 0x98, 0x80, 0x79])));
    const before = term.output.length;
    term.type('head -c 4 | od -An -tx1\r');
    await new Promise((r) => setTimeout(r, 300)); // head is reading
    term.type(Buffer.from([0xf0, 0x9f]));
    term.type(Buffer.concat([Buffer.from([0x98, 0x80]), Buffer.from('\r')]));
    await term.expect(/f0 9f 98 80/, before);
    term.ws.close();
    await term.closed;
  }, 60_000);

  it('exit: the exit frame with the code, a close 1000 "exit", the row and the audit entry with the byte counts', async () => {
    const { id, term } = await open();
    term.type('exit 3\r');
    expect(await term.closed).toEqual({ code: 1000, reason: 'exit' });
    expect(term.texts).toContainEqual({ type: 'exit', code: 3 });
    const row = await until('the row closed', async () => {
      const r = await sessionRow(id);
      return r?.closed_at ? r : undefined;
    });
    expect(row).toMatchObject({ agent_id: agentId, opened_by: expect.any(String), end_reason: 'exit', exit_code: 3, bytes_in: Buffer.byteLength('exit 3\r') });
    expect(row.bytes_out).toBe(term.output.length);
    expect(row.opened_at).not.toBeNull();
    const audit = await until('terminal.close in the audit log', async () => {
      const rows = (await t.http.get('/api/v3/audit/').query({ path: `/api/v3/terminal-sessions/${id}/` }).set(admin)).body as Array<Record<string, any>>;
      return rows.find((r) => r.action === 'terminal.close');
    });
    expect(audit).toMatchObject({ outcome: 'exit', changes: { after: { bytes_in: row.bytes_in, bytes_out: row.bytes_out, end_reason: 'exit', exit_code: 3 } } });
    const opened = (await t.http.get('/api/v3/audit/').query({ path: `/api/v3/terminal-sessions/${id}/` }).set(admin)).body.find((r: any) => r.action === 'terminal.open');
    expect(opened).toMatchObject({ changes: { after: { agent_id: agentId, cols: 80, rows: 24 } } });
  }, 60_000);

  it('an idle session is closed with the end reason idle, and its shell is gone', async () => {
    // The setting's least value is 1 minute; the running server's is set to 3 s here (RuntimeConfig is read at each
    // sweep), so the test does not wait a minute for the same code path.
    const runtime = t.server.runtime as { terminalIdleMinutes: number };
    const was = runtime.terminalIdleMinutes;
    runtime.terminalIdleMinutes = 0.05;
    try {
      const { id, term } = await open();
      term.type('echo pid=$$\r');
      const pid = Number((await term.expect(/pid=(\d+)/))[1]);
      expect(spawnSync('ps', ['-p', String(pid)]).status).toBe(0);
      expect(await term.closed).toEqual({ code: 1000, reason: 'idle' });
      await until('the shell gone', async () => spawnSync('ps', ['-p', String(pid)]).status !== 0, 10_000);
      await until('the row ended idle', async () => (await sessionRow(id))?.end_reason === 'idle');
    } finally {
      runtime.terminalIdleMinutes = was;
    }
  }, 60_000);

  it('records the output as asciicast v2 with RMM_TERMINAL_RECORDING (admin only); a session without one is 404', async () => {
    // (the running server's setting, read when a session is accepted)
    const runtime = t.server.runtime as { terminalRecording: boolean };
    runtime.terminalRecording = true;
    let id: string;
    try {
      const opened = await open();
      id = opened.id;
      opened.term.type("printf 'rec:\\xf0\\x9f\\x98\\x80:end\\n'\r");
      await opened.term.expect(/rec:\u{1F600}:end/u);
      opened.term.ws.send(JSON.stringify({ type: 'resize', cols: 120, rows: 50 }));
      opened.term.type('exit\r');
      await opened.term.closed;
    } finally {
      runtime.terminalRecording = false;
    }
    const technician = await createKey(t, ['terminal']);
    expect((await t.http.get(`/api/v3/terminal-sessions/${id}/recording`).set({ 'X-API-KEY': technician })).status).toBe(403);
    const rec = await until('the recording', async () => {
      const r = await t.http.get(`/api/v3/terminal-sessions/${id}/recording`).set(admin).buffer(true).parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => done(null, text));
      });
      return r.status === 200 && (r.body as string).includes('"r"') ? r : undefined;
    });
    expect(rec.headers['content-type']).toBe('application/x-asciicast');
    const lines = (rec.body as string).trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines[0]).toMatchObject({ version: 2, width: 80, height: 24, env: { TERM: 'xterm-256color' } });
    const events = lines.slice(1) as Array<[number, string, string]>;
    expect(events.map((e) => e[1]).filter((k) => k !== 'o')).toEqual(['r']);
    expect(events.find((e) => e[1] === 'r')![2]).toBe('120x50');
    expect(events.filter((e) => e[1] === 'o').map((e) => e[2]).join('')).toContain('rec:\u{1F600}:end');
    const { id: plain, term } = await open();
    term.type('exit\r');
    await term.closed;
    const none = await t.http.get(`/api/v3/terminal-sessions/${plain}/recording`).set(admin);
    expect([none.status, none.body]).toEqual([404, { detail: 'Not found' }]);
  }, 60_000);

  it('the ticket: once, by the same caller; an unknown session 404, a used one 409; an admin ends a session', async () => {
    const other = await createKey(t, ['terminal']);
    const r = await t.http.post(`/api/v3/agents/${agentId}/terminal/`).set(admin).send({ cols: 80, rows: 24 });
    await expect(Terminal.open(`${wsBase(t)}${r.body.url}`, { 'X-API-KEY': other })).rejects.toThrow('unexpected-response 404');
    const term = await Terminal.open(`${wsBase(t)}${r.body.url}?api_key=${ADMIN}`, {});
    await expect(Terminal.open(`${wsBase(t)}${r.body.url}`, admin)).rejects.toThrow('unexpected-response 409');
    await expect(Terminal.open(`${wsBase(t)}/rmm/terminal/00000000-0000-4000-8000-000000000000/`, admin)).rejects.toThrow('unexpected-response 404');
    expect((await t.http.delete(`/api/v3/terminal-sessions/${r.body.session_id}/`).set({ 'X-API-KEY': other })).status).toBe(403);
    expect((await t.http.delete(`/api/v3/terminal-sessions/${r.body.session_id}/`).set(admin)).status).toBe(204);
    expect(await term.closed).toEqual({ code: 1000, reason: 'ended_by_admin' });
    expect((await t.http.delete(`/api/v3/terminal-sessions/${r.body.session_id}/`).set(admin)).body).toEqual({ detail: 'the session has ended already' });
    await until('the row ended by the admin', async () => (await sessionRow(r.body.session_id))?.closed_at !== null);
    expect(await sessionRow(r.body.session_id)).toMatchObject({ end_reason: 'ended_by_admin' });
  }, 60_000);

  it('the fourth session on one agent is 429; bad sizes are 400; an offline agent 409', async () => {
    const key = await createKey(t, ['terminal']);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await t.http.post(`/api/v3/agents/${agentId}/terminal/`).set({ 'X-API-KEY': key }).send({ cols: 80, rows: 24 });
      expect(r.status).toBe(201);
      ids.push(r.body.session_id);
    }
    const fourth = await t.http.post(`/api/v3/agents/${agentId}/terminal/`).set(admin).send({ cols: 80, rows: 24 });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ detail: 'too many terminal sessions on this agent (at most 3)' });
    for (const id of ids) expect((await t.http.delete(`/api/v3/terminal-sessions/${id}/`).set(admin)).status).toBe(204);
    const fifth = await t.http.post(`/api/v3/agents/${agentId}/terminal/`).set(admin).send({ cols: 80, rows: 24 });
    expect(fifth.status).toBe(201);
    expect((await t.http.delete(`/api/v3/terminal-sessions/${fifth.body.session_id}/`).set(admin)).status).toBe(204);

    const bad = await t.http.post(`/api/v3/agents/${agentId}/terminal/`).set(admin).send({ cols: 0, rows: 1001, shell: 'bash\n' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('validation error');
    expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['cols', 'rows', 'shell']);
    const clients = (await t.http.get('/api/v3/clients/').set(admin)).body as Array<{ id: number; sites: Array<{ id: number }> }>;
    const never = await insertAgent(t, { hostname: 'terminal-never-connected', clientId: clients[0].id, siteId: clients[0].sites[0].id, plat: 'linux' });
    const offline = await t.http.post(`/api/v3/agents/${never}/terminal/`).set(admin).send({ cols: 80, rows: 24 });
    expect(offline.status).toBe(409);
    expect(offline.body).toEqual({ detail: 'agent is offline' });
  }, 60_000);

  it('operators: a viewer 403, another client\'s technician 404; a cookie upgrade from another Origin 403, from the console\'s own accepted', async () => {
    const elsewhere = await createTenant(t, 'Terminal Elsewhere');
    await createOperator(t, 'viewer@terminal.test', 'viewer');
    await createOperator(t, 'limited@terminal.test', 'technician', { clients: [elsewhere.clientId] });
    await createOperator(t, 'tech@terminal.test', 'technician');
    const viewer = await signIn(t, 'viewer@terminal.test');
    const limited = await signIn(t, 'limited@terminal.test');
    const tech = await signIn(t, 'tech@terminal.test');
    const post = (cookie: string) => t.http.post(`/api/v3/agents/${agentId}/terminal/`).set({ Cookie: cookie, ...CONSOLE }).send({ cols: 80, rows: 24 });
    expect((await post(viewer)).status).toBe(403);
    const hidden = await post(limited);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ detail: 'Not found' });
    const ok = await post(tech);
    expect(ok.status).toBe(201);
    await expect(Terminal.open(`${wsBase(t)}${ok.body.url}`, { Cookie: tech, Origin: 'http://evil.example' })).rejects.toThrow('unexpected-response 403');
    const term = await Terminal.open(`${wsBase(t)}${ok.body.url}`, { Cookie: tech, Origin: t.url });
    term.type('echo $((6*7))\r');
    await term.expect(/[\r\n]42\r\n/);
    term.ws.close();
    await term.closed;
    const listed = (await t.http.get('/api/v3/terminal-sessions/').set({ Cookie: limited })).body as unknown[];
    expect(listed).toEqual([]);
  }, 60_000);
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  describe('the remote terminal across instances', () => {
    console.log('skipped: the two-instance terminal test needs REDIS_URL (e.g. redis://127.0.0.1:6379)');
    it.skip('a terminal opened on instance A for an agent connected to B (needs REDIS_URL)', () => undefined);
  });
} else {
  describe('the remote terminal across instances (two instances, one database, one Redis, the real binary agent on B)', () => {
    const PREFIX = `test-terminal-${process.pid}-${Date.now()}:`;
    let db: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let work: string;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'rmm-terminal-multi-e2e-'));
      db = await createTestDatabase();
      a = await startTestApp({ ...SETTINGS, REDIS_URL: redisUrl, REDIS_PREFIX: PREFIX }, { db });
      b = await startTestApp({ ...SETTINGS, REDIS_URL: redisUrl, REDIS_PREFIX: PREFIX }, { db });
    }, 120_000);
    afterAll(async () => {
      killAll(children);
      await a?.close();
      await b?.close();
      await db?.drop();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('a terminal opened on instance A for an agent connected to B works both ways and ends with exit', async () => {
      const agent = await startAgent(work, b.url, 'terminal-multi-01', children);
      await until(`agent online\n${agent.output()}`, async () => (await a.http.get(`/api/v3/agents/${agent.id}/`).set(admin)).body.status === 'online', 30_000);
      const r = await a.http.post(`/api/v3/agents/${agent.id}/terminal/`).set(admin).send({ cols: 100, rows: 30 });
      expect(r.status).toBe(201);
      const term = await Terminal.open(`${wsBase(a)}${r.body.url}`, admin);
      term.type('echo $((6*7)); stty size\r');
      await term.expect(/[\r\n]42\r\n30 100\r\n/);
      term.type('exit\r');
      expect(await term.closed).toEqual({ code: 1000, reason: 'exit' });
      expect(term.texts).toContainEqual({ type: 'exit', code: 0 });
      await until('the row closed', async () => {
        const rows = (await b.http.get('/api/v3/terminal-sessions/').query({ agent: agent.id }).set(admin)).body as Array<Record<string, any>>;
        return rows.find((x) => x.id === r.body.session_id && x.end_reason === 'exit');
      });
    }, 300_000);
  });
}
