import * as enums from '../../entities/src/enums';
import { AGENT_MESSAGES, COMMAND_ANSWERS, compileSchema, FactsSchema, LogBudget, messageParser, protocolAjv, RegisteredSchema, SERVER_MESSAGES } from '.';
import * as constants from './constants';

describe('libs/protocol', () => {
  it('compiles every schema of both directions with the strict Ajv both ends use', () => {
    const ajv = protocolAjv();
    const schemas = [...Object.values(AGENT_MESSAGES), ...Object.values(SERVER_MESSAGES), ...Object.values(COMMAND_ANSWERS), FactsSchema, RegisteredSchema];
    for (const schema of schemas) expect(typeof compileSchema(ajv, schema)).toBe('function');
  });

  it('gives each message type one schema, whose `type` is that type', () => {
    for (const [type, schema] of [...Object.entries(AGENT_MESSAGES), ...Object.entries(SERVER_MESSAGES)]) {
      expect([type, schema.properties.type.const]).toEqual([type, type]);
    }
  });

  it("is where libs/entities' protocol enumerations come from (one list, not two)", () => {
    for (const name of ['PLATFORMS', 'MONITORING_TYPES', 'AGENT_TARGETS', 'SHELLS', 'CHECK_TYPES', 'CHECK_STATUSES'] as const) {
      expect([name, enums[name]]).toEqual([name, constants[name]]);
      expect(enums[name]).toBe(constants[name]);
    }
  });

  it('compiles a parser\'s schemas at its first frame, and answers by type with the schema of that type', () => {
    const parse = messageParser(SERVER_MESSAGES, { unknownType: (t) => `unknown: ${String(t)}` });
    expect(parse('{"type":"agent.uninstall"}')).toEqual({ ok: true, type: 'agent.uninstall', message: { type: 'agent.uninstall' } });
    expect(parse('{"type":"heartbeat"}')).toEqual({ ok: false, error: 'unknown: heartbeat' }); // the other direction's
    expect(parse('{"type":"constructor"}')).toEqual({ ok: false, error: 'unknown: constructor' });
    expect(parse('{"type":"agent.uninstall","id":7}')).toEqual({ ok: false, error: 'invalid agent.uninstall: /id must be string' });
  });
});

describe('LogBudget', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('writes `max` lines a window, then the count of the others when the window ends', () => {
    const lines: string[] = [];
    const budget = new LogBudget((l) => lines.push(l), { max: 2, windowMs: 1_000, dropped: (n) => `${n} more` });
    for (const l of ['a', 'b', 'c', 'd']) budget.line(l);
    expect(lines).toEqual(['a', 'b']);
    jest.advanceTimersByTime(999);
    expect(lines).toEqual(['a', 'b']);
    jest.advanceTimersByTime(1);
    expect(lines).toEqual(['a', 'b', '2 more']);
    budget.line('e');
    expect(lines).toEqual(['a', 'b', '2 more', 'e']);
  });

  it('writes the count at once when flushed (the process stops), and nothing when none was dropped', () => {
    const lines: string[] = [];
    const budget = new LogBudget((l) => lines.push(l), { max: 1, windowMs: 60_000, dropped: (n) => `${n} more` });
    budget.flush();
    budget.line('a');
    budget.line('b');
    budget.flush();
    expect(lines).toEqual(['a', '1 more']);
    jest.advanceTimersByTime(60_000);
    expect(lines).toEqual(['a', '1 more']);
  });
});
