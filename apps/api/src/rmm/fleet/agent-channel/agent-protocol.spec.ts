import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_MESSAGES, SERVER_MESSAGES } from '@app/protocol';
import { isServerMessage, parseAgentMessage, parseAnswer } from './agent-protocol';

const msg = (value: unknown): ReturnType<typeof parseAgentMessage> => parseAgentMessage(JSON.stringify(value));

describe('agent messages: one schema per type', () => {
  it('takes the valid messages of every type (extra fields are ignored, not refused)', () => {
    for (const m of [
      { type: 'heartbeat' },
      { type: 'heartbeat', facts: { plat: 'linux', anything: 1 } },
      { type: 'script.output', runId: 17, stream: 'stdout', chunk: 'hi\n', seq: 0 },
      { type: 'result', id: '5f0c', ok: true, result: {} },
      { type: 'result', id: 'x', ok: 'whatever the answer: its request checks it' },
      { type: 'check.result', checkId: 7, status: 'passing', moreInfo: 'ok' },
      { type: 'check.result', checkId: 7, status: 'pending' },
      { type: 'check.result', checkId: 7, status: 'failing', moreInfo: null, newerField: true },
    ]) {
      expect(msg(m)).toMatchObject({ ok: true, type: m.type });
    }
  });

  it('refuses, saying why, whatever is not a message of the protocol', () => {
    const cases: Array<[string | null, string]> = [
      [null, 'binary frames are not part of the protocol: send JSON text'],
      ['{', 'not JSON: every message is one JSON object'],
      ['[1]', 'every message is one JSON object {type, …}'],
      ['"heartbeat"', 'every message is one JSON object {type, …}'],
      ['null', 'every message is one JSON object {type, …}'],
      ['{"type":"x"}', 'unknown message type: send one of heartbeat, script.output, result, check.result, update.failed, session.opened, session.ack, session.close (docs/agent-protocol.md)'],
      ['{"type":"toString"}', 'unknown message type: send one of heartbeat, script.output, result, check.result, update.failed, session.opened, session.ack, session.close (docs/agent-protocol.md)'],
      ['{"type":"__proto__"}', 'unknown message type: send one of heartbeat, script.output, result, check.result, update.failed, session.opened, session.ack, session.close (docs/agent-protocol.md)'],
      ['{"type":{"toString":1}}', 'unknown message type: send one of heartbeat, script.output, result, check.result, update.failed, session.opened, session.ack, session.close (docs/agent-protocol.md)'],
      // The message that ended the server (String() of an object whose toString is not a function):
      ['{"type":"result","id":{"toString":1},"ok":false,"error":{"toString":1}}', 'invalid result: /id must be string'],
      ['{"type":"result","ok":true}', 'invalid result: /id is required'],
      ['{"type":"heartbeat","facts":[1]}', 'invalid heartbeat: /facts must be object'],
      ['{"type":"script.output","runId":"17","stream":"stdout","chunk":"x","seq":0}', 'invalid script.output: /runId must be integer'],
      ['{"type":"script.output","runId":17,"stream":"stdin","chunk":"x","seq":0}', 'invalid script.output: /stream must be one of stdout, stderr'],
      ['{"type":"script.output","runId":17,"stream":"stdout","chunk":{"toString":1},"seq":0}', 'invalid script.output: /chunk must be string'],
      ['{"type":"check.result","checkId":1099511627776,"status":"passing"}', 'invalid check.result: /checkId must be <= 2147483647'],
      ['{"type":"check.result","checkId":7,"status":"ok"}', 'invalid check.result: /status must be one of passing, failing, pending'],
      ['{"type":"check.result","checkId":7,"status":"passing","moreInfo":3}', 'invalid check.result: /moreInfo must be string'],
    ];
    for (const [text, why] of cases) expect(parseAgentMessage(text)).toEqual({ ok: false, error: why });
  });
});

describe('answers to script.run', () => {
  const result = { retcode: 0, stdout: 'a\u0000b', stderr: '', executionTime: 0.01, timedOut: false };

  it('takes a result (NUL and all: making it storable is the run’s job), a refusal, and Windows exit codes', () => {
    expect(parseAnswer('script.run', { ok: true, result })).toEqual({ ok: true, result });
    expect(parseAnswer('script.run', { ok: true, result: { ...result, retcode: null, timedOut: true } })).toMatchObject({ ok: true });
    expect(parseAnswer('script.run', { ok: true, result: { ...result, retcode: 3_221_225_477 } })).toMatchObject({ ok: true });
    expect(parseAnswer('script.run', { ok: false, error: 'interpreter not found: cmd' })).toEqual({ ok: false, refused: 'interpreter not found: cmd' });
  });

  it('says what is wrong with anything else', () => {
    expect(parseAnswer('script.run', { ok: true, result: { ...result, executionTime: -1 } })).toEqual({ ok: false, invalid: '/result/executionTime must be >= 0' });
    expect(parseAnswer('script.run', { ok: true, result: { ...result, timedOut: 'no' } })).toEqual({ ok: false, invalid: '/result/timedOut must be boolean' });
    expect(parseAnswer('script.run', { ok: false, error: '' })).toEqual({ ok: false, invalid: '/error must NOT have fewer than 1 characters' });
    expect(parseAnswer('script.run', null)).toEqual({ ok: false, invalid: '/ok is required' });
  });
});

/**
 * docs/agent-protocol.md is the contract agents are written against: every message of its example exchange is
 * valid against the schema the server checks it with, and every message type the server knows is in its tables.
 */
describe('docs/agent-protocol.md and the schemas agree', () => {
  const doc = readFileSync(join(__dirname, '../../../../../../docs/agent-protocol.md'), 'utf8');
  const exchange = /Example exchange:\s*```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const examples = exchange
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { type: string });

  it('has an example exchange covering every message type, each valid against its schema', () => {
    const agentTypes = Object.keys(AGENT_MESSAGES);
    const serverTypes = Object.keys(SERVER_MESSAGES).filter((t) => t !== 'error');
    expect(new Set(examples.map((m) => m.type))).toEqual(new Set([...agentTypes, ...serverTypes]));
    for (const m of examples) {
      if (agentTypes.includes(m.type)) {
        expect(parseAgentMessage(JSON.stringify(m))).toMatchObject({ ok: true });
        if (m.type === 'result') expect(parseAnswer('script.run', m)).toMatchObject({ ok: true });
      } else {
        expect(isServerMessage(m)).toBe(true);
      }
    }
  });

  it('names every message type in its tables', () => {
    for (const type of [...Object.keys(AGENT_MESSAGES), ...Object.keys(SERVER_MESSAGES)]) expect(doc).toContain(`| \`${type}\` |`);
  });
});
