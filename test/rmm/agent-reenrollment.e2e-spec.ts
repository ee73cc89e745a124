import WebSocket from 'ws';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

const ADMIN = 'reenrollment-admin-key-0123456789';
const HARDWARE_A = 'a1'.repeat(32);
const HARDWARE_B = 'b2'.repeat(32);
const CONFLICT = { detail: 'hostname already enrolled by another device' };

type Message = { type: string } & Record<string, unknown>;

/** The fields a 400 names, each once. */
const fields = (body: { errors?: Array<{ field: string }> }): string[] => [...new Set((body.errors ?? []).map((e) => e.field))];

/** One agent connection on /agent/v1/ws, recording what it receives and how it closed. */
class Channel {
  readonly messages: Message[] = [];
  closed?: { code: number; reason: string };

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(data.toString()) as Message));
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  static open(url: string, agentId: string, secret: string): Promise<Channel> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/agent/v1/ws`, { headers: { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` } });
      const c = new Channel(ws);
      ws.once('open', () => resolve(c));
      ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })));
      ws.once('error', reject);
    });
  }

  /** The first message of this type (bounded wait); fails if the connection closes first. */
  async next(type: string, timeoutMs = 5_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.messages.findIndex((m) => m.type === type);
      if (i >= 0) return this.messages.splice(i, 1)[0];
      if (this.closed) throw new Error(`closed (${this.closed.code} ${this.closed.reason}) before ${type}`);
      if (Date.now() > deadline) throw new Error(`no ${type} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async whenClosed(timeoutMs = 5_000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (!this.closed) throw new Error('still open');
    return this.closed;
  }
}

/**
 * Issue 18, findings 3 and 8: re-registering an enrolled hostname needs proof that it is the same device
 * (since issue #30, N1: its current secret only, the hardware id being readable by any local user);
 * registrations per deployment and downloads per link and address are limited, and a deployment may be limited
 * to a number of registrations.
 */
describe('re-enrollment proves the device; registration and download limits', () => {
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  const admin = { 'X-API-KEY': ADMIN };
  const channels: Channel[] = [];

  beforeAll(async () => {
    // RMM_REGISTER_RATE_LIMIT_PER_MINUTE and RMM_DOWNLOAD_RATE_LIMIT_PER_MINUTE keep their defaults (20, 30)
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' });
    tenant = await createTenant(t, 'Reenrollment Ltd', 'HQ');
  });
  afterEach(() => {
    for (const c of channels.splice(0)) c.ws.terminate();
  });
  afterAll(async () => {
    await t?.close();
  });

  const deployment = async (extra: Record<string, unknown> = {}): Promise<{ id: number; uuid: string; download_url: string; max_registrations: number | null; registrations: number }> => {
    const res = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId, ...extra });
    expect(res.status).toBe(201);
    return res.body;
  };
  const register = (token: string, hostname: string, extra: Record<string, unknown> = {}) =>
    t.http.post('/agent/v1/register').set('Authorization', `Bearer ${token}`).send({ hostname, plat: 'linux', version: '0.1.0', ...extra });
  const enrolled = async (hostname: string, extra: Record<string, unknown> = {}): Promise<{ agentId: string; secret: string }> => {
    const r = await register((await deployment()).uuid, hostname, extra);
    expect([r.status, r.body.reenrolled]).toEqual([200, false]);
    return { agentId: r.body.agent_id, secret: r.body.agent_secret };
  };
  const connect = async (agentId: string, secret: string): Promise<Channel> => {
    const c = await Channel.open(t.url, agentId, secret);
    channels.push(c);
    await c.next('hello');
    return c;
  };
  const secretHash = async (agentId: string): Promise<string> =>
    (await sql<{ secret_hash: string }>(t.db.url, `SELECT secret_hash FROM agents WHERE id = $1`, [Number(agentId)]))[0].secret_hash;
  const conflictAlerts = async (agentId: string) => {
    const res = await t.http.get('/api/v3/alerts/').query({ agent: agentId, alert_type: 'enrollment_conflict' }).set(admin);
    expect(res.status).toBe(200);
    return res.body as Array<Record<string, unknown>>;
  };

  describe('an enrolled hostname', () => {
    it('refuses another device (another deployment of the same client) with 409: agent id and secret unchanged, the real agent stays connected, one enrollment_conflict alert', async () => {
      const real = await enrolled('hijack-ws-01', { hardware_id: HARDWARE_A });
      const before = await secretHash(real.agentId);
      const channel = await connect(real.agentId, real.secret);

      const attacker = await deployment();
      const tries = [
        {}, // no proof at all
        { hardware_id: HARDWARE_B }, // another device's hardware id
        { hardware_id: HARDWARE_A }, // the device's own hardware id: any local user can read it (N1)
        { agent_id: real.agentId, agent_secret: 'agt_wrong-secret-0123456789abcdefghijklmnop' }, // the right id with a wrong secret
        { agent_id: String(Number(real.agentId) + 1000), agent_secret: real.secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) },
      ];
      for (const proof of tries) {
        const res = await register(attacker.uuid, 'hijack-ws-01', proof);
        // the same answer whatever was wrong: nothing else revealed
        expect([proof, res.status, res.body]).toEqual([proof, 409, CONFLICT]);
        expect(JSON.stringify(res.body)).not.toContain(real.agentId);
      }

      expect(await secretHash(real.agentId)).toBe(before);
      expect(await sql(t.db.url, `SELECT id FROM agents WHERE hostname = 'hijack-ws-01'`)).toEqual([{ id: Number(real.agentId) }]);
      // the real agent's connection is open and answering (a 4001 would have closed it)
      channel.ws.send(JSON.stringify({ type: 'nonsense' }));
      expect(await channel.next('error')).toMatchObject({ type: 'error' });
      expect(channel.closed).toBeUndefined();
      expect((await t.http.get(`/api/v3/agents/${real.agentId}/`).set(admin)).body.status).toBe('online');

      // one open alert however many attempts, naming the deployment and the caller's address, never the token or a secret
      const alerts = await conflictAlerts(real.agentId);
      expect(alerts).toEqual([expect.objectContaining({ alert_type: 'enrollment_conflict', agent: real.agentId, severity: 'warning', resolved: false })]);
      const message = String(alerts[0].message);
      expect(message).toContain('hostname already enrolled by another device');
      expect(message).toContain(`deployment ${attacker.id}`);
      expect(message).toContain('127.0.0.1');
      for (const secret of [attacker.uuid, real.secret]) expect(message).not.toContain(secret);
      // the deployment counted none of the refused attempts
      const listed = (await t.http.get('/api/v3/agents/deployments/').set(admin)).body as Array<{ id: number; registrations: number }>;
      expect(listed.find((d) => d.id === attacker.id)?.registrations).toBe(0);
    });

    it('is re-enrolled with its current secret: same id, new secret, the old connection closed 4001; the hardware id sent then is stored, as a fact', async () => {
      const first = await enrolled('secret-ws-01');
      const old = await connect(first.agentId, first.secret);
      expect(await register((await deployment()).uuid, 'secret-ws-01', { hardware_id: HARDWARE_A })).toMatchObject({ status: 409, body: CONFLICT });

      const again = await register((await deployment()).uuid, 'secret-ws-01', { agent_id: first.agentId, agent_secret: first.secret, hardware_id: HARDWARE_A });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ agent_id: first.agentId, reenrolled: true });
      expect(again.body.agent_secret).not.toBe(first.secret);
      expect(await old.whenClosed()).toEqual({ code: 4001, reason: 'agent re-enrolled: this secret no longer works' });
      await expect(Channel.open(t.url, first.agentId, first.secret)).rejects.toMatchObject({ status: 401 });
      const fresh = await connect(again.body.agent_id, again.body.agent_secret);
      expect(fresh.closed).toBeUndefined();

      // the old secret proves nothing any more, and the hardware id stored by that re-enrollment never does (N1)
      expect(await register((await deployment()).uuid, 'secret-ws-01', { agent_id: first.agentId, agent_secret: first.secret })).toMatchObject({ status: 409, body: CONFLICT });
      expect(await register((await deployment()).uuid, 'secret-ws-01', { hardware_id: HARDWARE_A })).toMatchObject({ status: 409, body: CONFLICT });
      expect(fresh.closed).toBeUndefined();
      const [row] = await sql<{ hardware_hash: string }>(t.db.url, `SELECT hardware_hash FROM agents WHERE id = $1`, [Number(first.agentId)]);
      // stored hashed, never as sent
      expect(row.hardware_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.hardware_hash).not.toBe(HARDWARE_A);
    });

    it('is not re-enrolled with the hardware id it registered with (N1: no state file left is a reinstall an operator allows): 409, the agent keeps its connection', async () => {
      const first = await enrolled('hardware-ws-01', { hardware_id: HARDWARE_B });
      const old = await connect(first.agentId, first.secret);
      const again = await register((await deployment()).uuid, 'hardware-ws-01', { hardware_id: HARDWARE_B.toUpperCase() });
      expect([again.status, again.body]).toEqual([409, CONFLICT]);
      expect(old.closed).toBeUndefined();
      expect(await conflictAlerts(first.agentId)).toEqual([expect.objectContaining({ message: expect.stringContaining('sent the same hardware id') })]);
      // the operator allows it: then the same registration takes the agent over
      expect((await t.http.post(`/api/v3/agents/${first.agentId}/reenroll/`).set(admin)).status).toBe(200);
      const allowed = await register((await deployment()).uuid, 'hardware-ws-01', { hardware_id: HARDWARE_B });
      expect(allowed.body).toMatchObject({ agent_id: first.agentId, reenrolled: true });
      expect(await old.whenClosed()).toEqual({ code: 4001, reason: 'agent re-enrolled: this secret no longer works' });
      expect(await conflictAlerts(first.agentId)).toEqual([]);
    });

    it('is freed when an operator deletes the old agent: the next registration creates a new agent id', async () => {
      const first = await enrolled('freed-ws-01', { hardware_id: HARDWARE_A });
      expect((await register((await deployment()).uuid, 'freed-ws-01')).status).toBe(409);
      expect((await t.http.delete(`/api/v3/agents/${first.agentId}/`).set(admin)).status).toBe(204);
      const next = await register((await deployment()).uuid, 'freed-ws-01', { hardware_id: HARDWARE_B });
      expect(next.status).toBe(200);
      expect(next.body.reenrolled).toBe(false);
      expect(next.body.agent_id).not.toBe(first.agentId);
    });

    it('takes agent_id and agent_secret together, and a hardware_id only as a hex SHA-256 (400 naming the field)', async () => {
      const d = await deployment();
      for (const [body, field] of [
        [{ agent_id: '1' }, 'agent_secret'],
        [{ agent_secret: 'agt_x' }, 'agent_id'],
        [{ agent_id: 'one', agent_secret: 'agt_x' }, 'agent_id'],
        [{ hardware_id: 'raw-machine-id' }, 'hardware_id'],
      ] as const) {
        const res = await register(d.uuid, 'bad-proof-ws-01', body);
        expect([body, res.status, res.body.detail, fields(res.body)]).toEqual([body, 400, 'validation error', [field]]);
        expect(JSON.stringify(res.body)).not.toContain('agt_x');
      }
    });
  });

  describe('registration limits', () => {
    it('answers 429 with Retry-After past RMM_REGISTER_RATE_LIMIT_PER_MINUTE (20) registrations a minute through one deployment, creating nothing', async () => {
      const d = await deployment();
      const answers = [];
      for (let i = 0; i < 20; i++) answers.push((await register(d.uuid, `burst-ws-${i}`)).status);
      expect(answers).toEqual(Array(20).fill(200));
      for (let i = 20; i < 25; i++) {
        const res = await register(d.uuid, `burst-ws-${i}`);
        expect([res.status, res.body]).toEqual([429, { detail: 'rate limited' }]);
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      expect(await sql(t.db.url, `SELECT count(*)::int AS n FROM agents WHERE hostname LIKE 'burst-ws-%'`)).toEqual([{ n: 20 }]);
      // another deployment has its own budget
      expect((await register((await deployment()).uuid, 'burst-ws-other')).status).toBe(200);
    });

    it('max_registrations 1 makes a one-time link: the second registration and later downloads answer 410 "deployment used up"', async () => {
      const d = await deployment({ max_registrations: 1 });
      expect(d).toMatchObject({ max_registrations: 1, registrations: 0 });
      expect((await deployment()).max_registrations).toBeNull();
      const first = await register(d.uuid, 'once-ws-01', { hardware_id: HARDWARE_A });
      expect(first.status).toBe(200);
      // another device, and the same device again (a re-enrollment counts too)
      for (const [hostname, proof] of [['once-ws-02', {}], ['once-ws-01', { agent_id: first.body.agent_id, agent_secret: first.body.agent_secret }]] as const) {
        const res = await register(d.uuid, hostname, proof);
        expect([hostname, res.status, res.body]).toEqual([hostname, 410, { detail: 'deployment used up: ask for a new installer' }]);
      }
      expect(await sql(t.db.url, `SELECT hostname FROM agents WHERE hostname LIKE 'once-ws-%'`)).toEqual([{ hostname: 'once-ws-01' }]);
      const dl = await t.http.get(new URL(d.download_url).pathname);
      expect([dl.status, dl.body]).toEqual([410, { detail: 'deployment used up' }]);
      const listed = (await t.http.get('/api/v3/agents/deployments/').set(admin)).body as Array<{ id: number }>;
      expect(listed.find((x) => x.id === d.id)).toMatchObject({ max_registrations: 1, registrations: 1 });
    });

    it('counts one registration when a one-time link is used by several devices at the same moment', async () => {
      const d = await deployment({ max_registrations: 1 });
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => register(d.uuid, `race-once-${i}`)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(7).fill(410)]);
      expect(await sql(t.db.url, `SELECT count(*)::int AS n FROM agents WHERE hostname LIKE 'race-once-%'`)).toEqual([{ n: 1 }]);
    });

    it('refuses a max_registrations that is not a positive integer (400 naming the field)', async () => {
      for (const max of [0, -1, 1.5, 'one']) {
        const res = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId, max_registrations: max });
        expect([max, res.status, fields(res.body)]).toEqual([max, 400, ['max_registrations']]);
      }
    });
  });

  it('answers a flood of downloads of a revoked link 429 past RMM_DOWNLOAD_RATE_LIMIT_PER_MINUTE (30) per link and address, writing no row for them', async () => {
    const d = await deployment();
    expect((await t.http.delete(`/api/v3/agents/deployments/${d.id}/`).set(admin)).status).toBe(204);
    const path = new URL(d.download_url).pathname;
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => t.http.get(path)));
      for (const res of batch) {
        statuses.push(res.status);
        if (res.status === 429) {
          expect(res.body).toEqual({ detail: 'rate limited' });
          expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        }
      }
    }
    expect(statuses.filter((s) => s === 410)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(70);
    expect(await sql(t.db.url, `SELECT count(*)::int AS n FROM deployment_downloads WHERE deployment_id = $1`, [d.id])).toEqual([{ n: 30 }]);
    // another link from the same address has its own budget
    const other = await deployment();
    expect((await t.http.get(`${new URL(other.download_url).pathname}?platform=linux`)).status).toBe(200);
  });
});
