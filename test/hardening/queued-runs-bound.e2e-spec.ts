import { AgentWireMessage, FakeAgent } from '../utils/fake-agent';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

jest.setTimeout(180_000);

const ADMIN = 'admin-key-for-queued-runs-bound-0123456789';
const FULL = { detail: 'too many queued runs for this agent' };
const MIB = 1024 * 1024;

/**
 * N6 (issue 30, point 7): the probe queued 190 one-MiB runs for one offline agent, every one accepted. An agent
 * holds at most RMM_QUEUE_MAX_PER_AGENT (100) queued runs and 10 MiB of queued bodies and arguments (UTF-8 bytes,
 * as sent); past either, 429 {detail: "too many queued runs for this agent"} and nothing is written. Requests at
 * once cannot pass the bound together; once the agent has connected and its runs have gone, it takes runs again.
 */
describe('N6: queued runs are bounded per agent', () => {
  let t: TestApp;
  let site: { clientId: number; siteId: number };
  let smallScript: number;
  const admin = { 'X-API-KEY': ADMIN };

  /** A device registered through a deployment (never connected: offline); its id and secret. */
  const register = async (hostname: string): Promise<{ id: string; secret: string }> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: site.clientId, site: site.siteId });
    expect(d.status).toBe(201);
    const res = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname, plat: 'linux', version: '0.1.0' });
    expect(res.status).toBe(200);
    return { id: res.body.agent_id as string, secret: res.body.agent_secret as string };
  };
  const queue = (agentId: string, script: number, extra: Record<string, unknown> = {}) =>
    t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send({ script, queue: true, ...extra });
  const queuedCount = async (agentId: string): Promise<number> =>
    (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM script_runs WHERE agent_id = $1 AND status = 'queued'`, [Number(agentId)]))[0].n;

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' });
    site = await createTenant(t, 'Queue Ltd');
    const s = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'small', shell: 'bash', body: 'echo hi' });
    expect(s.status).toBe(201);
    smallScript = s.body.id as number;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('N6: 100 queued runs are accepted for an offline agent, the 101st is 429 (also when they arrive at once); after the agent has drained them, new ones are accepted', async () => {
    const agent = await register('n6-count-01');
    for (let i = 0; i < 90; i++) {
      const res = await queue(agent.id, smallScript);
      expect([res.status, res.body.status]).toEqual([202, 'queued']);
    }
    // 20 at once for the last 10 places: exactly 10 get one.
    const burst = await Promise.all(Array.from({ length: 20 }, () => queue(agent.id, smallScript)));
    expect(burst.filter((r) => r.status === 202)).toHaveLength(10);
    const refused = burst.filter((r) => r.status !== 202);
    expect(refused.map((r) => [r.status, r.body])).toEqual(Array.from({ length: 10 }, () => [429, FULL]));
    expect(await queuedCount(agent.id)).toBe(100);

    const over = await queue(agent.id, smallScript);
    expect([over.status, over.body]).toEqual([429, FULL]);
    expect(await queuedCount(agent.id)).toBe(100);
    // Without queue: true an offline agent is still 409, as before.
    expect((await t.http.post(`/api/v3/agents/${agent.id}/runscript/`).set(admin).send({ script: smallScript, output: 'forget' })).status).toBe(409);

    // The agent connects and is sent its runs one after another; it answers each.
    const fake = await FakeAgent.connect(t.url, agent.id, agent.secret);
    await fake.next('hello');
    for (let i = 0; i < 100; i++) {
      const m: AgentWireMessage = await fake.next('script.run', 15_000);
      fake.send({ type: 'result', id: m.id, ok: true, result: { retcode: 0, stdout: 'hi\n', stderr: '', executionTime: 0.01, timedOut: false } });
    }
    await until('the queue drained', async () => (await queuedCount(agent.id)) === 0);
    fake.ws.close();
    await fake.whenClosed();
    await until('the agent not connected', async () => (await t.http.post(`/api/v3/agents/${agent.id}/runscript/`).set(admin).send({ script: smallScript, output: 'forget' })).status === 409);

    const again = await queue(agent.id, smallScript);
    expect([again.status, again.body.status]).toEqual([202, 'queued']);
  });

  it('N6: a big body hits the 10 MiB bound (UTF-8 bytes of body and arguments) before the count does: 429, nothing written', async () => {
    const agent = await register('n6-bytes-01');
    // 1 MiB of UTF-8 in half as many characters: ten runs are 10 MiB, exactly the bound.
    const big = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'big', shell: 'bash', body: 'é'.repeat(MIB / 2) });
    expect(big.status).toBe(201);
    for (let i = 0; i < 10; i++) {
      const res = await queue(agent.id, big.body.id as number);
      expect([i, res.status, res.body.status]).toEqual([i, 202, 'queued']);
    }
    const eleventh = await queue(agent.id, big.body.id as number);
    expect([eleventh.status, eleventh.body]).toEqual([429, FULL]);
    // Arguments count too: at the bound, a script of 7 bytes with a 4 KiB argument does not fit either.
    const withArgs = await queue(agent.id, smallScript, { args: ['a'.repeat(4096)] });
    expect([withArgs.status, withArgs.body]).toEqual([429, FULL]);
    expect(await queuedCount(agent.id)).toBe(10);
    const [{ bytes }] = await sql<{ bytes: string }>(t.db.url, `SELECT sum(octet_length(body))::bigint AS bytes FROM script_runs WHERE agent_id = $1 AND status = 'queued'`, [Number(agent.id)]);
    expect(Number(bytes)).toBe(10 * MIB);

    // Cancelling one frees its bytes.
    const [{ id: first }] = await sql<{ id: number }>(t.db.url, `SELECT min(id) AS id FROM script_runs WHERE agent_id = $1 AND status = 'queued'`, [Number(agent.id)]);
    expect((await t.http.delete(`/api/v3/agents/${agent.id}/runs/${first}/`).set(admin)).status).toBe(200);
    expect((await queue(agent.id, big.body.id as number)).status).toBe(202);
  });
});
