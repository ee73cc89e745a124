import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { AgentProcess } from '../utils/processes';
import { until } from '../utils/wait';

/**
 * Issue 28: the agent checks every message the server sends against its schema (libs/protocol). The reference
 * agent as a device runs it (a real process of dist/agent/rmm-agent.js), against a test-only server on 127.0.0.1
 * that speaks the protocol by hand and breaks it: the agent answers each message it cannot read with an error,
 * logs why in one line, and goes on working on the same connection.
 */
describe('the reference agent refuses what is not a message of the protocol, and keeps working', () => {
  let wss: WebSocketServer;
  let dir: string;
  let agent: AgentProcess | undefined;
  const connections: Array<{ ws: WebSocket; messages: Array<Record<string, any>> }> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rmm-agent-server-messages-'));
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/agent/v1/ws' });
    await new Promise((r) => wss.once('listening', r));
    wss.on('connection', (ws) => {
      const c = { ws, messages: [] as Array<Record<string, any>> };
      ws.on('message', (d) => c.messages.push(JSON.parse(d.toString())));
      connections.push(c);
      ws.send(JSON.stringify({ type: 'hello', agent_id: '7', heartbeat_seconds: 1, server_time: new Date().toISOString() }));
    });
  });
  afterAll(async () => {
    await agent?.stop();
    for (const c of connections) c.ws.terminate();
    await new Promise((r) => wss.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each with {type: "error"} saying why, logs one line each (never the message), and runs the next script', async () => {
    const { port } = wss.address() as AddressInfo;
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ server: `http://127.0.0.1:${port}`, agent_id: '7', agent_secret: 'agt_server_messages' }), { mode: 0o600 });
    agent = new AgentProcess(dir, { ...process.env });
    agent.start();
    const first = await until(`a connection\n${agent.output}`, async () => connections[0]);
    await until(`the first heartbeat\n${agent.output}`, async () => first.messages.some((m) => m.type === 'heartbeat'));

    const secret = 'export API_TOKEN=never-in-a-log-4f2a';
    first.ws.send('{"type":"script.run",');
    first.ws.send(Buffer.from([0xff, 0x00]));
    first.ws.send(JSON.stringify({ type: 'shell.open', id: 's1', secret }));
    first.ws.send(JSON.stringify({ type: 'script.run', id: 'r1', runId: 1, shell: 'bash', body: `echo "${secret}"`, args: 'not a list', timeoutSeconds: 5 }));
    first.ws.send(JSON.stringify({ type: 'checks.sync', checks: [{ id: 'seven', checkType: 'memory', name: 'm', runInterval: 60, settings: {} }] }));
    first.ws.send(JSON.stringify({ type: 'hello', agent_id: 'seven', heartbeat_seconds: 1, server_time: 'now' }));
    const beatsBefore = first.messages.filter((m) => m.type === 'heartbeat').length;
    first.ws.send(JSON.stringify({ type: 'script.run', id: 'r2', runId: 2, shell: 'bash', body: 'echo alive', args: [], timeoutSeconds: 10 }));

    const result = await until(`the result of r2\n${agent.output}`, async () => first.messages.find((m) => m.type === 'result'));
    expect(result).toEqual({ type: 'result', id: 'r2', ok: true, result: { retcode: 0, stdout: 'alive\n', stderr: '', executionTime: expect.any(Number), timedOut: false } });
    const errors = [
      'not JSON: every message is one JSON object',
      'binary frame too short: a session frame is a 21-byte header and 1–32768 bytes',
      'unknown message type "shell.open": rmm-agent 0.1.0 knows hello, script.run, checks.sync, error, update.available, agent.uninstall, files.list, files.upload.begin, files.upload.finish, files.upload.abort, session.open, session.ack, session.control, session.close (docs/agent-protocol.md)',
      'invalid script.run: /args must be array',
      'invalid checks.sync: /checks/0/id must be integer',
      'invalid hello: /agent_id must match pattern "^[0-9]{1,10}$"',
    ];
    expect(first.messages.filter((m) => m.type === 'error')).toEqual(errors.map((message) => ({ type: 'error', message })));
    // r1 never ran; r2 did
    expect(first.messages.filter((m) => m.type === 'script.output').map((m) => m.runId)).toEqual([2]);
    // it goes on beating (the refused hello changed nothing), on the one connection it had
    await until(`a heartbeat after the refusals\n${agent.output}`, async () => first.messages.filter((m) => m.type === 'heartbeat').length > beatsBefore, 5_000);
    expect(connections).toHaveLength(1);
    expect(first.ws.readyState).toBe(WebSocket.OPEN);

    const refusals = agent.output.split('\n').filter((l) => l.includes('refused a message of the server'));
    expect(refusals.map((l) => l.replace(/^\S+ /, ''))).toEqual(errors.map((e) => `refused a message of the server: ${e}`));
    expect(agent.output).not.toContain('never-in-a-log');
    expect(agent.output).not.toMatch(/TypeError|Uncaught|at .*\.js:\d+/);
  });
});
