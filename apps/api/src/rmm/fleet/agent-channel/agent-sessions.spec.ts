import { createHash } from 'node:crypto';
import type { AgentMessage, SessionOpenMessage } from '@app/protocol';
import { SESSION_WINDOW } from '@app/protocol';
import type { Connection } from '../../../../../agent/src/handlers/handler';
import { SessionManager } from '../../../../../agent/src/sessions/manager';
import type { SessionOpener } from '../../../../../agent/src/sessions/kind';
import type { RedisConnections } from '../../../common/redis/redis-connections';
import type { RedisPubSub } from '../../../common/redis/redis-pubsub';
import { LocalAgentChannel } from './agent-channel';
import { AgentSessions, SessionEndedError } from './agent-sessions';

const AGENT = 7;
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Both ends of sessions in one process: the server's AgentSessions over a LocalAgentChannel, and the agent's
 * SessionManager, joined by a connection that hands each message and frame to the other end on the next turn of
 * the event loop (as a socket would), with kinds made for the test.
 */
function pair(openers: Partial<Record<'terminal' | 'file.read' | 'file.write', SessionOpener>>) {
  const channel = new LocalAgentChannel();
  const sessions = new AgentSessions(channel, { enabled: false } as RedisConnections, {} as RedisPubSub);
  const lines: string[] = [];
  const manager = new SessionManager({ terminal: openers.terminal!, 'file.read': openers['file.read']!, 'file.write': openers['file.write']! }, (l) => lines.push(l));
  const refused: string[] = [];
  let open = true;
  const agentSide: Connection = {
    send: (m: AgentMessage | string) => {
      if (!open) return false;
      const message = (typeof m === 'string' ? JSON.parse(m) : m) as { type: string; session: string } & Record<string, unknown>;
      setImmediate(() => {
        const d = sessions.agentMessage(AGENT, message);
        if (typeof d === 'object') refused.push(d.refused);
      });
      return true;
    },
    sendBinary: (bytes) => {
      if (!open) return false;
      const copy = Uint8Array.from(bytes);
      setImmediate(() => {
        const d = sessions.agentFrame(AGENT, copy);
        if (typeof d === 'object') refused.push(d.refused);
      });
      return true;
    },
    greet: () => undefined,
  };
  const detach = channel.attach(AGENT, {
    send: (message) => {
      setImmediate(() => {
        const m = message as unknown as { type: string; session: string; seq: number; reason: string; control: Record<string, unknown> };
        if (m.type === 'session.open') void manager.open(message as unknown as SessionOpenMessage, agentSide);
        else if (m.type === 'session.ack') manager.ack(m.session, m.seq);
        else if (m.type === 'session.control') manager.control(m.session, m.control);
        else if (m.type === 'session.close') void manager.close(m.session, m.reason);
      });
    },
    sendBinary: (bytes) => {
      const copy = Uint8Array.from(bytes);
      setImmediate(() => manager.frame(copy));
      return true;
    },
  });
  void sessions.onModuleInit();
  const drop = (): void => {
    open = false;
    detach();
    void manager.closeAll('disconnected');
  };
  return { sessions, manager, refused, lines, drop };
}

