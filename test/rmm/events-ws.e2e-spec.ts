import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiKeysService } from '../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { EventsGateway, MAX_BUFFERED_BYTES, MAX_SUBSCRIPTIONS_PER_KEY } from '../../apps/api/src/rmm/events/events-gateway';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';
import { ROOT, run } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { Subscriber } from '../utils/events-subscriber';
import { until } from '../utils/wait';

const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');
const ADMIN = 'events-ws-admin-key-0123456789abcdef';
type Refusal = Error & { status?: number; body?: string };

describe('events WebSocket /rmm/{agent_id}/', () => {
  let t: TestApp;
  let ws: string;
  let tenant: { clientId: number; siteId: number };
  const admin = { 'X-API-KEY': ADMIN };
  const open: Subscriber[] = [];
  let work: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' });
    ws = t.url.replace(/^http/, 'ws');
    tenant = await createTenant(t, 'Events Ltd', 'HQ');
    work = mkdtempSync(join(tmpdir(), 'rmm-events-e2e-'));
  });
  afterEach(async () => {
    for (const s of open.splice(0)) s.ws.terminate();
    for (const c of children.splice(0)) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await new Promise((r) => c.once('exit', r));
      }
    }
  });
  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const subscribe = async (agentId: number | string, key = ADMIN, path = `/rmm/${agentId}/`): Promise<Subscriber> => {
    const s = await Subscriber.connect(`${ws}${path}`, { headers: { 'X-API-KEY': key } });
    open.push(s);
    return s;
  };
  const refusal = (url: string, headers: Record<string, string> = {}): Promise<Refusal & { messages: number }> =>
    Subscriber.connect(url, { headers }).then(
      (s) => {
        open.push(s);
        throw new Error('the upgrade was accepted');
      },
      (err: Refusal & { messages: number }) => err,
    );
  const agent = (hostname: string): Promise<number> => insertAgent(t, { hostname, clientId: tenant.clientId, siteId: tenant.siteId });
  const insertAlert = async (agentId: number, message: string): Promise<number> =>
    (await sql<{ id: number }>(t.db.url, `INSERT INTO alerts (alert_type, agent_id, severity, message) VALUES ('agent_overdue', $1, 'error', $2) RETURNING id`, [agentId, message]))[0].id;

  it('refuses at the upgrade, before any message: 401 without or with a bad key, 403 without agents:read, 404 for an unknown agent or path', async () => {
    const id = await agent('events-refused');
    const readOnlyChecks = await createKey(t, ['checks:read']);
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [`${ws}/rmm/${id}/`, {}, 401, 'Invalid token'],
      [`${ws}/rmm/${id}/`, { 'X-API-KEY': 'rmm_not-a-key' }, 401, 'Invalid token'],
      [`${ws}/rmm/${id}/?api_key=rmm_not-a-key`, {}, 401, 'Invalid token'],
      [`${ws}/rmm/999999/`, { 'X-API-KEY': 'rmm_not-a-key' }, 401, 'Invalid token'], // the key first, then the agent
      [`${ws}/rmm/${id}/`, { 'X-API-KEY': readOnlyChecks }, 403, 'permission denied'],
      [`${ws}/rmm/${id}?api_key=${encodeURIComponent(readOnlyChecks)}`, {}, 403, 'permission denied'],
      [`${ws}/rmm/999999/`, admin, 404, 'Not found'],
      [`${ws}/rmm/abc/`, admin, 404, 'Not found'],
      [`${ws}/rmm/${id}/extra/`, admin, 404, 'Not found'],
      [`${ws}/nothing-here`, admin, 404, 'Not found'],
    ];
    for (const [url, headers, status, detail] of cases) {
      const err = await refusal(url, headers);
      expect([url, err.status, err.body, err.messages]).toEqual([url, status, JSON.stringify({ detail }), 0]);
    }
  });

  it('greets with hello (the agent as GET shows it, with its open alerts) on both path forms and with ?api_key=, never logging the key', async () => {
    const id = await agent('events-hello');
    const alertId = await insertAlert(id, 'agent events-hello is overdue');
    const reader = await createKey(t, ['agents:read']);
    const expected = {
      ...(await t.http.get(`/api/v3/agents/${id}/`).set(admin)).body,
      alerts: (await t.http.get('/api/v3/alerts/').query({ agent: id }).set(admin)).body,
    };
    expect(expected.alerts).toEqual([expect.objectContaining({ id: alertId, resolved: false })]);
    for (const s of [
      await subscribe(id, reader, `/rmm/${id}/`),
      await subscribe(id, reader, `/rmm/${id}`),
      await Subscriber.connect(`${ws}/rmm/${id}/?api_key=${encodeURIComponent(reader)}`).then((s) => (open.push(s), s)),
    ]) {
      const hello = await s.next('hello');
      expect(hello).toEqual({ event: 'hello', agent_id: String(id), ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), data: expected });
      expect(s.messages).toEqual([]);
    }
    expect(t.server.app.get(EventsGateway).subscribers(id)).toBe(3);
    expect(t.logs.join('\n')).not.toContain(reader);
  });

  it('relays acknowledging and resolving over REST as alert.acknowledged and alert.resolved, with the alert as REST shows it; other agents see nothing', async () => {
    const id = await agent('events-alerts');
    const other = await subscribe(await agent('events-other'));
    await other.next('hello');
    const alertId = await insertAlert(id, 'agent events-alerts is overdue');
    const s = await subscribe(id);
    await s.next('hello');
    const acked = await t.http.post(`/api/v3/alerts/${alertId}/acknowledge/`).set(admin);
    expect(acked.status).toBe(200);
    expect(await s.next('alert.acknowledged')).toMatchObject({ agent_id: String(id), data: acked.body });
    expect(acked.body).toMatchObject({ id: alertId, acknowledged: true, resolved: false });
    const resolved = await t.http.post(`/api/v3/alerts/${alertId}/resolve/`).set(admin);
    expect(resolved.status).toBe(200);
    expect(await s.next('alert.resolved')).toMatchObject({ agent_id: String(id), data: resolved.body });
    expect(resolved.body).toMatchObject({ id: alertId, resolved: true });
    expect(other.messages).toEqual([]);
  });

  it('closes a subscriber whose key is revoked (4401) within seconds, also when revoked behind its back or when it expires, and one whose agent is deleted (4404)', async () => {
    const id = await agent('events-revoke');
    const created = await t.http.post('/api/v3/keys/').set(admin).send({ name: 'events-revoke', scopes: ['agents:read'] });
    expect(created.status).toBe(201);
    const s = await subscribe(id, created.body.key);
    await s.next('hello');
    expect((await t.http.delete(`/api/v3/keys/${created.body.id}/`).set(admin)).status).toBe(204);
    expect(await s.whenClosed(5_000)).toEqual({ code: 4401, reason: 'api key revoked' });
    expect((await refusal(`${ws}/rmm/${id}/`, { 'X-API-KEY': created.body.key })).status).toBe(401);

    // revoked in the database only (as another server instance does): the periodic recheck finds it
    const other = await t.http.post('/api/v3/keys/').set(admin).send({ name: 'events-revoke-2', scopes: ['agents:read'] });
    const s2 = await subscribe(id, other.body.key);
    await s2.next('hello');
    await sql(t.db.url, `UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [other.body.id]);
    expect(await s2.whenClosed(8_000)).toEqual({ code: 4401, reason: 'api key revoked' });

    // a key that reaches its expires_at while connected
    const { key: shortKey, secret: shortSecret } = await t.server.app.get(ApiKeysService).create({ name: 'events-expiring', scopes: ['agents:read'], expiresAt: new Date(Date.now() + 2_500) });
    const s4 = await subscribe(id, shortSecret);
    await s4.next('hello');
    expect(shortKey.expiresAt).not.toBeNull();
    expect(await s4.whenClosed(8_000)).toEqual({ code: 4401, reason: 'api key expired' });

    const s3 = await subscribe(id);
    await s3.next('hello');
    expect((await t.http.delete(`/api/v3/agents/${id}/`).set(admin)).status).toBe(204);
    expect(await s3.whenClosed(8_000)).toEqual({ code: 4404, reason: 'agent deleted' });
  });

  it('closes a subscriber that cannot keep up with 1013 and a reason instead of buffering without bound', async () => {
    const id = await agent('events-slow');
    const slow = await subscribe(id);
    const fast = await subscribe(id);
    await slow.next('hello');
    await fast.next('hello');
    // The slow one stops reading: what the server sends piles up in the kernel's buffers, then in the server's.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const bus = t.server.app.get(RmmEvents);
    const chunk = 'x'.repeat(64 * 1024);
    let seq = 0;
    // Far more than the bound and any socket buffer: enough that the slow one must be cut off.
    for (let i = 0; i < 40 && t.server.app.get(EventsGateway).subscribers(id) === 2; i++) {
      for (let j = 0; j < 16; j++) bus.emit('script.output', { agentId: id, runId: 1, stream: 'stdout', chunk, seq: seq++ });
      await new Promise((r) => setImmediate(r));
    }
    expect(t.server.app.get(EventsGateway).subscribers(id)).toBe(1);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await slow.whenClosed()).toEqual({ code: 1013, reason: `subscriber too slow: more than ${MAX_BUFFERED_BYTES / 1024 / 1024} MiB waiting to be sent` });
    // the reader that kept up got every chunk, in order
    await until('every chunk at the fast subscriber', async () => fast.messages.length === seq);
    expect(fast.messages.map((m) => m.data.seq)).toEqual([...Array(seq).keys()]);
    expect(fast.closed).toBeUndefined();
  });

  it(`refuses an open subscription past ${MAX_SUBSCRIPTIONS_PER_KEY} of one key with 429`, async () => {
    const id = await agent('events-cap');
    const key = await createKey(t, ['agents:read']);
    const subs = await Promise.all(Array.from({ length: MAX_SUBSCRIPTIONS_PER_KEY }, () => subscribe(id, key)));
    expect(subs).toHaveLength(MAX_SUBSCRIPTIONS_PER_KEY);
    const err = await refusal(`${ws}/rmm/${id}/`, { 'X-API-KEY': key });
    expect([err.status, JSON.parse(err.body!).detail]).toEqual([429, `too many open event subscriptions for this key (at most ${MAX_SUBSCRIPTIONS_PER_KEY})`]);
    subs[0].ws.close();
    await subs[0].whenClosed();
    await until('a slot to free up', async () => t.server.app.get(EventsGateway).subscribers(id) < MAX_SUBSCRIPTIONS_PER_KEY);
    await (await subscribe(id, key)).next('hello');
  });

  it('with a real agent: streams script.output before runscript returns, in seq order, all before script.finished; agent.offline on SIGKILL, agent.online again', async () => {
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    const prefix = join(work, 'agent');
    const env = { ...process.env, RMM_AGENT_HOSTNAME: 'events-real-agent' };
    const reg = await run([AGENT_JS, 'register', '--server', t.url, '--token', d.body.uuid, '--prefix', prefix], env, 20_000);
    expect(reg.code).toBe(0);
    const id = Number(reg.stdout.trim());
    const start = (): ChildProcess => {
      const child = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', prefix], { env, cwd: ROOT, stdio: 'ignore' });
      children.push(child);
      return child;
    };
    const s = await subscribe(id);
    await s.next('hello');
    const child = start();
    await s.next('agent.online');

    const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'events-stream', shell: 'bash', body: 'echo first; sleep 3; echo second' });
    let returned = false;
    const call = t.http
      .post(`/api/v3/agents/${id}/runscript/`)
      .set(admin)
      .send({ script: script.body.id, timeout: 20 })
      .then((r) => ((returned = true), r));
    const started = await s.next('script.started');
    const first = await s.next('script.output');
    expect(returned).toBe(false); // the first chunk came while the script was still sleeping
    expect(first.data).toEqual({ run_id: started.data.run_id, stream: 'stdout', chunk: 'first\n', seq: 0 });
    const res = await call;
    expect(res.status).toBe(200);
    expect(started.data).toEqual({ run_id: res.body.id, script: script.body.id });
    const finished = await s.next('script.finished');
    expect(finished.data).toEqual({ run_id: res.body.id, retcode: 0, execution_time: expect.any(Number), timed_out: false });
    // everything between: the rest of the output, in seq order, none after script.finished
    const outputs = [first, ...s.messages.filter((m) => m.event === 'script.output' && m.data.run_id === res.body.id)];
    expect(outputs.map((m) => m.data.seq)).toEqual(outputs.map((_, i) => i));
    expect(outputs.map((m) => m.data.chunk).join('')).toBe('first\nsecond\n');
    expect(finished.ts >= outputs[outputs.length - 1].ts).toBe(true);

    child.kill('SIGKILL');
    expect(await s.next('agent.offline')).toMatchObject({ agent_id: String(id), data: { status: 'offline' } });
    start();
    expect(await s.next('agent.online')).toMatchObject({ agent_id: String(id), data: { status: 'online' } });
  });

  it('keeps the agent channel (/agent/v1/ws, its own 401) working beside it through the one upgrade router', async () => {
    const err = await refusal(`${ws}/agent/v1/ws`, { 'X-Agent-Id': '1', Authorization: 'Bearer agt_wrong' });
    expect([err.status, err.body]).toEqual([401, '{"detail":"Invalid agent credentials"}']);
  });
});

describe('events WebSocket at shutdown', () => {
  it('closes its subscribers with 1001 when the server stops', async () => {
    const t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    try {
      const tenant = await createTenant(t, 'Shutdown Ltd');
      const id = await insertAgent(t, { hostname: 'events-shutdown', clientId: tenant.clientId, siteId: tenant.siteId });
      const s = await Subscriber.connect(`${t.url.replace(/^http/, 'ws')}/rmm/${id}/`, { headers: { 'X-API-KEY': ADMIN } });
      await s.next('hello');
      await t.server.close();
      expect(await s.whenClosed()).toEqual({ code: 1001, reason: 'server shutting down' });
    } finally {
      await t.close();
    }
  });
});
