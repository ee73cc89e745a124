import fc from 'fast-check';
import { compileSchema, describeErrors, protocolAjv, RegisteredSchema, SERVER_MESSAGE_TYPES, SERVER_MESSAGE_VALIDATORS, SERVER_MESSAGES, ServerMessageType, Validator, validateRegistered } from '.';

/**
 * The agent checks the server's messages with validators generated ahead of time from the schemas
 * (generated/agent-validators.ts, by scripts/protocol-validators.js): its verdicts and complaints must be those of
 * the schemas compiled by Ajv, as the server compiles them. (That the committed file is what the schemas make now is
 * test/medium/protocol/agent-validators-drift.medium-spec.ts: the generator runs esbuild, a process.)
 */
describe('the generated agent validators (libs/protocol/src/generated/agent-validators.ts)', () => {
  it('cover every message type of SERVER_MESSAGES, in its order', () => {
    expect(SERVER_MESSAGE_TYPES).toEqual(Object.keys(SERVER_MESSAGES));
    expect(Object.keys(SERVER_MESSAGE_VALIDATORS)).toEqual(Object.keys(SERVER_MESSAGES));
  });

  const ajv = protocolAjv();
  const pairs: Array<[string, Validator<unknown>, Validator<unknown>]> = [
    ...SERVER_MESSAGE_TYPES.map((type): [string, Validator<unknown>, Validator<unknown>] => [type, SERVER_MESSAGE_VALIDATORS[type], compileSchema(ajv, SERVER_MESSAGES[type])]),
    ['registered', validateRegistered, compileSchema(ajv, RegisteredSchema)],
  ];
  /** What a validator says of a value: its verdict and Ajv's error objects (which describeErrors reads). */
  const verdict = (validate: Validator<unknown>, value: unknown) => {
    const ok = validate(value);
    return { ok, errors: validate.errors ?? null, said: ok ? null : describeErrors(validate.errors) };
  };

  const valid: Record<ServerMessageType | 'registered', Record<string, unknown>> = {
    hello: { type: 'hello', agent_id: '7', heartbeat_seconds: 30, server_time: '2026-11-28T12:00:00.000Z' },
    'script.run': { type: 'script.run', id: 'r1', runId: 1, shell: 'bash', body: 'echo hi', args: ['a'], timeoutSeconds: 5 },
    'checks.sync': {
      type: 'checks.sync',
      id: 's1',
      checks: [{ id: 7, checkType: 'script', name: 'S', runInterval: 60, settings: {}, script: { shell: 'bash', body: 'true', args: [], timeoutSeconds: 5 } }],
    },
    error: { type: 'error', message: 'invalid check.result: /checkId must be integer' },
    'update.available': { type: 'update.available', version: '0.1.1', target: 'linux-amd64', url: '/agent/v1/download/linux-amd64', sha256: 'ab'.repeat(32), size: 10, signature: 'c2ln' },
    'agent.uninstall': { type: 'agent.uninstall', id: 'u1' },
    'files.list': { type: 'files.list', id: 'f1', path: '/tmp', cursor: null },
    'files.upload.begin': { type: 'files.upload.begin', id: 'f2', upload: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', path: '/tmp/a.bin', size: 10, overwrite: false },
    'files.upload.finish': { type: 'files.upload.finish', id: 'f3', upload: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', path: '/tmp/a.bin', size: 10, sha256: 'ab'.repeat(32), overwrite: false },
    'files.upload.abort': { type: 'files.upload.abort', id: 'f4', upload: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', path: '/tmp/a.bin' },
    'session.open': { type: 'session.open', session: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', kind: 'terminal', params: { cols: 80, rows: 24 } },
    'session.ack': { type: 'session.ack', session: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', seq: 3 },
    'session.control': { type: 'session.control', session: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', control: { type: 'resize', cols: 120, rows: 50 } },
    'session.close': { type: 'session.close', session: '0b6f3a0e-8c1d-4f8e-9d2a-5e7b1c3d4f60', reason: 'closed' },
    registered: { agent_id: '12', agent_secret: 'agt_x', hostname: 'h', client: 1, site: 2, reenrolled: false },
  };
  /** Each bound the schemas set (minimum, maximum, minLength, maxLength): values on it and on either side of it. */
  const bounds = (schema: unknown, out = new Set<unknown>()): Set<unknown> => {
    if (typeof schema !== 'object' || schema === null) return out;
    for (const [key, v] of Object.entries(schema)) {
      if (typeof v === 'number' && (key === 'minimum' || key === 'maximum')) for (const n of [v - 1, v - 0.5, v, v + 1]) out.add(n);
      else if (typeof v === 'number' && (key === 'minLength' || key === 'maxLength')) {
        for (const n of [v - 1, v, v + 1].filter((n) => n >= 0)) out.add('x'.repeat(n)).add('😀'.repeat(n)); // (Ajv counts code points)
      } else bounds(v, out);
    }
    return out;
  };
  const wrong: unknown[] = [
    ...[undefined, null, true, 0, -1, 1.5, 1e308, '', 'x', '12345678901', '\u0000', [], [1], ['a', 2], {}, { a: 1 }],
    ...bounds([SERVER_MESSAGES, RegisteredSchema]),
  ];

  /** Every field of a message (nested ones too, by path), set to each wrong value in turn; and the message without it. */
  function* mutations(value: unknown, path: Array<string | number> = []): Generator<unknown> {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      const k = Array.isArray(value) ? Number(key) : key;
      for (const w of wrong) yield setAt(path, k, w);
      yield* mutations(child, [...path, k]);
    }
  }
  let base: unknown;
  const setAt = (path: Array<string | number>, key: string | number, to: unknown): unknown => {
    const copy = structuredClone(base) as Record<string | number, unknown>;
    let at = copy;
    for (const p of path) at = at[p] as Record<string | number, unknown>;
    if (to === undefined) delete at[key];
    else at[key] = to;
    return copy;
  };

  it.each(pairs)('say of %s, valid and with each field wrong or on a bound, what the compiled schema says: the same verdict and error objects', (name, generated, compiled) => {
    base = valid[name as keyof typeof valid];
    const cases = [base, ...mutations(base), null, 'x', [], {}, { type: name }];
    let refused = 0;
    for (const value of cases) {
      const g = verdict(generated, value);
      expect([value, g]).toEqual([value, verdict(compiled, value)]);
      if (!g.ok) refused++;
    }
    expect(verdict(generated, base)).toEqual({ ok: true, errors: null, said: null });
    expect(refused).toBeGreaterThan(cases.length / 2); // (the cases do test the refusals)
  });

  it.each(pairs)('agree with the compiled schema on arbitrary values near a valid %s', (name, generated, compiled) => {
    const near = valid[name as keyof typeof valid];
    const anyValue = fc.jsonValue({ maxDepth: 3 });
    const arb = fc.oneof(
      anyValue,
      fc.record({ field: fc.constantFrom(...Object.keys(near), 'extra'), to: anyValue }).map(({ field, to }) => ({ ...near, [field]: to })),
      fc.dictionary(fc.constantFrom(...Object.keys(near)), anyValue).map((fields) => ({ ...near, ...fields })),
    );
    fc.assert(
      fc.property(arb, (value) => {
        expect(verdict(generated, value)).toEqual(verdict(compiled, value));
      }),
      { numRuns: 500 },
    );
  });
});
