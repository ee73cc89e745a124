import { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { AgentChannel } from '../../../apps/agent/src/channel';

/**
 * The channel against a real WebSocket server on 127.0.0.1 that speaks the protocol by hand (and breaks it): what
 * the server sees the agent answer, and what the agent logs.
 */
describe('the agent channel, against a server that sends what is not a message of the protocol', () => {
  let wss: WebSocketServer;
  let server: string;
  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/agent/v1/ws' });
    await new Promise((r) => wss.once('listening', r));
    server = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const ws of wss.clients) ws.terminate();
    await new Promise((r) => wss.close(r));
  });

  const waitFor = async <T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('answers each with an error, logs why in one line, and keeps working on the same connection', async () => {
    const received: Array<Record<string, any>> = [];
    const sockets: WebSocket[] = [];
    wss.on('connection', (ws) => {
      sockets.push(ws);
      ws.on('message', (d) => received.push(JSON.parse(d.toString())));
      ws.send(JSON.stringify({ type: 'hello', agent_id: '7', heartbeat_seconds: 30, server_time: new Date().toISOString() }));
    });
    const lines: string[] = [];
    const channel = new AgentChannel({ server, agent_id: '7', agent_secret: 'agt_channel_spec' }, (l) => lines.push(l));
    const done = channel.start();
    try {
      const ws = await waitFor('a connection', () => sockets[0]);
      await waitFor('the first heartbeat', () => received.find((m) => m.type === 'heartbeat'));

      ws.send('not json');
      ws.send(Buffer.from([1, 2, 3]));
      ws.send(JSON.stringify({ type: 'shell.open', id: 's1' }));
      ws.send(JSON.stringify({ type: 'script.run', id: 'r1', runId: 1, shell: 'bash', body: 'echo "TOKEN=hunter2"', args: [], timeoutSeconds: 'soon' }));
      ws.send(JSON.stringify({ type: 'error', message: 'invalid heartbeat: /facts must be object' }));
      ws.send(JSON.stringify({ type: 'script.run', id: 'r2', runId: 2, shell: 'bash', body: 'echo alive', args: [], timeoutSeconds: 10 }));

      const result = await waitFor('the result of r2', () => received.find((m) => m.type === 'result'));
      expect(result).toMatchObject({ type: 'result', id: 'r2', ok: true, result: { retcode: 0, stdout: 'alive\n' } });
      const errors = [
        'not JSON: every message is one JSON object',
        // (binary frames carry sessions' bytes: docs/agent-protocol.md, "Sessions")
        'binary frame too short: a session frame is a 21-byte header and 1–32768 bytes',
        'unknown message type "shell.open": rmm-agent 0.1.0 knows hello, script.run, checks.sync, error, update.available, agent.uninstall, files.list, files.upload.begin, files.upload.finish, files.upload.abort, session.open, session.ack, session.control, session.close (docs/agent-protocol.md)',
        'invalid script.run: /timeoutSeconds must be integer',
      ];
      // the server's own error is logged, never answered (no ping-pong); r1 never ran (no result, no output)
      expect(received.filter((m) => m.type === 'error')).toEqual(errors.map((message) => ({ type: 'error', message })));
      expect(received.filter((m) => m.type === 'result' || m.type === 'script.output').map((m) => m.id ?? m.runId)).toEqual([2, 'r2']);
      expect(lines.filter((l) => l.startsWith('refused'))).toEqual(errors.map((e) => `refused a message of the server: ${e}`));
      expect(lines).toContain('the server says: invalid heartbeat: /facts must be object');
      expect(lines.join('\n')).not.toContain('hunter2');
      expect(sockets).toHaveLength(1); // the same connection throughout
      expect(ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      channel.stop();
      expect(await done).toBe(0);
    }
  });

  it('U1: pause() closes the connection with 1000 and does not reconnect until resume() (a new version on trial holds the channel meanwhile)', async () => {
    const sockets: Array<{ ws: WebSocket; closed?: number }> = [];
    const onConnection = (ws: WebSocket): void => {
      const entry: { ws: WebSocket; closed?: number } = { ws };
      ws.on('close', (code) => (entry.closed = code));
      sockets.push(entry);
      ws.send(JSON.stringify({ type: 'hello', agent_id: '7', heartbeat_seconds: 30, server_time: new Date().toISOString() }));
    };
    wss.removeAllListeners('connection');
    wss.on('connection', onConnection);
    const channel = new AgentChannel({ server, agent_id: '7', agent_secret: 'agt_channel_spec' }, () => undefined);
    const done = channel.start();
    try {
      await waitFor('a connection', () => sockets[0]);
      await channel.pause();
      expect(await waitFor('the close', () => sockets[0].closed)).toBe(1000);
      await new Promise((r) => setTimeout(r, 1_500)); // longer than the first reconnect delay (1 s ± 20 %)
      expect(sockets).toHaveLength(1);
      channel.resume();
      await waitFor('a second connection', () => sockets[1]);
      expect(sockets[1].closed).toBeUndefined();
    } finally {
      channel.stop();
      expect(await done).toBe(0);
      wss.off('connection', onConnection);
    }
  });
});
