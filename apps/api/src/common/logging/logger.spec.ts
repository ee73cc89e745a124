import { Writable } from 'node:stream';
import { createLogger, registerSecret, requestLineWriter } from './logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _e, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}

describe('logger', () => {
  it('scrubs registered secrets from every line, in messages and in fields', () => {
    const secret = 'rmm_unit-test-secret-value-123';
    registerSecret(secret);
    const { lines, stream } = capture();
    const log = createLogger('info', stream);
    log.info({ body: `backend said: key ${secret} is wrong` }, `calling with ${secret}`);
    expect(lines.join('')).not.toContain(secret);
    expect(lines.join('')).toContain('[REDACTED]');
  });

  it('censors credential headers and passwords', () => {
    const { lines, stream } = capture();
    createLogger('info', stream).info({ headers: { authorization: 'Bearer abc.def.ghi', 'x-api-key': 'k-123456789' }, password: 'pw' }, 'x');
    const out = lines.join('');
    expect(out).not.toContain('abc.def.ghi');
    expect(out).not.toContain('k-123456789');
    expect(out).not.toContain('"pw"');
  });

  it('writes one JSON object per line with a level label', () => {
    const { lines, stream } = capture();
    createLogger('info', stream).warn({ reqId: 'r1' }, 'hello');
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'warn', reqId: 'r1', msg: 'hello', service: 'rmm-server' });
  });

  it("writes the access log's line exactly as logger.info would, secrets scrubbed", () => {
    const secret = 'rmm_unit-test-path-secret-456';
    registerSecret(secret);
    const fields = { reqId: 'id "quoted"\\ \u2028', method: 'GET', path: `/api/v3/keys/${secret}/ä`, status: 404, ms: 12 };
    const viaPino = capture();
    createLogger('info', viaPino.stream).info(fields, 'request');
    const direct = capture();
    requestLineWriter(createLogger('info', direct.stream))!(fields);
    const sameTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');
    expect(direct.lines).toHaveLength(1);
    expect(sameTime(direct.lines[0])).toBe(sameTime(viaPino.lines[0]));
    expect(direct.lines[0]).not.toContain(secret);
    expect(JSON.parse(direct.lines[0])).toMatchObject({ level: 'info', service: 'rmm-server', reqId: fields.reqId, status: 404, ms: 12, msg: 'request' });
  });

  it('writes no access line when the level is above info', () => {
    expect(requestLineWriter(createLogger('warn', capture().stream))).toBeUndefined();
  });
});
