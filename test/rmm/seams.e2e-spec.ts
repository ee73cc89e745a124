import { AgentConnection, LocalAgentChannel } from '../../apps/api/src/rmm/fleet/agent-channel/agent-channel';
import { RmmEventMap, RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

/** The inside seams seen from outside: one transaction per use case, the agent channel, the event bus. */
describe('transactions, the agent channel and the event bus, over HTTP', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await createKey(t, ['admin']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a client and its first site together or not at all: a blank site_name leaves no client behind', async () => {
    const refused = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).send({ name: 'Atomic Ltd', site_name: '   ' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ detail: 'validation error', errors: [{ field: 'site_name', message: 'must not be empty' }] });
    expect(await sql(t.db.url, `SELECT 1 FROM clients WHERE name = 'Atomic Ltd'`)).toEqual([]);
    const retried = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).send({ name: 'Atomic Ltd', site_name: 'HQ' });
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ name: 'Atomic Ltd', sites: [{ name: 'HQ' }] });
  });

  it("names site_name, not name, when the first site's name is too long, and creates nothing", async () => {
    const tooLong = await t.http.post('/api/v3/clients/').set('X-API-KEY', admin).send({ name: 'Long Site Ltd', site_name: 'x'.repeat(201) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ field: 'site_name', message: expect.stringContaining('200 characters') }]);
    expect(await sql(t.db.url, `SELECT 1 FROM clients WHERE name = 'Long Site Ltd'`)).toEqual([]);
  });

  describe('runscript through the AgentChannel', () => {
    let agentId: number;
    let scriptId: number;
    beforeAll(async () => {
      const { clientId, siteId } = await createTenant(t, 'Channel Co');
      agentId = await insertAgent(t, { hostname: 'channel-ws-01', clientId, siteId });
      const script = await t.http
        .post('/api/v3/scripts/')
        .set('X-API-KEY', admin)
        .send({ name: 'greet', shell: 'bash', body: 'echo "hello $1"', args: ['world'], default_timeout: 30 });
      expect(script.status).toBe(201);
      scriptId = script.body.id;
    });

    it('answers 409 {detail: agent is not connected} at once while the agent holds no channel', async () => {
      const res = await t.http.post(`/api/v3/agents/${agentId}/runscript/`).set('X-API-KEY', admin).send({ script: scriptId });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'agent is not connected' });
    });

    it('sends the script to a connected agent and answers 200 with what the agent reported', async () => {
      const channel = t.server.app.get(LocalAgentChannel);
      const received: Array<Record<string, unknown>> = [];
      const connection: AgentConnection = {
        send: (message) => {
          received.push(message);
          setTimeout(() => channel.deliver(agentId, message.id, { ok: true, result: { retcode: 3, stdout: 'hello there\n', stderr: 'warn\n', executionTime: 0.25, timedOut: false } }), 10);
        },
      };
      const detach = channel.attach(agentId, connection);
      try {
        const res = await t.http.post(`/api/v3/agents/${agentId}/runscript/`).set('X-API-KEY', admin).send({ script: scriptId, args: ['there'], timeout: 12 });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ id: expect.any(Number), execution_time: '0.250', retcode: 3, stdout: 'hello there\n', stderr: 'warn\n', timed_out: false });
        expect(received).toEqual([{ type: 'script.run', id: expect.any(String), runId: res.body.id, shell: 'bash', body: 'echo "hello $1"', args: ['there'], timeoutSeconds: 12 }]);
      } finally {
        detach();
      }
    });

    it('answers 502 {detail} when the agent goes away before it answers', async () => {
      const channel = t.server.app.get(LocalAgentChannel);
      let detach = (): void => undefined;
      detach = channel.attach(agentId, { send: () => setTimeout(() => detach(), 10) });
      const res = await t.http.post(`/api/v3/agents/${agentId}/runscript/`).set('X-API-KEY', admin).send({ script: scriptId });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ detail: 'agent disconnected' });
    });
  });

  describe('events', () => {
    const collect = <K extends keyof RmmEventMap>(name: K): { seen: RmmEventMap[K][]; off: () => void } => {
      const seen: RmmEventMap[K][] = [];
      const off = t.server.app.get(RmmEvents).on(name, (e) => seen.push(e));
      return { seen, off };
    };

    it('announces an alert acknowledged and resolved once each, with the alert as the REST API shows it', async () => {
      const { clientId, siteId } = await createTenant(t, 'Events Co');
      const agent = await insertAgent(t, { hostname: 'events-ws-01', clientId, siteId });
      const [{ id }] = await sql<{ id: number }>(t.db.url, `INSERT INTO alerts (agent_id, alert_type, severity, message) VALUES ($1, 'check_failure', 'warning', 'Disk C: low') RETURNING id`, [agent]);
      const acked = collect('alert.acknowledged');
      const resolved = collect('alert.resolved');
      try {
        const ack = await t.http.post(`/api/v3/alerts/${id}/acknowledge/`).set('X-API-KEY', admin);
        await t.http.post(`/api/v3/alerts/${id}/acknowledge/`).set('X-API-KEY', admin);
        const res = await t.http.post(`/api/v3/alerts/${id}/resolve/`).set('X-API-KEY', admin);
        await t.http.post(`/api/v3/alerts/${id}/resolve/`).set('X-API-KEY', admin);
        expect(acked.seen).toEqual([{ agentId: agent, alert: ack.body }]);
        expect(resolved.seen).toEqual([{ agentId: agent, alert: res.body }]);
        expect(res.body).toMatchObject({ id, resolved: true });
      } finally {
        acked.off();
        resolved.off();
      }
    });

    it('announces a revoked key, so that connections opened with it can be closed', async () => {
      const revoked = collect('apikey.revoked');
      try {
        const created = await t.http.post('/api/v3/keys/').set('X-API-KEY', admin).send({ name: 'short-lived', scopes: ['agents:read'] });
        expect((await t.http.delete(`/api/v3/keys/${created.body.id}/`).set('X-API-KEY', admin)).status).toBe(204);
        expect(revoked.seen).toEqual([{ keyId: created.body.id }]);
      } finally {
        revoked.off();
      }
    });
  });
});
