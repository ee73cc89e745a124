import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket from 'ws';
import { ApiKeysService } from '../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { EventsGateway, MAX_BUFFERED_BYTES, MAX_SUBSCRIPTIONS_PER_KEY } from '../../apps/api/src/rmm/events/events-gateway';
import { EventsRepository } from '../../apps/api/src/rmm/events/events.repository';
import { FleetGateway } from '../../apps/api/src/rmm/events/fleet-gateway';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { Subscriber } from '../utils/events-subscriber';
import { FakeAgent } from '../utils/fake-agent';
import { CONSOLE, createOperator, signIn } from '../utils/operators';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const ADMIN = 'fleet-ws-admin-key-0123456789abcdef';
/** A page RMM_CORS_ORIGINS lists for this server. */
const LISTED_ORIGIN = 'http://console.example';
const MiB = 1024 * 1024;
type Refusal = Error & { status?: number; body?: string; messages: number };
type Tenant = { clientId: number; siteId: number };

/**
 * A fleet subscriber that keeps only counts and agent ids (20,000 messages of a storm are not kept): how many of
 * each event it got, and from which agents.
 */
class Counter {
  readonly counts = new Map<string, number>();
  readonly agents = new Map<string, Set<string>>();
  closed?: { code: number; reason: string };
  hello?: { agent_id: string | null; data: unknown };

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { event: string; agent_id: string | null; data: unknown };
      if (m.event === 'hello') this.hello = m;
      this.counts.set(m.event, (this.counts.get(m.event) ?? 0) + 1);
      let ids = this.agents.get(m.event);
      if (!ids) this.agents.set(m.event, (ids = new Set()));
      ids.add(String(m.agent_id));
    });
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
    ws.on('error', () => undefined);
  }

  static connect(url: string, key: string): Promise<Counter> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { 'X-API-KEY': key } });
      const c = new Counter(ws);
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
    });
  }

  count(event: string): number {
    return this.counts.get(event) ?? 0;
  }
}