describe('sessions: both ends of the primitive, with flow control', () => {
  it('streams 8 MiB from the agent to a slow consumer in order, never more than the window in flight', async () => {
    const total = 8 * 1024 * 1024;
    let sentByAgent = 0;
    let consumed = 0;
    let most = 0;
    const source: SessionOpener = (_params, io) => {
      void (async () => {
        io.opened({ size: total });
        for (let i = 0; i < total / 65536; i++) {
          const chunk = new Uint8Array(65536).fill(i % 251);
          await io.write(chunk);
          sentByAgent += chunk.length;
        }
        io.end('end');
      })();
      return { close: () => undefined };
    };
    const { sessions, refused } = pair({ 'file.read': source });
    const session = await sessions.open(AGENT, 'file.read', { path: '/x' });
    expect(await session.opened).toEqual({ size: total });
    const hash = createHash('sha256');
    session.onData(async (bytes) => {
      most = Math.max(most, sentByAgent - consumed);
      hash.update(bytes);
      consumed += bytes.length;
      if (consumed % (1024 * 1024) === 0) await sleep(5); // a slow reader now and then
    });
    expect(await session.ended).toEqual({ reason: 'end' });
    const expected = createHash('sha256');
    for (let i = 0; i < total / 65536; i++) expected.update(new Uint8Array(65536).fill(i % 251));
    expect(hash.digest('hex')).toBe(expected.digest('hex'));
    expect(session.bytesFromAgent).toBe(total);
    // (the agent's writes resolve a chunk late: at most the window plus one 64 KiB write is ahead of the consumer)
    expect(most).toBeLessThanOrEqual(SESSION_WINDOW + 65536);
    expect(refused).toEqual([]);
  });

  it('writes to the agent with back-pressure, and a half-close answers what the agent received', async () => {
    const got: Uint8Array[] = [];
    let closedWith = '';
    const sink: SessionOpener = (params, io) => {
      io.opened({ offset: params.offset });
      return {
        data: async (bytes) => {
          got.push(bytes);
          await sleep(0);
        },
        close: (reason) => {
          closedWith = reason;
          return { received: got.reduce((n, b) => n + b.length, 0) };
        },
      };
    };
    const { sessions } = pair({ 'file.write': sink });
    const session = await sessions.open(AGENT, 'file.write', { offset: 0 });
    await session.opened;
    const total = 3 * 1024 * 1024 + 17;
    await session.write(new Uint8Array(total).fill(9));
    expect(await session.endWrites()).toEqual({ reason: 'end', received: total });
    expect(closedWith).toBe('end');
    expect(session.bytesToAgent).toBe(total);
    await expect(session.write(new Uint8Array(1))).rejects.toBeInstanceOf(SessionEndedError);
  });

  it('carries controls, the exit code, and a refusal to open with its reason', async () => {
    const echo: SessionOpener = (params, io) => {
      if (params.shell === 'fish') throw new Error('no such shell: fish');
      io.opened({ pty: false });
      return {
        data: (bytes) => io.write(bytes),
        control: (c) => void io.write(new TextEncoder().encode(`resized ${String(c.rows)}x${String(c.cols)}`)),
        close: () => undefined,
      };
    };
    const { sessions, manager } = pair({ terminal: echo });
    const refusedSession = await sessions.open(AGENT, 'terminal', { cols: 80, rows: 24, shell: 'fish' });
    await expect(refusedSession.opened).rejects.toMatchObject({ end: { reason: 'no such shell: fish', error: true } });
    expect(await refusedSession.ended).toEqual({ reason: 'no such shell: fish', error: true });

    const session = await sessions.open(AGENT, 'terminal', { cols: 80, rows: 24 });
    await session.opened;
    const out: string[] = [];
    session.onData((b) => void out.push(Buffer.from(b).toString()));
    await session.write(Buffer.from('hi'));
    session.control({ type: 'resize', cols: 120, rows: 50 });
    while (out.join('') !== 'hiresized 50x120') await tick();
    session.close('idle');
    expect(await session.ended).toEqual({ reason: 'idle' });
    while (manager.size > 0) await tick();
  });

  it('ends every session of an agent whose connection dropped, at both ends', async () => {
    let agentClosed = '';
    const idle: SessionOpener = (_p, io) => {
      io.opened({});
      return { close: (reason) => void (agentClosed = reason) };
    };
    const { sessions, manager, drop } = pair({ terminal: idle });
    const session = await sessions.open(AGENT, 'terminal', { cols: 80, rows: 24 });
    await session.opened;
    drop();
    expect(await session.ended).toEqual({ reason: 'agent_offline', error: true });
    while (manager.size > 0) await tick();
    expect(agentClosed).toBe('disconnected');
    await expect(sessions.open(AGENT, 'terminal', { cols: 80, rows: 24 })).rejects.toMatchObject({ message: 'agent is not connected' });
  });

  it("refuses an agent's frames and messages for a session that is not its own", async () => {
    const { sessions } = pair({ terminal: (_p, io) => (io.opened({}), { close: () => undefined }) });
    const session = await sessions.open(AGENT, 'terminal', { cols: 80, rows: 24 });
    await session.opened;
    expect(sessions.agentMessage(AGENT + 1, { type: 'session.ack', session: session.id, seq: 0 })).toEqual({ refused: `no session ${session.id} is open on this agent` });
    expect(sessions.agentFrame(AGENT, new Uint8Array(3))).toEqual({ refused: 'binary frame too short: a session frame is a 21-byte header and 1–32768 bytes' });
    session.close('closed');
    // after the end, what was still in flight is dropped without a word
    expect(sessions.agentMessage(AGENT, { type: 'session.ack', session: session.id, seq: 0 })).toBe('dropped');
  });
});
