import { FixedClock } from '../../apps/api/src/common/clock';
import { AuditService } from '../../apps/api/src/rmm/access/audit/audit.service';
import { FakeAgent } from '../utils/fake-agent';
import { createOperator, CONSOLE, signIn } from '../utils/operators';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

const ADMIN = 'reenroll-takeover-admin-key-0123456789';
/** The hex SHA-256 of the device's machine id, as the real agent sends it: any local user can compute it. */
const MACHINE = 'c3'.repeat(32);
const CONFLICT = { detail: 'hostname already enrolled by another device' };
const NOT_FOUND = { detail: 'Not found' };
const DAY_MS = 24 * 3_600_000;

/**
 * Issue #30, finding N1: re-enrollment of an enrolled hostname needs the agent's current secret (its state file,
 * readable only by root or the service account), never the hardware id, which any local user can read. The probe:
 * user `nobody` with a deployment token of the same client and the machine's hardware id took the agent over.
 * Now that is 409 and an enrollment_conflict alert; an operator's POST /api/v3/agents/{id}/reenroll/ allows one
 * takeover within 24 h.
 */
describe('N1: re-enrollment needs what only root has', () => {
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  let other: { clientId: number; siteId: number };
  const clock = new FixedClock(new Date());
  const admin = { 'X-API-KEY': ADMIN };
  const agents: FakeAgent[] = [];

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' }, { clock });
    tenant = await createTenant(t, 'Takeover Ltd', 'HQ');
    other = await createTenant(t, 'Elsewhere Ltd', 'HQ');
  });
  afterEach(() => {
    for (const a of agents.splice(0)) a.ws.terminate();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A deployment token of the tenant: what an installer carries, and what reaches end users by design. */
  const token = async (): Promise<string> => {
    const res = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    expect(res.status).toBe(201);
    return res.body.uuid as string;
  };
  const register = async (hostname: string, extra: Record<string, unknown> = {}) =>
    t.http.post('/agent/v1/register').set('Authorization', `Bearer ${await token()}`).send({ hostname, plat: 'linux', version: '0.1.0', ...extra });
  /** The real (root) agent: registered with the machine's hardware id, connected and online. */
  const realAgent = async (hostname: string): Promise<{ agentId: string; secret: string; channel: FakeAgent }> => {
    const res = await register(hostname, { hardware_id: MACHINE });
    expect([res.status, res.body.reenrolled]).toEqual([200, false]);
    const channel = await FakeAgent.connect(t.url, res.body.agent_id, res.body.agent_secret);
    agents.push(channel);
    await channel.next('hello');
    return { agentId: res.body.agent_id, secret: res.body.agent_secret, channel };
  };
  const detail = async (agentId: string) => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body as Record<string, unknown>;
  const conflictAlerts = async (agentId: string, resolved = false) => {
    const res = await t.http.get('/api/v3/alerts/').query({ agent: agentId, alert_type: 'enrollment_conflict', resolved }).set(admin);
    expect(res.status).toBe(200);
    return res.body as Array<Record<string, unknown>>;
  };
  const secretHash = async (agentId: string): Promise<string> =>
    (await sql<{ secret_hash: string }>(t.db.url, `SELECT secret_hash FROM agents WHERE id = $1`, [Number(agentId)]))[0].secret_hash;
  const allow = (agentId: string, headers: Record<string, string> = admin) => t.http.post(`/api/v3/agents/${agentId}/reenroll/`).set(headers);
  /** A runscript to the agent, answered by whoever holds its connection. */
  const runscript = async (agentId: string, channel: FakeAgent) => {
    const script = await t.http.post('/api/v3/scripts/').set(admin).send({ name: `who-${Math.random()}`, shell: 'bash', body: 'echo "$1"' });
    expect(script.status).toBe(201);
    const call = t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script: script.body.id, args: ['the password'], timeout: 20 }).then((r) => r);
    const command = await channel.next('script.run');
    channel.send({ type: 'result', id: command.id, ok: true, result: { retcode: 0, stdout: 'from the real agent\n', stderr: '', executionTime: 0.1, timedOut: false } });
    return call;
  };

  it("N1: a local user's registration with the device's hardware id and a token of the same client, without the secret, is 409; the real agent stays online and answers; one enrollment_conflict alert names both", async () => {
    const real = await realAgent('victim-ws-01');
    const before = await secretHash(real.agentId);

    // the probe, three times: same hostname, a deployment token of the same client, the same hardware id, no secret
    for (let i = 0; i < 3; i++) {
      const res = await register('victim-ws-01', { hardware_id: MACHINE });
      expect([res.status, res.body]).toEqual([409, CONFLICT]);
      expect(JSON.stringify(res.body)).not.toContain('agt_');
    }
    // a device sending another hardware id, or none, is refused the same way
    expect(await register('victim-ws-01', { hardware_id: 'd4'.repeat(32) })).toMatchObject({ status: 409, body: CONFLICT });
    expect(await register('victim-ws-01')).toMatchObject({ status: 409, body: CONFLICT });

    // the real agent keeps its secret, its connection and its commands
    expect(await secretHash(real.agentId)).toBe(before);
    expect(real.channel.closed).toBeUndefined();
    expect(await detail(real.agentId)).toMatchObject({ status: 'online' });
    const run = await runscript(real.agentId, real.channel);
    expect([run.status, run.body.stdout]).toEqual([200, 'from the real agent\n']);
    await expect(FakeAgent.connect(t.url, real.agentId, real.secret).then((a) => (agents.push(a), a.next('hello')))).resolves.toMatchObject({ type: 'hello' });

    // one open alert for all five attempts, naming the agent and the device: hostname, hardware id match, address
    const alerts = await conflictAlerts(real.agentId);
    expect(alerts).toEqual([expect.objectContaining({ alert_type: 'enrollment_conflict', agent: real.agentId, severity: 'warning', resolved: false })]);
    const message = String(alerts[0].message);
    expect(message).toContain('hostname already enrolled by another device');
    expect(message).toContain(`agent ${real.agentId} (victim-ws-01)`);
    expect(message).toContain('"victim-ws-01"');
    expect(message).toContain('sent the same hardware id');
    expect(message).toContain('127.0.0.1');
    expect(message).toContain(`POST /api/v3/agents/${real.agentId}/reenroll/`);
    expect(message).not.toMatch(/agt_|[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(await sql(t.db.url, `SELECT count(*)::int AS n FROM alerts WHERE alert_type = 'enrollment_conflict' AND agent_id = $1`, [Number(real.agentId)])).toEqual([{ n: 1 }]);
  });

  it('N1: after the operator allows it (POST …/reenroll/ → 200 {allowed_until}, audited), the next registration takes the agent over once: the old secret is refused, the alert resolved, a second takeover is 409 again', async () => {
    const real = await realAgent('reinstalled-ws-01');
    expect((await register('reinstalled-ws-01', { hardware_id: MACHINE })).status).toBe(409);

    const allowed = await allow(real.agentId);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toEqual({ allowed_until: new Date(clock.now().getTime() + DAY_MS).toISOString() });
    await t.server.app.get(AuditService).flush();
    const audit = await t.http.get('/api/v3/audit/').set(admin);
    expect(audit.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'POST /api/v3/agents/{agentId}/reenroll/', target: `/api/v3/agents/${real.agentId}/reenroll/`, status: 200 }),
      ]),
    );
    // allowing changes nothing yet: the agent keeps running and its alert stays open
    expect(real.channel.closed).toBeUndefined();
    expect(await conflictAlerts(real.agentId)).toHaveLength(1);

    // the reinstalled device (no state file: no secret) takes the id over
    const taken = await register('reinstalled-ws-01', { hardware_id: 'e5'.repeat(32) });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ agent_id: real.agentId, reenrolled: true });
    expect(taken.body.agent_secret).not.toBe(real.secret);
    expect(await real.channel.whenClosed()).toEqual({ code: 4001, reason: 'agent re-enrolled: this secret no longer works' });
    await expect(FakeAgent.connect(t.url, real.agentId, real.secret)).rejects.toMatchObject({ status: 401 });
    const fresh = await FakeAgent.connect(t.url, taken.body.agent_id, taken.body.agent_secret);
    agents.push(fresh);
    await fresh.next('hello');
    expect(await detail(real.agentId)).toMatchObject({ status: 'online' });
    // the conflict is over: resolved by the system, and the allowance used up
    expect(await conflictAlerts(real.agentId)).toEqual([]);
    expect(await conflictAlerts(real.agentId, true)).toEqual([expect.objectContaining({ resolved: true, resolved_by: 'system' })]);
    expect(await sql(t.db.url, `SELECT reenroll_allowed_until FROM agents WHERE id = $1`, [Number(real.agentId)])).toEqual([{ reenroll_allowed_until: null }]);

    // a second takeover without a new allowance: 409 again, and the new agent keeps its connection
    expect(await register('reinstalled-ws-01', { hardware_id: 'e5'.repeat(32) })).toMatchObject({ status: 409, body: CONFLICT });
    expect(await register('reinstalled-ws-01', { agent_id: real.agentId, agent_secret: real.secret })).toMatchObject({ status: 409, body: CONFLICT });
    expect(fresh.closed).toBeUndefined();
    expect(await conflictAlerts(real.agentId)).toHaveLength(1);
    // the new installation's own secret still re-enrolls it (a reinstall over it)
    const again = await register('reinstalled-ws-01', { agent_id: real.agentId, agent_secret: taken.body.agent_secret });
    expect(again.body).toMatchObject({ agent_id: real.agentId, reenrolled: true });
  });

  it('N1: an allowance lasts 24 h: a registration after that is 409 and the agent is untouched', async () => {
    const real = await realAgent('late-ws-01');
    const before = await secretHash(real.agentId);
    expect((await allow(real.agentId)).status).toBe(200);
    clock.advance(DAY_MS + 1);
    try {
      expect(await register('late-ws-01')).toMatchObject({ status: 409, body: CONFLICT });
      expect(await secretHash(real.agentId)).toBe(before);
      expect(real.channel.closed).toBeUndefined();
    } finally {
      clock.advance(-(DAY_MS + 1));
    }
  });

  it('N1: deleting the old agent instead frees the hostname (its conflict alert goes with it); the next registration is a new agent', async () => {
    const real = await realAgent('deleted-ws-01');
    expect((await register('deleted-ws-01', { hardware_id: MACHINE })).status).toBe(409);
    expect(await conflictAlerts(real.agentId)).toHaveLength(1);
    expect((await t.http.delete(`/api/v3/agents/${real.agentId}/`).set(admin)).status).toBe(204);
    expect(await sql(t.db.url, `SELECT id FROM alerts WHERE agent_id = $1`, [Number(real.agentId)])).toEqual([]);
    const next = await register('deleted-ws-01', { hardware_id: MACHINE });
    expect(next.status).toBe(200);
    expect(next.body.reenrolled).toBe(false);
    expect(next.body.agent_id).not.toBe(real.agentId);
  });

  it('N1: …/reenroll/ is 404 for a client-limited key or operator outside the agent\'s client and for an unknown or malformed id, 403 without agents:write; nothing is allowed', async () => {
    const real = await realAgent('guarded-ws-01');
    const elsewhereKey = { 'X-API-KEY': (await t.http.post('/api/v3/keys/').set(admin).send({ name: 'elsewhere-tech', scopes: ['agents:write', 'agents:read'], clients: [other.clientId] })).body.key as string };
    await createOperator(t, 'tech@elsewhere.example', 'technician', { clients: [other.clientId] });
    const elsewhereOperator = { Cookie: await signIn(t, 'tech@elsewhere.example'), ...CONSOLE };
    for (const headers of [elsewhereKey, elsewhereOperator]) {
      const res = await allow(real.agentId, headers);
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
    for (const id of ['999999', 'abc', '0x10', '9'.repeat(30)]) {
      const res = await t.http.post(`/api/v3/agents/${id}/reenroll/`).set(admin);
      expect([id, res.status, res.body]).toEqual([id, 404, NOT_FOUND]);
    }
    const reader = { 'X-API-KEY': await createKey(t, ['agents:read']) };
    expect(await allow(real.agentId, reader)).toMatchObject({ status: 403, body: { detail: 'permission denied' } });
    expect(await sql(t.db.url, `SELECT reenroll_allowed_until FROM agents WHERE id = $1`, [Number(real.agentId)])).toEqual([{ reenroll_allowed_until: null }]);
    expect(await register('guarded-ws-01', { hardware_id: MACHINE })).toMatchObject({ status: 409, body: CONFLICT });

    // a key limited to the agent's own client may
    const ownKey = { 'X-API-KEY': (await t.http.post('/api/v3/keys/').set(admin).send({ name: 'own-tech', scopes: ['agents:write'], clients: [tenant.clientId] })).body.key as string };
    expect((await allow(real.agentId, ownKey)).status).toBe(200);
  });
});
