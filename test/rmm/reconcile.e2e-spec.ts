import { RedisPubSub } from '../../apps/api/src/common/redis/redis-pubsub';
import { AgentGateway } from '../../apps/api/src/rmm/fleet/agent-channel/agent-gateway';
import { AvailabilityAlerts } from '../../apps/api/src/rmm/fleet/presence/availability-alerts';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { FakeAgent } from '../utils/fake-agent';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Once-only effects never ride the bus (issue 19): the instance that sees a change opens or resolves agent_overdue
 * and sends the check list at connect itself, so they happen even when no event comes back through Redis; and
 * every RMM_RECONCILE_SECONDS (1 s here) each instance repairs what was missed all the same: an overdue agent
 * without its alert, an alert whose agent is back, a connected agent whose check list changed without it being
 * told. Alert acknowledge/resolve are decided by one UPDATE: acknowledging a resolved alert changes nothing.
 */
const ADMIN = 'reconcile-admin-key-0123456789abcdef';
const admin = { 'X-API-KEY': ADMIN };
const redisUrl = process.env.REDIS_URL;

describe('once-only effects and the reconcile', () => {
  let t: TestApp;
  if (!redisUrl) console.log('skipped: the test that drops the Redis echo needs REDIS_URL (e.g. redis://127.0.0.1:6379); the reconcile tests run without it');

  beforeAll(async () => {
    t = await startTestApp({
      RMM_ADMIN_API_KEY: ADMIN,
      RMM_RECONCILE_SECONDS: '1',
      RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_PREFIX: `test-reconcile-${process.pid}-${Date.now()}:` } : {}),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const enroll = async (hostname: string): Promise<{ agentId: string; secret: string }> => {
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    expect(d.status).toBe(201);
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname, plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    return { agentId: r.body.agent_id as string, secret: r.body.agent_secret as string };
  };
  const overdueAlerts = async (agentId: string, resolved: boolean): Promise<Array<Record<string, any>>> =>
    (await t.http.get(`/api/v3/alerts/?alert_type=agent_overdue&agent=${agentId}&resolved=${resolved}`).set(admin).expect(200)).body;
  const status = async (agentId: string): Promise<string> => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin).expect(200)).body.status;

  (redisUrl ? it : it.skip)('with the Redis echo dropped, the agent still gets its checks at connect and agent_overdue still opens and resolves', async () => {
    // This instance no longer hears its own events back from Redis (nor anyone's).
    const bus = t.server.app.get(RedisPubSub);
    await bus.unsubscribe(bus.key('events'));
    const heard: string[] = [];
    const events = t.server.app.get(RmmEvents);
    const offs = (['agent.online', 'agent.offline', 'agent.overdue', 'alert.created', 'alert.resolved'] as const).map((e) => events.on(e, () => heard.push(e)));
    try {
      const { agentId, secret } = await enroll('echo-less-01');
      const check = await t.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, check_type: 'diskspace', settings: { drive: '/', threshold_percent: 1 } });
      expect(check.status).toBe(201);

      const agent = await FakeAgent.connect(t.url, agentId, secret);
      await agent.next('hello');
      await agent.given(check.body.id);
      agent.ws.close();
      await until('the agent offline', async () => (await status(agentId)) === 'offline');

      await sql(t.db.url, `UPDATE agents SET last_seen = now() - interval '2 days' WHERE id = $1`, [Number(agentId)]);
      expect((await t.server.app.get(AgentGateway).sweepSilent()).overdue).toEqual([Number(agentId)]);
      const open = await until('agent_overdue opened', async () => {
        const list = await overdueAlerts(agentId, false);
        return list.length > 0 ? list : undefined;
      });
      expect(open).toEqual([expect.objectContaining({ alert_type: 'agent_overdue', agent: agentId, severity: 'error', resolved: false })]);
      expect(open[0].message).toMatch(/^agent echo-less-01 is overdue: not heard from since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const back = await FakeAgent.connect(t.url, agentId, secret);
      await back.next('hello');
      const resolved = await until('agent_overdue resolved', async () => {
        const list = await overdueAlerts(agentId, true);
        return list.length > 0 ? list : undefined;
      });
      expect(resolved).toEqual([expect.objectContaining({ id: open[0].id, resolved: true, resolved_by: 'system' })]);
      await back.given(check.body.id);
      back.ws.close();
      expect(heard).toEqual([]); // nothing came back through the bus: the effects above did not wait for it
    } finally {
      for (const off of offs) off();
    }
  });

  it('the reconcile sends a connected agent a check list that changed without it being told, within a period', async () => {
    const { agentId, secret } = await enroll('reconciled-checks-01');
    const agent = await FakeAgent.connect(t.url, agentId, secret);
    await agent.next('hello');
    expect((await agent.next('checks.sync')).checks).toEqual([]);
    // A check written behind the server's back (as if its checks.sync had been lost on the way to this instance).
    const [row] = await sql<{ id: number }>(
      t.db.url,
      `INSERT INTO checks (agent_id, check_type, name, settings, run_interval) VALUES ($1, 'diskspace', 'written behind', '{"drive":"/","threshold_percent":10}', 60) RETURNING id`,
      [Number(agentId)],
    );
    await agent.given(row.id, 15_000);
    const synced = agent.messages.filter((m) => m.type === 'checks.sync');
    expect(synced[synced.length - 1].checks).toEqual([expect.objectContaining({ id: row.id, checkType: 'diskspace', name: 'written behind', runInterval: 60 })]);
    agent.ws.close();
  });

  it('the reconcile opens agent_overdue for an overdue agent that has none, once whatever the concurrency, and resolves it once the agent is online', async () => {
    const { agentId } = await enroll('reconciled-overdue-01');
    // As if the instance that turned it overdue died before opening the alert.
    await sql(t.db.url, `UPDATE agents SET status = 'overdue', last_seen = now() - interval '2 days' WHERE id = $1`, [Number(agentId)]);
    const reconciler = t.server.app.get(AvailabilityAlerts);
    await Promise.all([reconciler.reconcile(), reconciler.reconcile(), reconciler.reconcile()]);
    const open = await until('agent_overdue opened by the reconcile', async () => {
      const list = await overdueAlerts(agentId, false);
      return list.length > 0 ? list : undefined;
    });
    expect(open).toHaveLength(1);
    await until('a period later, still one', async () => (await overdueAlerts(agentId, false)).length === 1 && (await sql(t.db.url, `SELECT 1 FROM alerts WHERE agent_id = $1`, [Number(agentId)])).length === 1);

    // As if it came back and the resolve was lost.
    await sql(t.db.url, `UPDATE agents SET status = 'online' WHERE id = $1`, [Number(agentId)]);
    const resolved = await until('agent_overdue resolved by the reconcile', async () => {
      const list = await overdueAlerts(agentId, true);
      return list.length > 0 ? list : undefined;
    }, 15_000);
    expect(resolved).toEqual([expect.objectContaining({ id: open[0].id, resolved: true, resolved_by: 'system' })]);
    expect(await overdueAlerts(agentId, false)).toEqual([]);

    // Acknowledging the resolved alert changes nothing: 200 with the alert as it was, and no alert.acknowledged.
    const acknowledged: number[] = [];
    const off = t.server.app.get(RmmEvents).on('alert.acknowledged', (e) => acknowledged.push(e.alert.id));
    try {
      const before = (await t.http.get(`/api/v3/alerts/${open[0].id}/`).set(admin).expect(200)).body;
      const ack = await t.http.post(`/api/v3/alerts/${open[0].id}/acknowledge/`).set(admin);
      expect(ack.status).toBe(200);
      expect(ack.body).toEqual(before);
      expect(ack.body).toMatchObject({ resolved: true, acknowledged: false, acknowledged_at: null, acknowledged_by: null });
      // resolving it again: the same, unchanged
      const again = await t.http.post(`/api/v3/alerts/${open[0].id}/resolve/`).set(admin);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(before);
      expect(acknowledged).toEqual([]);
    } finally {
      off();
    }
  });
});
