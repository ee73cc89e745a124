import { AGENT_ERRORS_LOGGED_PER_MINUTE } from '../../apps/api/src/rmm/fleet/agent-channel/agent-gateway';
import { FakeAgent } from '../utils/fake-agent';
import { createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';
import { sleep, until } from '../utils/wait';

const ADMIN = 'agent-error-admin-key-0123456789abcdef';

/**
 * Issue 28: `error` is a message an agent may send (it refused a message of the server). The server logs it at warn,
 * a bounded number of lines a minute, never answers it (no ping-pong with its own `error`), and does not count it as
 * an invalid message.
 */
describe("an agent's error message (issue 28)", () => {
  let t: TestApp;
  const open: FakeAgent[] = [];
  let hosts = 0;

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterEach(() => {
    for (const a of open.splice(0)) a.ws.terminate();
  });
  afterAll(async () => {
    await t?.close();
  });

  const connect = async (): Promise<{ agentId: string; agent: FakeAgent }> => {
    const tenant = await createTenant(t, `Agent errors ${++hosts} Ltd`, 'HQ');
    const d = await t.http.post('/api/v3/agents/deployments/').set('X-API-KEY', ADMIN).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: `agent-errors-${hosts}`, plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    const agent = await FakeAgent.connect(t.url, r.body.agent_id, r.body.agent_secret);
    open.push(agent);
    await agent.next('hello');
    return { agentId: r.body.agent_id, agent };
  };
  const refusedLines = (): string[] => t.logs.filter((l) => l.includes('refused a message of the server'));

  it('logs it at warn and answers nothing; many of them neither close the connection nor flood the log', async () => {
    const { agentId, agent } = await connect();
    const before = refusedLines().length;
    agent.send({ type: 'error', message: 'unknown message type "shell.open": rmm-agent 0.1.0 knows hello, script.run (docs/agent-protocol.md)' });
    const line = await until('the warn line', async () => refusedLines()[before]);
    expect(JSON.parse(line)).toMatchObject({
      level: 'warn',
      msg: expect.stringContaining(`agent ${agentId} refused a message of the server: unknown message type "shell.open": rmm-agent 0.1.0 knows`),
    });

    // more than the 20 invalid messages that would close the connection: these are valid, so it stays open
    for (let i = 0; i < 30; i++) agent.send({ type: 'error', message: `invalid script.run: /timeoutSeconds must be integer (${i})` });
    agent.send({ type: 'heartbeat' });
    await sleep(300);
    expect(agent.closed).toBeUndefined();
    expect(agent.messages.filter((m) => m.type === 'error')).toEqual([]);
    expect(refusedLines().length - before).toBe(AGENT_ERRORS_LOGGED_PER_MINUTE);
    expect((await t.http.get(`/api/v3/agents/${agentId}/`).set('X-API-KEY', ADMIN)).body.status).toBe('online');
  });

  it('answers an error message that breaks its schema like any invalid message (and the agent answers nothing back)', async () => {
    const { agent } = await connect();
    agent.send({ type: 'error' });
    agent.send({ type: 'error', message: 'two\nlines' });
    agent.send({ type: 'error', message: 'x'.repeat(1_001) });
    const answers = await until('three answers', async () => {
      const e = agent.messages.filter((m) => m.type === 'error');
      return e.length >= 3 ? e : undefined;
    });
    expect(answers.map((m) => m.message)).toEqual([
      'invalid error: /message is required',
      'invalid error: /message must match pattern "^[^\\u0000-\\u001f\\u007f]*$"',
      'invalid error: /message must NOT have more than 1000 characters',
    ]);
    expect(agent.closed).toBeUndefined();
  });
});
