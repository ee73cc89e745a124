import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentUpdatesService } from '../../apps/api/src/rmm/fleet/agent-updates/agent-updates.service';
import { FakeAgent } from '../utils/fake-agent';
import { Receiver, startReceiver } from '../utils/notify-receiver';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Issue 30, point 9 (U1, the server's side): "nothing stops a rollout whose updates keep failing". More than
 * RMM_AGENT_UPDATE_HALT_FAILURES (5) failed updates to a version within an hour halt its rollout: offered to no
 * agent, an agent_update_halted alert open and notified, GET /api/v3/agents/updates/ halted with the reason; an
 * admin's POST /api/v3/agents/updates/resume/ resumes it (the alert resolved, the call audited). The failures are
 * reported as agents report them: `update.failed` on their channel.
 */
const ADMIN = 'update-halts-e2e-admin-key-0123456789';
const NEW = '0.4.1';
const OLD = '0.4.0';
const admin = { 'X-API-KEY': ADMIN };

describe('U1/point 9: a rollout whose updates keep failing halts, and an admin resumes it', () => {
  let t: TestApp;
  let binDir: string;
  let receiver: Receiver;
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    binDir = mkdtempSync(join(tmpdir(), 'rmm-update-halts-'));
    const binary = randomBytes(64 * 1024);
    writeFileSync(join(binDir, 'rmm-agent-linux-amd64'), binary, { mode: 0o755 });
    const sha256 = createHash('sha256').update(binary).digest('hex');
    writeFileSync(join(binDir, 'manifest.json'), JSON.stringify({ version: NEW, bun: 'stand-in', targets: { 'linux-amd64': { file: 'rmm-agent-linux-amd64', size: binary.length, sha256 } } }));
    receiver = await startReceiver();
    t = await startTestApp({
      RMM_ADMIN_API_KEY: ADMIN,
      RMM_AGENT_VERSION: NEW,
      RMM_AGENT_BIN_DIR: binDir,
      RMM_AGENT_UPDATE_CONCURRENCY: '20',
      RMM_NOTIFY_ALLOW_PRIVATE: 'true',
      RMM_RATE_LIMIT_PER_MINUTE: '1000000',
      RMM_REGISTER_RATE_LIMIT_PER_MINUTE: '1000000',
      RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000000',
    });
  });
  afterAll(async () => {
    for (const a of open.splice(0)) a.ws.terminate();
    await t?.close();
    await receiver?.close();
    rmSync(binDir, { recursive: true, force: true });
  });

  const enroll = async (clientId: number, siteId: number, n: number, prefix: string): Promise<Array<{ agentId: string; secret: string }>> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: clientId, site: siteId });
    expect(d.status).toBe(201);
    const out: Array<{ agentId: string; secret: string }> = [];
    for (let i = 0; i < n; i++) {
      const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: `${prefix}-${i}`, plat: 'linux', version: OLD });
      expect(r.status).toBe(200);
      out.push({ agentId: r.body.agent_id, secret: r.body.agent_secret });
    }
    return out;
  };
  const connectOld = async (a: { agentId: string; secret: string }): Promise<FakeAgent> => {
    const ws = await FakeAgent.connect(t.url, a.agentId, a.secret);
    open.push(ws);
    await ws.next('hello');
    ws.send({ type: 'heartbeat', facts: { hostname: 'halting', plat: 'linux', version: OLD, update_target: 'linux-amd64' } });
    return ws;
  };
  const rollout = async (): Promise<Record<string, any>> => (await t.http.get('/api/v3/agents/updates/').set(admin).expect(200)).body;

  it('the sixth failure within the hour halts it (alert open and notified, nothing offered); resume offers it again', async () => {
    const tenant = await createTenant(t, 'Halting Co');
    const channel = await t.http
      .post('/api/v3/notifications/')
      .set(admin)
      .send({ name: 'halts', type: 'webhook', url: `${receiver.url}/hook`, min_severity: 'warning', events: ['alert.created', 'alert.resolved'] });
    expect(channel.status).toBe(201);
    const agents = await enroll(tenant.clientId, tenant.siteId, 7, 'halting');
    const updates = t.server.app.get(AgentUpdatesService);

    // Five agents refuse (or roll back) the new version: five failures are not more than five, the rollout goes on.
    for (const a of agents.slice(0, 5)) {
      const ws = await connectOld(a);
      await ws.next('update.available');
      ws.send({ type: 'update.failed', version: NEW, error: `${NEW} did not connect within 120 s` });
    }
    await until('five failures counted', async () => (await rollout()).updates.failed === 5);
    expect(await rollout()).toMatchObject({ halted: false, halted_reason: null, halted_at: null });

    // The sixth failure: halted.
    const sixth = await connectOld(agents[5]);
    await sixth.next('update.available');
    sixth.send({ type: 'update.failed', version: NEW, error: 'crashed at start-up: missing library' });
    const halted = await until('the rollout halted', async () => {
      const r = await rollout();
      return r.halted ? r : undefined;
    });
    expect(halted.halted_reason).toContain(`6 updates to ${NEW} failed within an hour`);
    expect(halted.halted_reason).toContain('crashed at start-up: missing library');
    expect(typeof halted.halted_at).toBe('string');

    const alerts = (await t.http.get('/api/v3/alerts/?alert_type=agent_update_halted').set(admin).expect(200)).body;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ alert_type: 'agent_update_halted', agent: agents[5].agentId, severity: 'error', resolved: false });
    expect(alerts[0].message).toContain(`rollout of agent version ${NEW} halted`);
    // notified through the notification rules, as every alert
    await until('the halt notified', async () => receiver.received.some((r) => r.body.includes('agent_update_halted') && r.body.includes('"alert.created"')), 15_000);

    // No version is offered while halted: a seventh outdated agent waits.
    const seventh = await connectOld(agents[6]);
    await until('its update pending', async () => (await rollout()).updates.pending >= 1);
    await updates.settled();
    await updates.settled();
    expect(seventh.messages.some((m) => m.type === 'update.available')).toBe(false);

    // Resume needs admin: agents:write alone is 403, and nothing changes.
    const writer = await createKey(t, ['agents:read', 'agents:write']);
    const refused = await t.http.post('/api/v3/agents/updates/resume/').set('X-API-KEY', writer);
    expect(refused.status).toBe(403);
    expect((await rollout()).halted).toBe(true);

    const resumed = await t.http.post('/api/v3/agents/updates/resume/').set(admin);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ version: NEW, halted: false, halted_reason: null });
    // offered again
    expect(await seventh.next('update.available', 15_000)).toMatchObject({ version: NEW });
    // the alert resolved by the caller, and the resume in the audit log
    const alert = (await t.http.get(`/api/v3/alerts/${alerts[0].id}/`).set(admin).expect(200)).body;
    expect(alert).toMatchObject({ resolved: true });
    expect(alert.resolved_by).toBeTruthy();
    await until('the resume audited', async () => {
      const audit = (await t.http.get('/api/v3/audit/?path=/api/v3/agents/updates/resume').set(admin).expect(200)).body as Array<Record<string, any>>;
      return audit.some((e) => e.action === 'POST /api/v3/agents/updates/resume/' && e.status === 200 && e.actor_kind === 'api_key');
    });

    // A seventh failure right after the resume does not halt it again at once: the count starts at the resume.
    seventh.send({ type: 'update.failed', version: NEW, error: 'refused again' });
    await until('seven failures counted', async () => (await rollout()).updates.failed === 7);
    expect((await rollout()).halted).toBe(false);
  }, 120_000);
});
