import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentMessage, SERVER_MESSAGES, ServerMessageType } from '@app/protocol';
import { unknownTypeError } from '../inbound';
import { createHandlers } from '.';
import { Connection, Handler } from './handler';
import { HandlerRegistry, REFUSALS_LOGGED_PER_MINUTE } from './registry';

/** A connection that keeps what the agent sends on it. */
const connection = (): Connection & { sent: Array<AgentMessage | string>; greeted: unknown[] } => {
  const sent: Array<AgentMessage | string> = [];
  const greeted: unknown[] = [];
  return { sent, greeted, send: (m) => (sent.push(m), true), sendBinary: () => true, greet: (h) => void greeted.push(h) };
};

/** A handler of `type` that keeps what it is given. */
const recorder = (type: ServerMessageType): Handler & { got: unknown[] } => {
  const got: unknown[] = [];
  return { type, got, handle: (message) => void got.push(message) };
};

const valid: Record<ServerMessageType, Record<string, unknown>> = {
  hello: { type: 'hello', agent_id: '7', heartbeat_seconds: 30, server_time: '2026-11-28T12:00:00.000Z' },
  'script.run': { type: 'script.run', id: 'r1', runId: 1, shell: 'bash', body: 'echo hi', args: [], timeoutSeconds: 5 },
  'checks.sync': { type: 'checks.sync', checks: [{ id: 7, checkType: 'memory', name: 'Memory', runInterval: 60, settings: { threshold_percent: 90 } }] },
  error: { type: 'error', message: 'invalid check.result: /checkId must be integer' },
  'update.available': { type: 'update.available', version: '0.1.1', target: 'linux-amd64', url: '/agent/v1/download/linux-amd64', sha256: 'ab'.repeat(32), size: 10, signature: 'c2ln' },
  'agent.uninstall': { type: 'agent.uninstall' },
  'files.list': { type: 'files.list', id: 'f1', path: '/tmp', cursor: null },
  'files.upload.begin': { type: 'files.upload.begin', id: 'f2', upload: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', path: '/tmp/a.bin', size: 10, overwrite: false },
  'files.upload.finish': { type: 'files.upload.finish', id: 'f3', upload: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', path: '/tmp/a.bin', size: 10, sha256: 'ab'.repeat(32), overwrite: false },
  'files.upload.abort': { type: 'files.upload.abort', id: 'f4', upload: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', path: '/tmp/a.bin' },
  'session.open': { type: 'session.open', session: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', kind: 'terminal', params: { cols: 80, rows: 24 } },
  'session.ack': { type: 'session.ack', session: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', seq: 3 },
  'session.control': { type: 'session.control', session: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', control: { type: 'resize', cols: 120, rows: 50 } },
  'session.close': { type: 'session.close', session: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', reason: 'closed' },
};

describe('the agent reads the server: each message checked against its schema, then to its handler', () => {
  const setup = () => {
    const lines: string[] = [];
    const handlers = Object.keys(SERVER_MESSAGES).map((t) => recorder(t as ServerMessageType));
    const registry = new HandlerRegistry(handlers, (l) => lines.push(l));
    const byType = Object.fromEntries(handlers.map((h) => [h.type, h])) as Record<ServerMessageType, (typeof handlers)[number]>;
    return { lines, registry, byType, conn: connection() };
  };

  it('has one handler for every message the server may send, and starts with no fewer nor two of a type', () => {
    const handlers = createHandlers({ log: () => undefined, sendCurrent: () => false, hooks: {} });
    expect(handlers.map((h) => h.type).sort()).toEqual(Object.keys(SERVER_MESSAGES).sort());
    expect(new HandlerRegistry(handlers, () => undefined).types.sort()).toEqual(Object.keys(SERVER_MESSAGES).sort());
    expect(() => new HandlerRegistry(handlers.filter((h) => h.type !== 'checks.sync'), () => undefined)).toThrow('no handler of checks.sync (apps/agent/src/handlers/index.ts)');
    expect(() => new HandlerRegistry([...handlers, recorder('error')], () => undefined)).toThrow('two handlers of error');
  });

  it('gives each handler its valid messages, and only those', () => {
    const { registry, byType, conn, lines } = setup();
    for (const m of Object.values(valid)) registry.receive(JSON.stringify({ ...m, fromANewerServer: true }), conn);
    for (const [type, m] of Object.entries(valid)) expect(byType[type as ServerMessageType].got).toEqual([{ ...m, fromANewerServer: true }]);
    expect(conn.sent).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('answers what is not a message of the protocol with an error saying why, logs one line each, and reads on', () => {
    const { registry, byType, conn, lines } = setup();
    const secret = 'export TOKEN=s3cr3t-value';
    const cases: Array<[string | null, string]> = [
      [null, 'binary frames are not part of the protocol: send JSON text'],
      ['{', 'not JSON: every message is one JSON object'],
      ['[1]', 'every message is one JSON object {type, …}'],
      ['{"type":{"toString":1}}', 'unknown message type: rmm-agent 0.1.0 knows hello, script.run, checks.sync, error, update.available, agent.uninstall, files.list, files.upload.begin, files.upload.finish, files.upload.abort, session.open, session.ack, session.control, session.close (docs/agent-protocol.md)'],
      ['{"type":"__proto__"}', 'unknown message type "__proto__": rmm-agent 0.1.0 knows hello, script.run, checks.sync, error, update.available, agent.uninstall, files.list, files.upload.begin, files.upload.finish, files.upload.abort, session.open, session.ack, session.control, session.close (docs/agent-protocol.md)'],
      [JSON.stringify({ type: 'shell.open', id: 's1', secret }), 'unknown message type "shell.open": rmm-agent 0.1.0 knows hello, script.run, checks.sync, error, update.available, agent.uninstall, files.list, files.upload.begin, files.upload.finish, files.upload.abort, session.open, session.ack, session.control, session.close (docs/agent-protocol.md)'],
      [JSON.stringify({ ...valid['script.run'], body: secret, timeoutSeconds: '5' }), 'invalid script.run: /timeoutSeconds must be integer'],
      [JSON.stringify({ ...valid['script.run'], body: secret, args: [secret, 3] }), 'invalid script.run: /args/1 must be string'],
      [JSON.stringify({ ...valid['script.run'], id: undefined }), 'invalid script.run: /id is required'],
      [JSON.stringify({ ...valid.hello, heartbeat_seconds: 1e12 }), 'invalid hello: /heartbeat_seconds must be <= 86400'],
      [JSON.stringify({ ...valid['checks.sync'], checks: [{ id: 7, checkType: 'memory', name: 'm', runInterval: 1, settings: {} }] }), 'invalid checks.sync: /checks/0/runInterval must be >= 5'],
      [JSON.stringify({ ...valid['update.available'], size: '10' }), 'invalid update.available: /size must be integer'],
      ['{"type":"error"}', 'invalid error: /message is required'],
    ];
    for (const [text] of cases) registry.receive(text, conn);
    registry.receive(JSON.stringify(valid['script.run']), conn); // still reading

    expect(conn.sent).toEqual(cases.map(([, why]) => ({ type: 'error', message: why })));
    expect(lines).toEqual(cases.map(([, why]) => `refused a message of the server: ${why}`));
    expect(lines.join('\n')).not.toContain('s3cr3t');
    expect(Object.values(byType).flatMap((h) => h.got)).toEqual([valid['script.run']]);
  });

  it('sends an error the server takes: printable, at most 1000 characters', () => {
    const { registry, conn } = setup();
    registry.receive(JSON.stringify({ type: `a\nb${'x'.repeat(2_000)}` }), conn);
    const [{ message }] = conn.sent as Array<{ message: string }>;
    expect(message).toBe(`unknown message type "a\\nb${'x'.repeat(61)}": rmm-agent 0.1.0 knows hello, script.run, checks.sync, error, update.available, agent.uninstall, files.list, files.upload.begin, files.upload.finish, files.upload.abort, session.open, session.ack, session.control, session.close (docs/agent-protocol.md)`);
    expect(message.length).toBeLessThanOrEqual(1_000);
  });

  it('logs at most 20 refusals a minute (answering each), then how many it did not log', () => {
    jest.useFakeTimers();
    try {
      const { registry, conn, lines } = setup();
      for (let i = 0; i < REFUSALS_LOGGED_PER_MINUTE + 5; i++) registry.receive('nope', conn);
      expect(conn.sent).toHaveLength(REFUSALS_LOGGED_PER_MINUTE + 5);
      expect(lines).toHaveLength(REFUSALS_LOGGED_PER_MINUTE);
      jest.advanceTimersByTime(60_000);
      expect(lines.slice(REFUSALS_LOGGED_PER_MINUTE)).toEqual(['refused 5 more message(s) of the server within a minute (not logged one by one)']);
      registry.receive('nope', conn); // a new minute
      expect(lines.at(-1)).toBe('refused a message of the server: not JSON: every message is one JSON object');
    } finally {
      jest.useRealTimers();
    }
  });

  it('survives a handler that throws or rejects (a bug): that message is lost, the next one is handled', async () => {
    const lines: string[] = [];
    const got: string[] = [];
    const handlers: Handler[] = Object.keys(SERVER_MESSAGES).map((t) => recorder(t as ServerMessageType));
    handlers[handlers.findIndex((h) => h.type === 'agent.uninstall')] = {
      type: 'agent.uninstall',
      handle: () => {
        throw new Error('uninstall bug');
      },
    };
    handlers[handlers.findIndex((h) => h.type === 'script.run')] = {
      type: 'script.run',
      handle: async (m) => {
        got.push((m as { id: string }).id);
        if (got.length === 1) throw new Error('script bug');
      },
    };
    const registry = new HandlerRegistry(handlers, (l) => lines.push(l));
    const conn = connection();
    registry.receive(JSON.stringify(valid['agent.uninstall']), conn);
    registry.receive(JSON.stringify(valid['script.run']), conn);
    registry.receive(JSON.stringify({ ...valid['script.run'], id: 'r2' }), conn);
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['r1', 'r2']);
    expect(lines).toEqual(['handling agent.uninstall failed: uninstall bug', 'handling script.run failed: script bug']);
    expect(conn.sent).toEqual([]);
  });

  it("answers a newer server's message type as docs/agent-protocol.md shows it", () => {
    const doc = readFileSync(join(__dirname, '../../../../docs/agent-protocol.md'), 'utf8');
    const example = /Example exchange:\s*```json\n([\s\S]*?)```/
      .exec(doc)![1]
      .split('\n')
      .filter((l) => l.startsWith('{"type":"error"'))
      .map((l) => JSON.parse(l) as { message: string });
    expect(example).toEqual([{ type: 'error', message: unknownTypeError('shell.open') }]);
  });
});
