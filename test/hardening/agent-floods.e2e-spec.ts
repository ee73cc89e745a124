import { CheckResults, TOO_MANY_RESULTS } from '../../apps/api/src/rmm/automation/checks/check-results';
import { FakeAgent } from '../utils/fake-agent';
import { Receiver, startReceiver } from '../utils/notify-receiver';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { sleep, until } from '../utils/wait';

jest.setTimeout(180_000);

const ADMIN = 'agent-floods-admin-key-0123456789abcdef';
const admin = { 'X-API-KEY': ADMIN };

/**
 * Issue 30, finding N2, as the probe did it from an enrolled agent: one agent's flips of its own check, and its
 * reconnect loop, against a webhook channel on 127.0.0.1. What one agent can cost is bounded: its check's results
 * at most once per max(run_interval / 2, 5 s), 100 drops a minute close it (1008), at most
 * RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR (60) deliveries per channel and one summary, and no presence notification for an
 * offline shorter than RMM_NOTIFY_OFFLINE_GRACE_SECONDS. (The flapping rule, with a fixed clock:
 * test/medium/rmm/agent-floods.medium-spec.ts.)
 */
describe('N2: one agent cannot flood every channel', () => {
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  let receiver: Receiver;
  let hosts = 0;

  beforeAll(async () => {
    // Grace 3 s, a sweep every 2 s (heartbeat 2): the reconnect loop below is measured against a short grace.
    t = await startTestApp({
      RMM_ADMIN_API_KEY: ADMIN,
      RMM_NOTIFY_ALLOW_PRIVATE: 'true',
      RMM_RATE_LIMIT_PER_MINUTE: '100000',
      RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
      RMM_REGISTER_RATE_LIMIT_PER_MINUTE: '1000',
      RMM_AGENT_HEARTBEAT_SECONDS: '2',
      RMM_AGENT_OFFLINE_AFTER_SECONDS: '30',
      RMM_NOTIFY_OFFLINE_GRACE_SECONDS: '3',
    });
    tenant = await createTenant(t, 'Floods Ltd', 'HQ');
    receiver = await startReceiver();
    const channel = await t.http
      .post('/api/v3/notifications/')
      .set(admin)
      .send({ name: 'pager', type: 'webhook', url: `${receiver.url}/hook`, min_severity: 'info', events: ['alert.created', 'alert.resolved', 'agent.offline', 'agent.online'] });
    expect(channel.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const enroll = async (): Promise<{ agentId: string; secret: string }> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: `flood-${++hosts}`, plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    return { agentId: r.body.agent_id, secret: r.body.agent_secret };
  };
  const connect = async (a: { agentId: string; secret: string }): Promise<FakeAgent> => {
    const agent = await FakeAgent.connect(t.url, a.agentId, a.secret);
    await agent.next('hello');
    return agent;
  };
  /** What the receiver was sent about this agent: the events, in order. */
  const posts = (agentId: string): string[] =>
    receiver.received.map((r) => JSON.parse(r.body) as { event: string; agent: { id: string } }).filter((b) => b.agent?.id === agentId).map((b) => b.event);

  it('N2: 1,000 flips of a fails_b4_alert: 1 check in 10 s: a result per 5 s is taken, the agent is closed 1008 past 100 drops a minute, and the channel gets at most 61 posts of it in the next 30 s', async () => {
    const creds = await enroll();
    const check = await t.http.post('/api/v3/checks/').set(admin).send({ agent: creds.agentId, check_type: 'memory', settings: { threshold_percent: 90 }, fails_b4_alert: 1, run_interval: 10 });
    expect(check.status).toBe(201);
    let agent = await connect(creds);
    await agent.given(check.body.id);
    const closes: Array<{ code: number; reason: string }> = [];
    const started = Date.now();
    for (let i = 0; i < 1_000; i++) {
      // the probe's agent: on a close it reconnects and goes on
      if (agent.closed) {
        closes.push(agent.closed);
        agent = await connect(creds);
        await agent.given(check.body.id);
      }
      agent.send({ type: 'check.result', checkId: check.body.id, status: i % 2 === 0 ? 'failing' : 'passing', moreInfo: `flip ${i}` });
      // 1,000 in 10 s: 100 a second, within RMM_AGENT_MAX_MESSAGES_PER_SECOND (the flood is of results, not messages)
      if (i % 10 === 9) await sleep(Math.max(0, started + ((i + 1) / 1_000) * 10_000 - Date.now()));
    }
    const flooded = Date.now() - started;
    if (agent.closed) closes.push(agent.closed);
    agent.ws.terminate();

    // closed (not only dropped) once drops passed 100 in a minute, with the reason
    expect(closes.length).toBeGreaterThan(0);
    expect(closes[0]).toEqual({ code: 1008, reason: TOO_MANY_RESULTS });
    // the notifications of the following 30 s
    await sleep(30_000);
    const sent = posts(creds.agentId);
    const stored = (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int n FROM check_results WHERE check_id = $1`, [check.body.id]))[0].n;
    const alerts = (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int n FROM alerts WHERE check_id = $1`, [check.body.id]))[0].n;
    process.stdout.write(`N2 probe: 1000 flips in ${flooded} ms, ${closes.length} closes, ${stored} results stored, ${alerts} alerts, ${sent.length} posts (${[...new Set(sent)].join(', ')})\n`);
    expect(sent.length).toBeLessThanOrEqual(61);
    // a result per 5 s of the check (spacing max(10 / 2, 5) s): ~3 in 10 s, where the probe stored 1,000 and opened 500 alerts
    expect(stored).toBeGreaterThanOrEqual(1);
    expect(stored).toBeLessThanOrEqual(Math.ceil(flooded / 5_000) + 1);
    expect(alerts).toBeLessThanOrEqual(Math.ceil(stored / 2));
    // the drops are counted for the agent (agents.check_results_dropped, written every 10 s)
    await t.server.app.get(CheckResults).flushDrops();
    const [{ dropped }] = await sql<{ dropped: string }>(t.db.url, `SELECT check_results_dropped::text AS dropped FROM agents WHERE id = $1`, [creds.agentId]);
    expect(Number(dropped)).toBeGreaterThan(100);
    expect((await t.http.get(`/api/v3/agents/${creds.agentId}/`).set(admin)).body.check_results_dropped).toBe(Number(dropped));
  });

  it('N2: reconnecting in a loop, each offline shorter than RMM_NOTIFY_OFFLINE_GRACE_SECONDS, notifies nothing; an offline past it pages once and its return follows', async () => {
    const creds = await enroll();
    let agent = await connect(creds);
    const until10s = Date.now() + 10_000;
    let loops = 0;
    while (Date.now() < until10s) {
      agent.ws.close();
      await agent.whenClosed();
      agent = await connect(creds);
      loops++;
    }
    // two sweeps past the grace with the agent connected: nothing about it was sent
    await sleep(3_000 + 2 * 2_000 + 500);
    expect(loops).toBeGreaterThan(10);
    expect(posts(creds.agentId)).toEqual([]);
    // now it stays away past the grace: one agent.offline, then its return
    agent.ws.close();
    await agent.whenClosed();
    await until('the page', async () => posts(creds.agentId).length > 0, 20_000);
    agent = await connect(creds);
    await until('the all-clear', async () => posts(creds.agentId).length > 1, 20_000);
    agent.ws.terminate();
    await sleep(1_000);
    expect(posts(creds.agentId)).toEqual(['agent.offline', 'agent.online']);
    process.stdout.write(`N2 reconnect loop: ${loops} reconnects in 10 s, posts ${JSON.stringify(posts(creds.agentId))}\n`);
  });

  it('N2: one agent past 60 notifications an hour: 60 posts per channel, the rest one pending notifications.suppressed due at the end of the hour', async () => {
    const creds = await enroll();
    const agent = await connect(creds);
    const checks: number[] = [];
    for (let i = 0; i < 70; i++) {
      const c = await t.http.post('/api/v3/checks/').set(admin).send({ agent: creds.agentId, check_type: 'memory', name: `mem ${i}`, settings: { threshold_percent: 90 }, fails_b4_alert: 1 });
      expect(c.status).toBe(201);
      checks.push(c.body.id);
    }
    await agent.given(checks[69]);
    // each check fails once, at its own pace: 70 alerts, 70 alert.created
    for (const id of checks) agent.send({ type: 'check.result', checkId: id, status: 'failing', moreInfo: 'memory 97 %' });
    await until('70 alerts', async () => (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int n FROM alerts WHERE agent_id = $1`, [creds.agentId]))[0].n === 70, 30_000);
    await until('60 posts', async () => posts(creds.agentId).length >= 60, 30_000);
    await sleep(2_000);
    agent.ws.terminate();
    expect(posts(creds.agentId)).toEqual(Array.from({ length: 60 }, () => 'alert.created'));
    const channelId = (await t.http.get('/api/v3/notifications/').set(admin)).body[0].id;
    const listed = (await t.http.get(`/api/v3/notifications/${channelId}/deliveries/?limit=1000`).set(admin)).body as Array<{ event: string; status: string; next_attempt_at: string }>;
    const summaries = listed.filter((d) => d.event === 'notifications.suppressed');
    const [{ until: end }] = await sql<{ until: Date }>(t.db.url, `SELECT date_trunc('hour', now()) + interval '1 hour' AS until`);
    expect(summaries).toEqual([expect.objectContaining({ status: 'pending', next_attempt_at: end.toISOString() })]);
    const [row] = await sql<{ payload: { suppressed: unknown } }>(t.db.url, `SELECT payload FROM notification_deliveries WHERE event = 'notifications.suppressed' AND payload->'agent'->>'id' = $1`, [creds.agentId]);
    expect(row.payload.suppressed).toMatchObject({ count: 10, events: ['alert.created'], limit: 60 });
  });
});
