import WebSocket from 'ws';
import { FixedClock } from '../../apps/api/src/common/clock';
import { AgentGateway } from '../../apps/api/src/rmm/fleet/agent-channel/agent-gateway';
import { AlertsService } from '../../apps/api/src/rmm/alerting/alerts/alerts.service';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const ADMIN = 'system-alerts-admin-key-0123456789';
const admin = { 'X-API-KEY': ADMIN };

/** Opens the agent channel with an agent's credentials; resolves once the server's hello arrived. */
function connect(url: string, agentId: string, secret: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/agent/v1/ws`, { headers: { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` } });
    ws.once('message', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Alerts the server opens and resolves by itself: one per subject, resolved by 'system'. */
describe('system alerts', () => {
  const clock = new FixedClock(new Date('2026-11-23T12:00:00Z'));
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  beforeAll(async () => {
    t = await startTestApp(
      { RMM_ADMIN_API_KEY: ADMIN, RMM_AGENT_HEARTBEAT_SECONDS: '20', RMM_AGENT_OFFLINE_AFTER_SECONDS: '60', RMM_AGENT_OVERDUE_AFTER_SECONDS: '600', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' },
      { clock },
    );
    tenant = await createTenant(t, 'Alerting Ltd', 'HQ');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an overdue agent opens one agent_overdue alert, resolved by system when the agent is back', async () => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'late-ws-01', plat: 'linux', version: '0.1.0' });
    const agentId: string = r.body.agent_id;
    const seen: string[] = [];
    const bus = t.server.app.get(RmmEvents);
    const offs = [
      bus.on('alert.created', (e) => seen.push(`created ${e.alert.alert_type} ${e.alert.agent}`)),
      bus.on('alert.resolved', (e) => seen.push(`resolved ${e.alert.alert_type} ${e.alert.agent} by ${e.alert.resolved_by}`)),
    ];
    const overdueAlerts = async (resolved: boolean) =>
      (await t.http.get(`/api/v3/alerts/?alert_type=agent_overdue&agent=${agentId}&resolved=${resolved}`).set(admin).expect(200)).body as Array<Record<string, unknown>>;
    try {
      const ws = await connect(t.url, agentId, r.body.agent_secret);
      const gateway = t.server.app.get(AgentGateway);
      clock.advance(61_000);
      await gateway.sweepSilent(); // offline: silent for a minute
      await until('the dead connection dropped', async () => ws.readyState === WebSocket.CLOSED);
      expect(await overdueAlerts(false)).toEqual([]); // offline is not overdue yet
      clock.advance(600_000);
      await gateway.sweepSilent();
      await gateway.sweepSilent(); // a second sweep changes nothing
      const open = await until('an agent_overdue alert', async () => {
        const list = await overdueAlerts(false);
        return list.length > 0 ? list : undefined;
      });
      expect(open).toHaveLength(1);
      expect(open[0]).toMatchObject({ alert_type: 'agent_overdue', agent: agentId, severity: 'error', resolved: false, check: null, task: null });
      expect(open[0].message).toContain('late-ws-01 is overdue');

      const back = await connect(t.url, agentId, r.body.agent_secret);
      const resolved = await until('the alert resolved', async () => {
        const list = await overdueAlerts(true);
        return list.length > 0 ? list : undefined;
      });
      expect(resolved).toEqual([expect.objectContaining({ id: open[0].id, resolved: true, resolved_by: 'system' })]);
      expect(await overdueAlerts(false)).toEqual([]);
      expect(seen).toEqual([`created agent_overdue ${agentId}`, `resolved agent_overdue ${agentId} by system`]);
      back.terminate();
    } finally {
      offs.forEach((off) => off());
    }
  });

  it('opens one alert per subject even when many raise it at once, and a new one once that is resolved', async () => {
    const agentId = await insertAgent(t, { hostname: 'busy-srv-01', clientId: tenant.clientId, siteId: tenant.siteId });
    const [check] = await sql(t.db.url, `INSERT INTO checks (agent_id, check_type, name, settings) VALUES ($1, 'cpuload', 'CPU', '{"threshold_percent": 90}') RETURNING id`, [agentId]);
    const alerts = t.server.app.get(AlertsService);
    const raise = () => alerts.raise({ alertType: 'check_failure', agentId, checkId: check.id as number, severity: 'error', message: 'CPU above 90 %' });
    const opened = await Promise.all(Array.from({ length: 25 }, raise));
    expect(opened.filter((a) => a !== null)).toHaveLength(1);
    const list = (await t.http.get(`/api/v3/alerts/?agent=${agentId}`).set(admin).expect(200)).body as Array<Record<string, unknown>>;
    expect(list).toEqual([expect.objectContaining({ alert_type: 'check_failure', check: check.id, severity: 'error', message: 'CPU above 90 %' })]);

    // Acknowledged by an operator: still open, still the only one.
    await t.http.post(`/api/v3/alerts/${list[0].id}/acknowledge/`).set(admin).expect(200);
    expect(await raise()).toBeNull();

    const [resolvedOnce, resolvedAgain] = await Promise.all([
      alerts.resolveBySystem({ alertType: 'check_failure', id: check.id as number }),
      alerts.resolveBySystem({ alertType: 'check_failure', id: check.id as number }),
    ]);
    expect(resolvedOnce.length + resolvedAgain.length).toBe(1);
    const next = await raise();
    expect(next).not.toBeNull();
    expect(next!.id).not.toBe(list[0].id);
  });
});
