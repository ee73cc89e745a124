import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, SECRET_VARIABLES } from '../../apps/api/src/config/app-config';
import { AGENT_MESSAGES, COMMAND_ANSWERS, SERVER_MESSAGES } from '@app/protocol';
import { toWire, WIRE_EVENTS, WireInput, WireEventName } from '../../apps/api/src/rmm/events/events-wire';
import { section, tableRows } from '../utils/markdown';

// js-yaml (a devDependency; @nestjs/swagger uses the same version): its types are not installed.
const { load } = require('js-yaml') as { load(text: string): unknown };

/**
 * What the documentation names against what the code has, both ways: every event the server can send, every
 * message of the agent protocol and every environment variable is documented, and everything documented exists.
 * The names come from the code itself (the modules, run), never from a list kept here.
 */
const ROOT = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The backticked names of a cell, outside parentheses: "`a`, `b?` (`x`), `ok: true`" is a, b, ok. */
const namesIn = (cell: string): string[] => {
  let outside = '';
  let depth = 0;
  for (const ch of cell) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) outside += ch;
  }
  return [...new Set([...outside.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/[?:].*$/s, '').trim()))];
};

/** The keys of the object a documented cell starts with: "`{run_id, stream: 'stdout'\|'stderr', seq}`: …" is run_id, stream, seq. */
const leadingObjectKeys = (cell: string): string[] | undefined => {
  const m = /^`\{([^}]*)\}`/.exec(cell);
  if (!m) return undefined;
  return m[1].split(',').map((part) => part.split(':')[0].replace(/\?$/, '').trim());
};

describe('docs/events.md and docs/asyncapi.yaml against the events the server sends (events-wire.ts)', () => {
  const messages = section(read('docs/events.md'), '## Messages');
  const rows = tableRows(messages, '| `event` | `data` |');
  const documented = new Map(rows.map(([event, data]) => [event.replace(/`/g, ''), data]));
  const asyncapi = load(read('docs/asyncapi.yaml')) as {
    components: { messages: Record<string, { name: string; payload: { allOf: Array<Record<string, any>> } }>; schemas: Record<string, unknown> };
  };

  /**
   * What the mapper puts in `data` for each event, found by running it on an input whose every field is a marker:
   * `passThrough` when data is an object of the REST API handed on as it is (the agent, an alert), else the fields
   * it builds, with the constant ones' values.
   */
  const wireData = (event: WireEventName): { passThrough: true } | { passThrough: false; fields: Record<string, unknown> } => {
    const marker = (field: string | symbol) => ({ markerOf: String(field) });
    const input = new Proxy({}, { get: (_t, field) => marker(field) }) as WireInput[typeof event];
    const data = toWire(event, input, new Date()).data as Record<string, unknown>;
    return 'markerOf' in data ? { passThrough: true } : { passThrough: false, fields: data };
  };

  it('documents every event the server sends, and only those, one table row each', () => {
    expect(rows.length).toBe(documented.size); // no event documented twice
    expect([...documented.keys()].sort()).toEqual([...WIRE_EVENTS].sort());
  });

  it("documents each event's data fields as the mapper builds them (and the constant values it sends)", () => {
    for (const event of WIRE_EVENTS) {
      const cell = documented.get(event) ?? '';
      const wire = wireData(event);
      if (wire.passThrough) {
        // the agent or an alert as the REST API shows it: the row says which, and lists no fields of its own
        expect([event, leadingObjectKeys(cell), /as `?GET \/api\/v3\/|as REST shows it/.test(cell)]).toEqual([event, undefined, true]);
        continue;
      }
      expect([event, leadingObjectKeys(cell)]).toEqual([event, Object.keys(wire.fields)]);
      for (const [field, value] of Object.entries(wire.fields)) {
        if (typeof value === 'string') expect([event, field, cell.includes(`${field}: '${value}'`)]).toEqual([event, field, true]);
      }
    }
  });

  it("describes each event's data fields the same way in docs/asyncapi.yaml", () => {
    for (const event of WIRE_EVENTS) {
      const message = Object.values(asyncapi.components.messages).find((m) => m.name === event);
      const data = message?.payload.allOf.find((part) => part.properties?.data)?.properties.data as { properties?: Record<string, unknown>; $ref?: string } | undefined;
      const wire = wireData(event);
      if (wire.passThrough) {
        // the REST API's object: a schema of the document's components
        expect([event, JSON.stringify(data ?? null)]).toEqual([event, expect.stringContaining('"$ref":"#/components/schemas/')]);
        continue;
      }
      const own = data?.$ref ? (asyncapi.components.schemas[data.$ref.replace('#/components/schemas/', '')] as typeof data) : data;
      expect([event, Object.keys(own?.properties ?? {}).sort()]).toEqual([event, Object.keys(wire.fields).sort()]);
    }
  });
});

