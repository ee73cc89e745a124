import { AgentsErrorCode } from './agent-channel.errors';
import { AgentConnection, LocalAgentChannel } from './agent-channel';

/** An agent connection that records what the channel sends it (the WebSocket arrives with the agents issue). */
function fakeConnection(): AgentConnection & { sent: Array<{ type: string; id: string } & Record<string, unknown>> } {
  const sent: Array<{ type: string; id: string } & Record<string, unknown>> = [];
  return { sent, send: (m) => sent.push(m) };
}
const run = { runId: 1, shell: 'bash', body: 'echo hi', args: ['a'], timeoutSeconds: 5 };
const answer = { retcode: 0, stdout: 'hi\n', stderr: '', executionTime: 0.01, timedOut: false };

describe('LocalAgentChannel', () => {
  let channel: LocalAgentChannel;
  beforeEach(() => {
    channel = new LocalAgentChannel();
  });
  afterEach(() => channel.onApplicationShutdown());

  it('refuses at once when the agent holds no connection', async () => {
    expect(await channel.isOnline(1)).toBe(false);
    await expect(channel.request(1, 'script.run', run, 60_000)).rejects.toMatchObject({ code: AgentsErrorCode.NotConnected, message: 'agent is not connected' });
  });

  it('sends the command in one envelope and resolves with the agent\'s answer to its id', async () => {
    const conn = fakeConnection();
    channel.attach(7, conn);
    expect(await channel.isOnline(7)).toBe(true);
    const pending = channel.request(7, 'script.run', run, 60_000);
    expect(conn.sent).toEqual([{ type: 'script.run', id: expect.any(String), ...run }]);
    expect(channel.isRunOf(7, run.runId)).toBe(true); // in flight: its output chunks are accepted
    expect(channel.isRunOf(8, run.runId)).toBe(false);
    expect(channel.deliver(8, conn.sent[0].id, { ok: true, result: answer })).toEqual({ to: 'nothing' }); // another agent cannot answer it
    expect(channel.deliver(7, conn.sent[0].id, { ok: true, result: answer })).toEqual({ to: 'request' });
    await expect(pending).resolves.toEqual(answer);
    expect(channel.isRunOf(7, run.runId)).toBe(false); // answered: no more chunks
    expect(channel.deliver(7, conn.sent[0].id, { ok: true, result: answer })).toEqual({ to: 'nothing' }); // answered once
  });

  it('ends a wait with NoAnswer after the time limit', async () => {
    channel.attach(3, fakeConnection());
    await expect(channel.request(3, 'script.run', run, 20)).rejects.toMatchObject({ code: AgentsErrorCode.NoAnswer });
  });

  it('ends a wait with Disconnected as soon as the connection goes, and the agent is then offline', async () => {
    const detach = channel.attach(4, fakeConnection());
    const pending = channel.request(4, 'script.run', run, 60_000);
    detach();
    await expect(pending).rejects.toMatchObject({ code: AgentsErrorCode.Disconnected, message: 'agent disconnected' });
    expect(await channel.isOnline(4)).toBe(false);
  });

  it('keeps the newer connection when an agent reconnects: the old one\'s detach changes nothing', async () => {
    const oldDetach = channel.attach(5, fakeConnection());
    const first = channel.request(5, 'script.run', run, 60_000);
    const newer = fakeConnection();
    channel.attach(5, newer);
    await expect(first).rejects.toMatchObject({ code: AgentsErrorCode.Disconnected });
    oldDetach();
    expect(await channel.isOnline(5)).toBe(true);
    const second = channel.request(5, 'script.run', run, 60_000);
    channel.deliver(5, newer.sent[0].id, { ok: true, result: answer });
    await expect(second).resolves.toEqual(answer);
  });

  it('answers a refusal by the agent as Refused with its reason', async () => {
    const conn = fakeConnection();
    channel.attach(6, conn);
    const pending = channel.request(6, 'script.run', run, 60_000);
    expect(channel.deliver(6, conn.sent[0].id, { ok: false, error: 'unsupported shell' })).toEqual({ to: 'request' });
    await expect(pending).rejects.toMatchObject({ code: AgentsErrorCode.Refused, message: 'agent refused: unsupported shell' });
    expect(await channel.isOnline(6)).toBe(true);
  });

  it('ends a request with InvalidAnswer, saying what was wrong, when the answer is not one the protocol allows', async () => {
    const conn = fakeConnection();
    channel.attach(9, conn);
    const cases: Array<[unknown, string]> = [
      [{ ok: true }, '/result is required'],
      [{ ok: true, result: { ...answer, stdout: { toString: 1 } } }, '/result/stdout must be string'],
      [{ ok: true, result: { ...answer, retcode: 2 ** 40 } }, '/result/retcode must be <= 4294967295'],
      [{ ok: true, result: { ...answer, retcode: 1.5 } }, '/result/retcode must be integer'],
      [{ ok: false, error: { toString: 1 } }, '/error must be string'],
      [{ ok: 'yes' }, '/ok must be true or false'],
      [{}, '/ok is required'],
    ];
    for (const [message, why] of cases) {
      const pending = channel.request(9, 'script.run', run, 60_000);
      expect(channel.deliver(9, conn.sent[conn.sent.length - 1].id, message)).toEqual({ to: 'request', invalid: why });
      await expect(pending).rejects.toMatchObject({ code: AgentsErrorCode.InvalidAnswer, message: 'agent sent an invalid answer', fields: [{ field: 'answer', message: why }] });
    }
  });

  it('tells the taps of a one-way message type what was sent, to whom, once it went', async () => {
    const seen: Array<[number, unknown]> = [];
    const off = channel.onSent('checks.sync', (agentId, message) => seen.push([agentId, message.checks]));
    channel.attach(10, fakeConnection());
    expect(await channel.notify(10, { type: 'checks.sync', checks: [{ id: 1 }] })).toBe(true);
    expect(await channel.notify(10, { type: 'other' })).toBe(true);
    expect(await channel.notify(11, { type: 'checks.sync', checks: [{ id: 2 }] })).toBe(false); // not held here: nothing went
    off();
    await channel.notify(10, { type: 'checks.sync', checks: [] });
    expect(seen).toEqual([[10, [{ id: 1 }]]]);
  });
});
