import { AgentPresenceService } from '../../apps/api/src/rmm/fleet/presence/agent-presence.service';
import { createKey } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

interface SimStats {
  connected: number;
  hellos: number;
  heartbeats: number;
  scriptRuns: number;
  serverErrors: number;
  otherErrors: number;
}
interface Sim {
  start(): void;
  stop(): void;
  snapshot(): SimStats;
}
// The bench is plain JavaScript run by node (bench/); this test keeps its simulator and its SQL seeding working.
const { Simulator } = require('../../bench/sim.js') as { Simulator: new (url: string, agents: Array<[number, string]>, options?: { onReady?: () => void }) => Sim };
const { seedAgents } = require('../../bench/agents.js') as { seedAgents: (databaseUrl: string, n: number) => Promise<Array<[number, string]>> };

describe('the bench agent simulator (bench/sim.js)', () => {
  let t: TestApp;
  let sim: Sim | undefined;

  beforeAll(async () => {
    t = await startTestApp({ RMM_AGENT_HEARTBEAT_SECONDS: '1' });
  });
  afterAll(async () => {
    sim?.stop();
    await t?.close();
  });

  it('connects 20 agents over the real protocol, sends heartbeats with facts and answers a runscript', async () => {
    const agents = await seedAgents(t.db.url, 20);
    expect(agents).toHaveLength(20);
    let ready = false;
    sim = new Simulator(t.url, agents, { onReady: () => (ready = true) });
    sim.start();
    await until('all 20 simulated agents greeted', async () => ready, 20_000);
    const key = await createKey(t, ['agents:read', 'scripts:write', 'scripts:run']);

    // Every one is online as the API shows it.
    for (const [id] of agents.slice(0, 3)) {
      const res = await t.http.get(`/api/v3/agents/${id}/`).set('X-API-KEY', key);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('online');
    }
    const online = await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM agents WHERE status = 'online'`);
    expect(online).toEqual([{ n: 20 }]);

    // Heartbeats (every second here) carry the simulator's facts on the first one; the flush writes them.
    // (a heartbeat counted as sent may still be on its way: flush and count until all 20 are written)
    const written = async (): Promise<number> => {
      await t.server.app.get(AgentPresenceService).flush();
      return (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM agents WHERE cpu_model = 'Simulated CPU'`))[0].n;
    };
    await until('the facts of all 20 agents written', async () => (await written()) === 20, 15_000);
    expect(sim.snapshot().heartbeats).toBeGreaterThanOrEqual(20);

    // A runscript through REST reaches the simulated agent, whose answer comes back as the result.
    const script = await t.http.post('/api/v3/scripts/').set('X-API-KEY', key).send({ name: 'sim-smoke', shell: 'bash', body: 'echo ok' });
    expect(script.status).toBe(201);
    const run = await t.http.post(`/api/v3/agents/${agents[7][0]}/runscript/`).set('X-API-KEY', key).send({ script: script.body.id, output: 'wait', timeout: 10 });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ retcode: 0, stdout: 'ok\n', stderr: '' });
    expect(sim.snapshot()).toMatchObject({ connected: 20, scriptRuns: 1, serverErrors: 0, otherErrors: 0 });
  });
});