describe('docs/agent-protocol.md against the messages of libs/protocol (both ends\' schemas)', () => {
  const doc = read('docs/agent-protocol.md');
  const serverRows = tableRows(section(doc, '### Server → agent'), '| `type` | Fields | Meaning |');
  const agentRows = tableRows(section(doc, '### Agent → server'), '| `type` | Fields | Meaning |');
  const typeOf = (row: string[]) => row[0].replace(/`/g, '');
  const schemaFields = (schema: { properties: Record<string, unknown> }) => Object.keys(schema.properties).filter((f) => f !== 'type');

  it('documents every message the server sends an agent (SERVER_MESSAGES), and only those', () => {
    expect(serverRows.map(typeOf).sort()).toEqual(Object.keys(SERVER_MESSAGES).sort());
  });

  it('documents every message an agent may send (AGENT_MESSAGES), and only those', () => {
    expect(agentRows.map(typeOf).sort()).toEqual(Object.keys(AGENT_MESSAGES).sort());
  });

  it("lists each message's fields as its schema has them", () => {
    for (const row of serverRows) {
      const schema = SERVER_MESSAGES[typeOf(row) as keyof typeof SERVER_MESSAGES];
      expect([typeOf(row), namesIn(row[1]).sort()]).toEqual([typeOf(row), schemaFields(schema).sort()]);
    }
    for (const row of agentRows) {
      const type = typeOf(row) as keyof typeof AGENT_MESSAGES;
      // an answer's own fields are in the answer schemas of the commands (COMMAND_ANSWERS)
      const answers = type === 'result' ? Object.values(COMMAND_ANSWERS).flatMap((a) => a.anyOf.flatMap((s) => Object.keys(s.properties))) : [];
      expect([type, namesIn(row[1]).sort()]).toEqual([type, [...new Set([...schemaFields(AGENT_MESSAGES[type]), ...answers])].sort()]);
    }
  });

  it('names as commands (answered with `result`) exactly those COMMAND_ANSWERS has, with their results\' fields', () => {
    const commands = serverRows.filter((row) => /answer with `result`/.test(row[2])).map(typeOf);
    expect(commands.sort()).toEqual(Object.keys(COMMAND_ANSWERS).sort());
    const result = agentRows.find((row) => typeOf(row) === 'result')!;
    for (const [command, answer] of Object.entries(COMMAND_ANSWERS)) {
      // each command's result, after its name: "for `files.list` `result: {path, entries, next_cursor}`"
      const documented = new RegExp(`\`${command.replace(/\./g, '\\.')}\`[^\`]*\`result: \\{([^}]*)\\}\``).exec(result[1])?.[1].split(',').map((f) => f.trim()).filter(Boolean);
      expect([command, documented]).toEqual([command, Object.keys(answer.anyOf[0].properties.result.properties)]);
    }
  });
});

describe('docs/configuration.md, "Environment variables", against what app-config.ts reads', () => {
  /** The names loadConfig reads, found by running it on an environment that records every read. */
  const seen: string[] = [];
  loadConfig(new Proxy({} as Record<string, string | undefined>, { get: (_t, name) => (seen.push(String(name)), undefined) }), '/');
  const variables = [...new Set(seen)].sort();
  const rows = tableRows(section(read('docs/configuration.md'), '## Environment variables'), '| Variable | Default | Meaning |');
  const namesOf = (cell: string) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]);

  it('reads variables (the recording works)', () => {
    expect(variables.length).toBeGreaterThan(30);
    expect(variables).toContain('PORT');
  });

  it('documents every variable the server reads, and only those, each once', () => {
    const documented = rows.flatMap((row) => namesOf(row[0]));
    expect(documented.length).toBe(new Set(documented).size);
    expect([...documented].sort()).toEqual(variables);
  });

  it('marks exactly the secret variables (SECRET_VARIABLES: never logged) as secret', () => {
    const secret = rows.filter((row) => row[0].includes('(secret)')).flatMap((row) => namesOf(row[0]));
    expect(secret.sort()).toEqual([...SECRET_VARIABLES].sort());
  });
});
