import type { SessionIo } from './kind';
import { crToLf, openTerminal, terminalParams } from './terminal';

// What is refused before any shell starts (the shell's own behaviour: test/medium/agent/terminal.medium-spec.ts on
// pipes, test/agent/terminal-pty.e2e-spec.ts on a real terminal under Bun).
const io: SessionIo = { write: () => Promise.resolve(), opened: () => undefined, end: () => undefined, log: () => undefined };

describe('terminal params', () => {
  it.each([
    [{ rows: 24 }, 'invalid terminal params: cols must be a whole number from 1 to 1000'],
    [{ cols: 0, rows: 24 }, 'invalid terminal params: cols must be a whole number from 1 to 1000'],
    [{ cols: 80, rows: 1001 }, 'invalid terminal params: rows must be a whole number from 1 to 1000'],
    [{ cols: 80.5, rows: 24 }, 'invalid terminal params: cols must be a whole number from 1 to 1000'],
    [{ cols: '80', rows: 24 }, 'invalid terminal params: cols must be a whole number from 1 to 1000'],
    [{ cols: 80, rows: 24, shell: 7 }, 'invalid terminal params: shell must be a name or an absolute path'],
    [{ cols: 80, rows: 24, shell: '' }, 'invalid terminal params: shell must be a name or an absolute path'],
  ])('refuses %j', async (params, message) => {
    await expect(Promise.resolve().then(() => openTerminal(params, io))).rejects.toThrow(message);
  });

  it('takes the limits themselves', () => {
    expect(terminalParams({ cols: 1, rows: 1000, shell: 'bash' })).toEqual({ cols: 1, rows: 1000, shell: 'bash' });
  });

  it('refuses a shell that is not there, by name, by path or relative', async () => {
    for (const shell of ['no-such-shell-here', '/no/such/shell', 'bin/bash', '/etc']) {
      await expect(Promise.resolve().then(() => openTerminal({ cols: 80, rows: 24, shell }, io))).rejects.toThrow(`no such shell: ${shell}`);
    }
  });
});

describe('input for a shell on pipes (no line discipline)', () => {
  const bytes = (text: string): number[] => [...Buffer.from(text)];
  it('turns Enter (CR) into LF, keeps CR LF as one line end, and leaves every other byte alone', () => {
    expect([...crToLf(Buffer.from('echo hi\r'), false)]).toEqual(bytes('echo hi\n'));
    expect([...crToLf(Buffer.from('a\r\nb\n'), false)]).toEqual(bytes('a\nb\n'));
    expect([...crToLf(Buffer.from('\nc'), true)]).toEqual(bytes('c'));
    const emoji = Buffer.from([0xf0, 0x9f, 0x98, 0x80, 0x0a]);
    expect(crToLf(emoji, false)).toBe(emoji);
  });
});