describe('fleet events WebSocket /rmm/fleet/', () => {
  let t: TestApp;
  let ws: string;
  let a: Tenant;
  let b: Tenant;
  const open: Array<{ ws: WebSocket }> = [];

  beforeAll(async () => {
    t = await startTestApp({
      RMM_ADMIN_API_KEY: ADMIN,
      RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
      RMM_RATE_LIMIT_PER_MINUTE: '100000',
      RMM_CORS_ORIGINS: LISTED_ORIGIN,
    });
    ws = t.url.replace(/^http/, 'ws');
    a = await createTenant(t, 'Fleet A Ltd', 'HQ');
    b = await createTenant(t, 'Fleet B Ltd', 'HQ');
  });
  afterEach(() => {
    jest.restoreAllMocks();
    for (const s of open.splice(0)) s.ws.terminate();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A key with these scopes, limited to these clients (written in api_keys.clients, as `apikey create --clients` does). */
  const keyFor = async (clients: number[] | null, scopes: Array<'agents:read' | 'checks:read'> = ['agents:read']): Promise<{ id: number; secret: string }> => {
    const { key, secret } = await t.server.app.get(ApiKeysService).create({ name: `fleet-${Math.random().toString(36).slice(2, 8)}`, scopes });
    await sql(t.db.url, `UPDATE api_keys SET clients = $1 WHERE id = $2`, [clients, key.id]);
    return { id: key.id, secret };
  };
  const subscribe = async (key: string, path = '/rmm/fleet/', headers: Record<string, string> = {}): Promise<Subscriber> => {
    const s = await Subscriber.connect(`${ws}${path}`, { headers: { 'X-API-KEY': key, ...headers } });
    open.push(s);
    return s;
  };
  const counter = async (key: string): Promise<Counter> => {
    const c = await Counter.connect(`${ws}/rmm/fleet/`, key);
    open.push(c);
    await until('hello', async () => c.hello);
    return c;
  };
  const refusal = (url: string, headers: Record<string, string> = {}): Promise<Refusal> =>
    Subscriber.connect(url, { headers }).then(
      (s) => {
        open.push(s);
        throw new Error(`the upgrade to ${url} was accepted`);
      },
      (err: Refusal) => err,
    );
  /** A device enrolled in the tenant and connected on the agent channel (online while connected). */
  const enroll = async (tenant: Tenant, hostname: string): Promise<{ agentId: string; secret: string }> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set('X-API-KEY', ADMIN).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname, plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    return { agentId: r.body.agent_id, secret: r.body.agent_secret };
  };
  const connectAgent = async (agent: { agentId: string; secret: string }): Promise<FakeAgent> => {
    const fake = await FakeAgent.connect(t.url, agent.agentId, agent.secret);
    open.push(fake);
    await fake.next('hello');
    return fake;
  };
  /** Agents inserted straight into the table (a fleet of thousands); their ids. */
  const insertAgents = async (tenant: Tenant, prefix: string, n: number): Promise<number[]> =>
    (
      await sql<{ id: number }>(
        t.db.url,
        `INSERT INTO agents (hostname, client_id, site_id, plat, status, version, disks)
         SELECT $1 || g, $2, $3, 'linux', 'offline', '1.0.0', '[{"device":"/","free":"120.5 GB","total":"475.8 GB","percent":75}]'
           FROM generate_series(1, $4::int) g RETURNING id`,
        [prefix, tenant.clientId, tenant.siteId, n],
      )
    ).map((r) => r.id);
  const countAgents = async (clientId?: number): Promise<number> =>
    (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int n FROM agents${clientId ? ' WHERE client_id = $1' : ''}`, clientId ? [clientId] : []))[0].n;

  it('refuses at the upgrade, before any message: 401 without or with a bad key, 403 without agents:read, 404 for a path under it', async () => {
    const noScope = await keyFor(null, ['checks:read']);
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [`${ws}/rmm/fleet/`, {}, 401, 'Invalid token'],
      [`${ws}/rmm/fleet`, { 'X-API-KEY': 'rmm_not-a-key' }, 401, 'Invalid token'],
      [`${ws}/rmm/fleet/?api_key=rmm_not-a-key`, {}, 401, 'Invalid token'],
      [`${ws}/rmm/fleet/`, { 'X-API-KEY': noScope.secret }, 403, 'permission denied'],
      [`${ws}/rmm/fleet?api_key=${encodeURIComponent(noScope.secret)}`, {}, 403, 'permission denied'],
      [`${ws}/rmm/fleet/extra/`, { 'X-API-KEY': ADMIN }, 404, 'Not found'],
    ];
    for (const [url, headers, status, detail] of cases) {
      const err = await refusal(url, headers);
      expect([url, err.status, err.body, err.messages]).toEqual([url, status, JSON.stringify({ detail }), 0]);
    }
  });

  it('greets with a small hello (how many agents the caller sees, its clients), on both path forms and with ?api_key=, never logging the key', async () => {
    await insertAgents(a, 'hello-a-', 3);
    await insertAgents(b, 'hello-b-', 2);
    const limited = await keyFor([a.clientId]);
    const all = await keyFor(null);
    const ts = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const s of [await subscribe(all.secret, '/rmm/fleet/'), await subscribe(all.secret, '/rmm/fleet')]) {
      expect(await s.next('hello')).toEqual({ event: 'hello', agent_id: null, ts, data: { agents: await countAgents(), clients: null } });
    }
    const byQuery = await Subscriber.connect(`${ws}/rmm/fleet?api_key=${encodeURIComponent(limited.secret)}`);
    open.push(byQuery);
    expect(await byQuery.next('hello')).toEqual({ event: 'hello', agent_id: null, ts, data: { agents: await countAgents(a.clientId), clients: [a.clientId] } });
    await until('the three subscribers (and only them) held', async () => t.server.app.get(FleetGateway).subscribers() === 3);
    expect(t.logs.join('\n')).not.toContain(limited.secret);
    expect(t.logs.join('\n')).not.toContain(all.secret);
  });

  it("streams agent.online and agent.offline of every client's agents to an unlimited key, only client A's to a key limited to A; B's agent's own WebSocket is 404 for it", async () => {
    const limited = await keyFor([a.clientId]);
    const agentA = await enroll(a, 'fleet-presence-a');
    const agentB = await enroll(b, 'fleet-presence-b');
    const everything = await subscribe(ADMIN);
    const onlyA = await subscribe(limited.secret);
    await everything.next('hello');
    await onlyA.next('hello');

    const fakeA = await connectAgent(agentA);
    const fakeB = await connectAgent(agentB);
    fakeA.ws.close();
    fakeB.ws.close();
    const presence = (s: Subscriber) => s.messages.filter((m) => m.event.startsWith('agent.')).map((m) => `${m.event} ${m.agent_id} ${m.data.status}`);
    await until('both agents online and offline', async () => presence(everything).length === 4);
    expect(presence(everything).sort()).toEqual(
      [`agent.online ${agentA.agentId} online`, `agent.offline ${agentA.agentId} offline`, `agent.online ${agentB.agentId} online`, `agent.offline ${agentB.agentId} offline`].sort(),
    );
    // the limited subscriber got exactly A's, in order
    await until("A's offline at the limited subscriber", async () => presence(onlyA).length === 2);
    expect(presence(onlyA)).toEqual([`agent.online ${agentA.agentId} online`, `agent.offline ${agentA.agentId} offline`]);
    expect(everything.messages.every((m) => /^\d{4}-.*Z$/.test(m.ts))).toBe(true);

    // the per-agent WebSocket: B's agent does not exist for the limited key (as an unknown one), A's does
    const err = await refusal(`${ws}/rmm/${agentB.agentId}/`, { 'X-API-KEY': limited.secret });
    expect([err.status, err.body]).toEqual([404, JSON.stringify({ detail: 'Not found' })]);
    const unknown = await refusal(`${ws}/rmm/999999/`, { 'X-API-KEY': limited.secret });
    expect([unknown.status, unknown.body]).toEqual([404, JSON.stringify({ detail: 'Not found' })]);
    const own = await subscribe(limited.secret, `/rmm/${agentA.agentId}/`);
    expect((await own.next('hello')).data).toMatchObject({ agent_id: agentA.agentId, client: { id: a.clientId } });
    expect(t.server.app.get(EventsGateway).subscribers(Number(agentA.agentId))).toBe(1);
    // and the unlimited key sees B's agent there
    expect((await (await subscribe(ADMIN, `/rmm/${agentB.agentId}/`)).next('hello')).data).toMatchObject({ agent_id: agentB.agentId });
  });

  it("relays a failing check's alert.created and its acknowledgement as alert.*: A's to both, B's only to the unlimited key; no per-run traffic", async () => {
    const limited = await keyFor([a.clientId]);
    const agentA = await enroll(a, 'fleet-alert-a');
    const agentB = await enroll(b, 'fleet-alert-b');
    const fakeA = await connectAgent(agentA);
    const fakeB = await connectAgent(agentB);
    const everything = await subscribe(ADMIN);
    const onlyA = await subscribe(limited.secret);
    await everything.next('hello');
    await onlyA.next('hello');

    const fail = async (agent: { agentId: string }, fake: FakeAgent): Promise<void> => {
      const check = await t.http.post('/api/v3/checks/').set('X-API-KEY', ADMIN).send({ agent: agent.agentId, check_type: 'memory', settings: { threshold_percent: 90 }, fails_b4_alert: 1, severity: 'error' });
      expect(check.status).toBe(201);
      await fake.given(check.body.id);
      fake.send({ type: 'check.result', checkId: check.body.id, status: 'failing', moreInfo: 'memory 97 % used' });
    };
    await fail(agentA, fakeA);
    const createdA = await everything.next('alert.created');
    expect(createdA).toMatchObject({ agent_id: agentA.agentId, data: { agent: agentA.agentId, alert_type: 'check_failure', severity: 'error', resolved: false } });
    expect(await onlyA.next('alert.created')).toEqual(createdA);
    await fail(agentB, fakeB);
    expect(await everything.next('alert.created')).toMatchObject({ agent_id: agentB.agentId, data: { agent: agentB.agentId } });

    const acked = await t.http.post(`/api/v3/alerts/${createdA.data.id}/acknowledge/`).set('X-API-KEY', ADMIN);
    expect(acked.status).toBe(200);
    expect(await onlyA.next('alert.acknowledged')).toMatchObject({ agent_id: agentA.agentId, data: acked.body });
    expect(await everything.next('alert.acknowledged')).toMatchObject({ agent_id: agentA.agentId, data: acked.body });
    // nothing of B's at the limited subscriber, and no check.status (the per-agent WebSocket's) at either
    expect(onlyA.messages.filter((m) => m.agent_id !== agentA.agentId)).toEqual([]);
    expect([...everything.messages, ...onlyA.messages].filter((m) => !/^(agent\.|alert\.)/.test(m.event))).toEqual([]);
  });

  it('holds a storm of 20,000 agent.updated (and then 20,000 agent.offline) for two readers, reading the agents in 40 queries and their clients in none', async () => {
    const idsA = await insertAgents(a, 'storm-a-', 10_000);
    const idsB = await insertAgents(b, 'storm-b-', 10_000);
    const limited = await keyFor([a.clientId]);
    const everything = await counter(ADMIN);
    const onlyA = await counter(limited.secret);
    const repo = t.server.app.get(EventsRepository);
    const rowReads = jest.spyOn(repo, 'agentRows');
    const clientReads = jest.spyOn(repo, 'clientsOf');
    const bus = t.server.app.get(RmmEvents);
    const all = idsA.flatMap((id, i) => [id, idsB[i]]);

    // as one heartbeat flush that changed every agent's facts announces them: all in one go
    for (const agentId of all) bus.emit('agent.updated', { agentId });
    await until('20,000 agent.updated at the unlimited subscriber', async () => everything.count('agent.updated') === 20_000 || everything.closed, 120_000);
    await until('10,000 at the limited one', async () => onlyA.count('agent.updated') === 10_000 || onlyA.closed, 60_000);
    expect([everything.closed, onlyA.closed]).toEqual([undefined, undefined]);
    expect([...onlyA.agents.get('agent.updated')!].sort()).toEqual(idsA.map(String).sort());
    expect(rowReads.mock.calls.map((c) => c[0].length)).toEqual(Array(40).fill(500));
    expect(clientReads).not.toHaveBeenCalled();

    // the clients are known now: 20,000 agents going offline cost no query at all
    for (const agentId of all) bus.emit('agent.offline', { agentId });
    await until('20,000 agent.offline', async () => everything.count('agent.offline') === 20_000, 60_000);
    await until('10,000 at the limited one', async () => onlyA.count('agent.offline') === 10_000, 60_000);
    expect(onlyA.agents.get('agent.offline')).toEqual(new Set(idsA.map(String)));
    expect(clientReads).not.toHaveBeenCalled();
    expect(rowReads).toHaveBeenCalledTimes(40);

    // agents not heard of before: their clients are read once, in batches, then remembered
    const newA = await insertAgents(a, 'cold-a-', 1_500);
    const newB = await insertAgents(b, 'cold-b-', 1_500);
    for (const agentId of [...newB, ...newA]) bus.emit('agent.online', { agentId });
    await until('3,000 agent.online', async () => everything.count('agent.online') === 3_000, 60_000);
    await until('1,500 at the limited one', async () => onlyA.count('agent.online') === 1_500, 60_000);
    expect(onlyA.agents.get('agent.online')).toEqual(new Set(newA.map(String)));
    expect(clientReads.mock.calls.map((c) => c[0].length)).toEqual([1_000, 1_000, 1_000]);
    for (const agentId of newA) bus.emit('agent.overdue', { agentId });
    await until('1,500 agent.overdue at the limited one', async () => onlyA.count('agent.overdue') === 1_500, 60_000);
    expect(clientReads).toHaveBeenCalledTimes(3);
    expect(everything.closed).toBeUndefined();
  }, 240_000);

  it('closes a fleet subscriber that does not read with 1013 instead of holding what it is sent (memory bounded meanwhile, and given back)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    /** What this process (the server and the test) still reaches, in MiB: JS heap and Buffers, after a full collection. */
    const reachable = async (): Promise<number> => {
      gc();
      await new Promise((r) => setTimeout(r, 20));
      gc();
      await new Promise((r) => setTimeout(r, 20));
      const m = process.memoryUsage();
      return (m.heapUsed + m.arrayBuffers) / MiB;
    };
    const [agentId] = await insertAgents(a, 'slow-', 1);
    const fleet = t.server.app.get(FleetGateway);
    await until("the earlier tests' subscribers to be gone", async () => fleet.subscribers() === 0);
    const slow = await subscribe(ADMIN);
    const fast = await counter(ADMIN);
    await slow.next('hello');
    expect(fleet.subscribers()).toBe(2);
    const before = await reachable();
    // The slow one stops reading: what the server sends piles up in the kernel's buffers, then in the server's.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const bus = t.server.app.get(RmmEvents);
    const big = (i: number) => ({
      id: i,
      alert_type: 'agent_overdue' as const,
      agent: String(agentId),
      severity: 'error' as const,
      message: `${i} ${'x'.repeat(64 * 1024)}`,
      created_at: new Date().toISOString(),
      snoozed: false,
      resolved: false,
      acknowledged: false,
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: null,
      resolved_by: null,
      check: null,
      task: null,
      flapping: false,
    });
    let sent = 0;
    let peak = before;
    // Up to 40 MiB of alerts: far more than the bound and the sockets' buffers, so that without the bound the slow
    // subscriber would hold tens of MiB.
    for (let round = 0; round < 40 && fleet.subscribers() === 2; round++) {
      for (let j = 0; j < 16; j++) bus.emit('alert.created', { agentId, alert: big(sent++) });
      await new Promise((r) => setImmediate(r));
      if (round % 4 === 3) peak = Math.max(peak, await reachable());
    }
    expect(fleet.subscribers()).toBe(1);
    peak = Math.max(peak, await reachable());
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await slow.whenClosed()).toEqual({ code: 1013, reason: `subscriber too slow: more than ${MAX_BUFFERED_BYTES / MiB} MiB waiting to be sent` });
    await until('every alert at the reader', async () => fast.count('alert.created') === sent);
    expect(fast.closed).toBeUndefined();
    slow.ws.terminate();
    const after = await reachable();
    process.stdout.write(`fleet flood: ${sent} alerts of 64 KiB; reachable ${before.toFixed(1)} → peak ${peak.toFixed(1)} → ${after.toFixed(1)} MiB\n`);
    expect(peak - before).toBeLessThan(16);
    expect(after - before).toBeLessThan(8);
  }, 60_000);

  it(`counts both WebSockets against one caller's ${MAX_SUBSCRIPTIONS_PER_KEY}: one more is 429 on either path`, async () => {
    const [agentId] = await insertAgents(a, 'cap-', 1);
    const key = await keyFor(null);
    const half = MAX_SUBSCRIPTIONS_PER_KEY / 2;
    const subs = await Promise.all([
      ...Array.from({ length: half }, () => subscribe(key.secret)),
      ...Array.from({ length: MAX_SUBSCRIPTIONS_PER_KEY - half }, () => subscribe(key.secret, `/rmm/${agentId}/`)),
    ]);
    expect(subs).toHaveLength(MAX_SUBSCRIPTIONS_PER_KEY);
    for (const path of ['/rmm/fleet/', `/rmm/${agentId}/`]) {
      const err = await refusal(`${ws}${path}`, { 'X-API-KEY': key.secret });
      expect([path, err.status, JSON.parse(err.body!).detail]).toEqual([path, 429, `too many open event subscriptions for this key (at most ${MAX_SUBSCRIPTIONS_PER_KEY})`]);
    }
    // another key is not affected
    await (await subscribe(ADMIN)).next('hello');
    subs[0].ws.close();
    await subs[0].whenClosed();
    const again = await until('a slot to free up', async () => Subscriber.connect(`${ws}/rmm/fleet/`, { headers: { 'X-API-KEY': key.secret } }).catch(() => undefined));
    open.push(again);
    await again.next('hello');
  });

  it('closes a fleet subscriber whose key is revoked (4401), also when revoked behind its back', async () => {
    const created = await t.http.post('/api/v3/keys/').set('X-API-KEY', ADMIN).send({ name: 'fleet-revoke', scopes: ['agents:read'] });
    expect(created.status).toBe(201);
    const s = await subscribe(created.body.key);
    await s.next('hello');
    expect((await t.http.delete(`/api/v3/keys/${created.body.id}/`).set('X-API-KEY', ADMIN)).status).toBe(204);
    expect(await s.whenClosed(5_000)).toEqual({ code: 4401, reason: 'api key revoked' });
    const other = await keyFor(null);
    const s2 = await subscribe(other.secret);
    await s2.next('hello');
    await sql(t.db.url, `UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [other.id]);
    expect(await s2.whenClosed(8_000)).toEqual({ code: 4401, reason: 'api key revoked' });
  });

  describe("with the console's session cookie (a real operator signed in over HTTP)", () => {
    let operatorId: number;
    let session: string;
    /** The upgrade's headers as a browser sends them: the session cookie, and the page's Origin (none: undefined). */
    const cookie = (origin?: string): Record<string, string> => ({ Cookie: session, ...(origin === undefined ? {} : { Origin: origin }) });
    const byCookie = async (path: string, origin = t.url): Promise<Subscriber> => {
      const s = await Subscriber.connect(`${ws}${path}`, { headers: cookie(origin) });
      open.push(s);
      return s;
    };
    const sessionIdOf = async (): Promise<string> =>
      (await sql<{ id: string }>(t.db.url, `SELECT id FROM operator_sessions WHERE operator_id = $1 ORDER BY created_at DESC LIMIT 1`, [operatorId]))[0].id;

    beforeEach(async () => {
      const email = `viewer-${Math.random().toString(36).slice(2, 8)}@fleet.test`;
      operatorId = await createOperator(t, email, 'viewer', { clients: [a.clientId] });
      session = await signIn(t, email);
    });

    it("refuses an upgrade from another page (403 'Origin not allowed'), or without Origin, on both WebSockets; accepts the server's own origin and a listed one", async () => {
      const [agentId] = await insertAgents(a, 'origin-', 1);
      for (const path of ['/rmm/fleet/', `/rmm/${agentId}/`]) {
        for (const origin of ['http://evil.example', 'null', undefined, t.url.replace(/:\d+$/, ':1'), t.url.replace('http:', 'https:'), `${t.url}.evil.example`]) {
          const err = await refusal(`${ws}${path}`, cookie(origin));
          expect([path, origin, err.status, err.body, err.messages]).toEqual([path, origin, 403, JSON.stringify({ detail: 'Origin not allowed' }), 0]);
        }
      }
      const own = await byCookie('/rmm/fleet/');
      expect((await own.next('hello')).data).toEqual({ agents: await countAgents(a.clientId), clients: [a.clientId] });
      const listed = await byCookie(`/rmm/${agentId}/`, LISTED_ORIGIN);
      expect((await listed.next('hello')).data).toMatchObject({ agent_id: String(agentId) });
      // no session, or one that is not: 401 (before the Origin is looked at)
      for (const bad of ['rmm_session=not-a-session', 'other=1']) {
        const err = await refusal(`${ws}/rmm/fleet/`, { Cookie: bad, Origin: t.url });
        expect([bad, err.status, err.body]).toEqual([bad, 401, JSON.stringify({ detail: 'Invalid token' })]);
      }
      // a key is not a cookie: any page (or none) may use one
      const byKey = await subscribe(ADMIN, '/rmm/fleet/', { Origin: 'http://evil.example' });
      await byKey.next('hello');
    });

    it('accepts the console at localhost and at 127.0.0.1 on the listening port while PUBLIC_URL is not set; with PUBLIC_URL, only its origin, and a refusal is logged at warn with the setting', async () => {
      // (The harness moves PUBLIC_URL's default to the port it listens on, as the default names PORT.)
      const localhost = t.url.replace('127.0.0.1', 'localhost');
      for (const origin of [t.url, localhost, t.url.replace('127.0.0.1', '[::1]')]) {
        const s = await byCookie('/rmm/fleet/', origin);
        expect([origin, (await s.next('hello')).event]).toEqual([origin, 'hello']);
      }
      const asked = await t.http.get('/api/v3/auth/origin').query({ origin: localhost }).set('Cookie', session);
      expect([asked.status, asked.body]).toEqual([200, { origin: localhost, allowed: true, reason: null, allowed_origins: expect.arrayContaining([t.url, localhost, LISTED_ORIGIN]) }]);
      for (const bad of ['null', 'localhost:3000', '']) {
        const res = await t.http.get('/api/v3/auth/origin').query({ origin: bad }).set('Cookie', session);
        expect([bad, res.status, res.body.errors]).toEqual([bad, 400, [{ field: 'origin', message: expect.stringContaining('must be an http:// or https:// origin') }]]);
      }
      const anonymous = await t.http.get('/api/v3/auth/origin').query({ origin: t.url });
      expect([anonymous.status, anonymous.body]).toEqual([401, { detail: 'Invalid token' }]);
      const runtime = t.server.runtime;
      const before = { publicUrl: runtime.publicUrl, publicUrlSet: runtime.publicUrlSet };
      try {
        // PUBLIC_URL=http://localhost:<port> given: the console at 127.0.0.1 is another page (the setting, set).
        Object.assign(runtime, { publicUrl: localhost, publicUrlSet: true });
        const logged = t.logs.length;
        for (let i = 0; i < 3; i++) {
          const err = await refusal(`${ws}/rmm/fleet/`, cookie(t.url));
          expect([err.status, err.body]).toEqual([403, JSON.stringify({ detail: 'Origin not allowed' })]);
        }
        expect((await (await byCookie('/rmm/fleet/', localhost)).next('hello')).event).toBe('hello');
        const warnings = t.logs.slice(logged).filter((l) => l.includes('upgrade refused'));
        // Once a minute per origin (a console retries every few seconds), at warn, naming the origin and the settings.
        expect(warnings).toHaveLength(1);
        expect(JSON.parse(warnings[0])).toMatchObject({
          level: 'warn',
          msg: expect.stringContaining(
            `live updates refused for the page origin "${t.url}": this server's console is at ${localhost}, ${LISTED_ORIGIN} (PUBLIC_URL names it); open the console at one of those, or set PUBLIC_URL=${t.url}`,
          ),
        });
        expect(warnings[0]).toContain(`add ${t.url} to RMM_CORS_ORIGINS`);
        expect(warnings[0]).not.toContain(session.split('=')[1]);
        // What the console asks when its socket could not open: the same sentence, for its own origin.
        const verdict = await t.http.get('/api/v3/auth/origin').query({ origin: t.url }).set('Cookie', session);
        expect([verdict.status, verdict.body]).toEqual([200, { origin: t.url, allowed: false, reason: expect.stringContaining(`set PUBLIC_URL=${t.url}`), allowed_origins: [localhost, LISTED_ORIGIN] }]);
        expect(JSON.parse(warnings[0]).msg).toContain(verdict.body.reason);
      } finally {
        Object.assign(runtime, before);
      }
    });

    it('limits the operator to their clients as a key is: 404 for an agent of another client, only their agents on the fleet', async () => {
      const agentA = await enroll(a, 'op-presence-a');
      const agentB = await enroll(b, 'op-presence-b');
      const err = await refusal(`${ws}/rmm/${agentB.agentId}/`, cookie(t.url));
      expect([err.status, err.body]).toEqual([404, JSON.stringify({ detail: 'Not found' })]);
      const fleet = await byCookie('/rmm/fleet/');
      const everything = await subscribe(ADMIN);
      await fleet.next('hello');
      await everything.next('hello');
      (await connectAgent(agentB)).ws.close();
      (await connectAgent(agentA)).ws.close();
      await everything.next('agent.offline');
      await everything.next('agent.offline');
      await fleet.next('agent.offline');
      expect(fleet.messages.map((m) => `${m.event} ${m.agent_id}`)).toEqual([`agent.online ${agentA.agentId}`]);
    });

    it("closes the operator's subscriptions when the session ends (4401 'session ended'): signed out, disabled, or found ended, expired or idle by the recheck", async () => {
      const admin = await createKey(t, ['admin']);
      const closedBy = async (end: () => Promise<unknown>, timeoutMs = 5_000): Promise<Array<{ code: number; reason: string }>> => {
        const subs = [await byCookie('/rmm/fleet/'), await byCookie('/rmm/fleet/')];
        for (const s of subs) await s.next('hello');
        await end();
        return Promise.all(subs.map((s) => s.whenClosed(timeoutMs)));
      };
      const ended = [{ code: 4401, reason: 'session ended' }, { code: 4401, reason: 'session ended' }];
      const byKey = await subscribe(ADMIN);
      await byKey.next('hello');

      // signed out (POST /api/v3/auth/logout): at once, on the bus's word
      expect(await closedBy(() => t.http.post('/api/v3/auth/logout').set('Cookie', session).set(CONSOLE).expect(204))).toEqual(ended);
      expect((await refusal(`${ws}/rmm/fleet/`, cookie(t.url))).status).toBe(401);
      // disabled: every session of the operator
      session = await signIn(t, (await sql<{ email: string }>(t.db.url, `SELECT email FROM operators WHERE id = $1`, [operatorId]))[0].email);
      expect(
        await closedBy(async () => {
          const res = await t.http.patch(`/api/v3/operators/${operatorId}/`).set('X-API-KEY', admin).send({ disabled: true });
          expect(res.status).toBe(200);
        }),
      ).toEqual(ended);
      await sql(t.db.url, `UPDATE operators SET disabled = false WHERE id = $1`, [operatorId]);
      // ended where this instance does not hear of it (another instance, the database): the recheck finds it
      const email = (await sql<{ email: string }>(t.db.url, `SELECT email FROM operators WHERE id = $1`, [operatorId]))[0].email;
      for (const change of [
        `DELETE FROM operator_sessions WHERE id = $1`,
        `UPDATE operator_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`,
        `UPDATE operator_sessions SET last_seen_at = now() - interval '61 minutes' WHERE id = $1`,
      ]) {
        session = await signIn(t, email);
        const id = await sessionIdOf();
        expect([change, await closedBy(() => sql(t.db.url, change, [id]), 8_000)]).toEqual([change, ended]);
      }
      expect(byKey.closed).toBeUndefined();
    });

    it('counts an operator once across their sessions (429 past the cap names the operator)', async () => {
      const other = await signIn(t, (await sql<{ email: string }>(t.db.url, `SELECT email FROM operators WHERE id = $1`, [operatorId]))[0].email);
      const half = MAX_SUBSCRIPTIONS_PER_KEY / 2;
      const subs = await Promise.all([
        ...Array.from({ length: half }, () => Subscriber.connect(`${ws}/rmm/fleet/`, { headers: cookie(t.url) })),
        ...Array.from({ length: MAX_SUBSCRIPTIONS_PER_KEY - half }, () => Subscriber.connect(`${ws}/rmm/fleet/`, { headers: { Cookie: other, Origin: t.url } })),
      ]);
      open.push(...subs);
      const err = await refusal(`${ws}/rmm/fleet/`, { Cookie: other, Origin: t.url });
      expect([err.status, JSON.parse(err.body!).detail]).toEqual([429, `too many open event subscriptions for this operator (at most ${MAX_SUBSCRIPTIONS_PER_KEY})`]);
    });
  });
});

describe('fleet events WebSocket at shutdown', () => {
  it('closes its subscribers with 1001 when the server stops', async () => {
    const t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    try {
      const s = await Subscriber.connect(`${t.url.replace(/^http/, 'ws')}/rmm/fleet/`, { headers: { 'X-API-KEY': ADMIN } });
      await s.next('hello');
      await t.close();
      expect(await s.whenClosed()).toEqual({ code: 1001, reason: 'server shutting down' });
    } finally {
      await t.close();
    }
  });
});
