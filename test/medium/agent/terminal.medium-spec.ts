import { readFileSync } from 'node:fs';
import type { SessionHandler } from '../../../apps/agent/src/sessions/kind';
import { NO_TTY_NOTICE, openTerminal } from '../../../apps/agent/src/sessions/terminal';
import { RecordingIo } from './session-io.fake';

/**
 * The terminal session on pipes (what the agent does under Node.js, as here: no Bun, so no pseudo-terminal), with a
 * real shell. The pseudo-terminal under Bun: test/agent/terminal-pty.e2e-spec.ts.
 */
const send = (h: SessionHandler, text: string) => h.data!(Buffer.from(text));

/** Gone, or a zombie nobody reaps (PID 1 of this machine does not reap orphans). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw err;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

describe('terminal on pipes', () => {
  let io: RecordingIo;
  let handler: SessionHandler | undefined;
  beforeEach(() => {
    io = new RecordingIo();
    handler = undefined;
  });
  afterEach(async () => {
    if (handler && !io.ended) await handler.close('closed');
  });

  it('says first that there is no TTY, then runs what is typed, stderr joined', async () => {
    handler = await openTerminal({ cols: 80, rows: 24, shell: 'bash' }, io);
    expect(io.openedInfo).toMatchObject({ pty: false, shell: expect.stringMatching(/\/bash$/), pid: expect.any(Number) });
    await send(handler, 'echo $((6*7)); echo oops >&2\n');
    await io.until('42 and oops', () => io.text().includes('oops\n'));
    expect(io.text()).toBe(`${NO_TTY_NOTICE}42\noops\n`);
    expect(io.writesBeforeOpened).toBe(0);
  });

  it('passes bytes through untouched: a 4-byte UTF-8 character, and one cut in half', async () => {
    handler = await openTerminal({ cols: 80, rows: 24 }, io);
    await send(handler, "printf '\\xf0\\x9f\\x98\\x80|\\xf0\\x9f'; echo\n");
    await io.until('the bytes', () => io.bytes().includes(0x0a, NO_TTY_NOTICE.length));
    expect(io.bytes().subarray(Buffer.byteLength(NO_TTY_NOTICE))).toEqual(Buffer.from([0xf0, 0x9f, 0x98, 0x80, 0x7c, 0xf0, 0x9f, 0x0a]));
  });

  it("ends with the shell's exit code once its output is sent", async () => {
    handler = await openTerminal({ cols: 80, rows: 24, shell: '/bin/sh' }, io);
    await send(handler, 'echo bye; exit 3\n');
    await io.until('the end', () => io.ended !== undefined);
    expect(io.ended).toEqual({ reason: 'exit', extra: { code: 3 } });
    expect(io.text()).toBe(`${NO_TTY_NOTICE}bye\n`);
  });

  it('sends every byte of a flood, in order, while the server takes them slowly', async () => {
    handler = await openTerminal({ cols: 80, rows: 24 }, io);
    io.hold();
    await send(handler, 'seq 1 200000; exit 0\n');
    const expected = `${NO_TTY_NOTICE}${Array.from({ length: 200_000 }, (_, i) => `${i + 1}\n`).join('')}`;
    while (!io.ended) {
      io.release();
      io.hold();
      await io.until('more output or the end', () => io.ended !== undefined || io.chunks.length > 0, 15_000).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 5));
    }
    io.release();
    expect(io.text()).toBe(expected);
    expect(io.ended).toEqual({ reason: 'exit', extra: { code: 0 } });
  });

  it('kills what the shell started when closed, and says resize does nothing here', async () => {
    handler = await openTerminal({ cols: 80, rows: 24, shell: 'bash' }, io);
    await send(handler, 'sleep 300 & echo "pid:$!"\n');
    await io.until('the pid', () => /pid:(\d+)\n/.test(io.text()));
    const pid = Number(/pid:(\d+)\n/.exec(io.text())![1]);
    const shell = io.openedInfo!.pid as number;
    expect(gone(pid)).toBe(false);
    handler.control!({ type: 'resize', cols: 100, rows: 40 });
    handler.control!({ type: 'resize', cols: 100, rows: -1 });
    expect(io.logs).toEqual(['terminal: ignored resize to 100x-1 (cols and rows are 1..1000)']);
    await handler.close('closed');
    expect(gone(pid)).toBe(true);
    expect(gone(shell)).toBe(true);
    handler = undefined;
  });
});
