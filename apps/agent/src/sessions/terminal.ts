// The terminal session: a shell on the device, its bytes both ways untouched (never decoded: a character cut between
// two reads stays cut until the browser's terminal joins it). Under Bun (the single-file agent) on Linux and macOS the
// shell gets a real pseudo-terminal (Bun.spawn's `terminal`); elsewhere (the Node.js bundle, Windows, where ConPTY is
// not wired) it runs on pipes, and says so first. Closing kills every process the shell started in its session.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import type { SessionHandler, SessionIo, SessionOpener } from './kind';

/** The first bytes of a terminal on pipes. */
export const NO_TTY_NOTICE = 'rmm-agent: no TTY on this agent (pipes): programs that need a terminal will not work\r\n';
/** Output held for the server before the shell is asked to stop writing (the session's window). */
const OUTPUT_HIGH = 256 * 1024;
/** Output held below which the shell may write again. */
const OUTPUT_LOW = 64 * 1024;
/** Output held when the shell cannot be stopped (a raw-mode program): past it the session ends rather than grow. */
const OUTPUT_OVERFLOW = 16 * 1024 * 1024;
/** After the shell exits, how long its output may still come (a background job holding the terminal open). */
const DRAIN_MS = 2_000;
/** close(): SIGHUP, then SIGKILL after this long to what is left; close resolves within CLOSE_MS whatever happens. */
const HANGUP_MS = 2_000;
const CLOSE_MS = 4_500;
/** The terminal's flow control (termios c_iflag IXON): the tty line discipline takes XOFF/XON as stop/start. */
const IXON = process.platform === 'darwin' ? 0x200 : 0o2000;
const XOFF = Uint8Array.of(0x13);
const XON = Uint8Array.of(0x11);
/** Shells known to take -l (a login shell, as SSH starts: the profile's PATH and environment). */
const LOGIN_SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh', 'mksh', 'fish']);

export interface TerminalParams {
  cols: number;
  rows: number;
  shell?: string;
}

/** The params checked: cols and rows whole numbers 1..1000, shell a string if given. */
export function terminalParams(params: Record<string, unknown>): TerminalParams {
  const size = (name: 'cols' | 'rows'): number => {
    const v = params[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 1000) throw new Error(`invalid terminal params: ${name} must be a whole number from 1 to 1000`);
    return v;
  };
  const cols = size('cols');
  const rows = size('rows');
  const shell = params.shell;
  if (shell !== undefined && (typeof shell !== 'string' || shell === '' || shell.includes('\0'))) throw new Error('invalid terminal params: shell must be a name or an absolute path');
  return { cols, rows, shell };
}

// Bun's API as far as the agent uses it (Bun 1.4; the repository carries no Bun types).
interface BunTerminal {
  write(data: Uint8Array | string): number;
  resize(cols: number, rows: number): void;
  close(): void;
  readonly closed: boolean;
  readonly inputFlags: number;
}
interface BunSubprocess {
  readonly pid: number;
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
}
interface BunRuntime {
  spawn(
    cmd: string[],
    options: {
      cwd?: string;
      env?: Record<string, string | undefined>;
      terminal: {
        cols: number;
        rows: number;
        name?: string;
        data(terminal: BunTerminal, bytes: Uint8Array): void;
        drain?(terminal: BunTerminal): void;
        exit?(terminal: BunTerminal, status: number, signal: string | null): void;
      };
    },
  ): BunSubprocess & { readonly terminal: BunTerminal };
}

export const openTerminal: SessionOpener = (params, io) => {
  const { cols, rows, shell: asked } = terminalParams(params);
  const shell = asked === undefined ? defaultShell() : findShell(asked);
  if (!shell) throw new Error(`no such shell: ${asked}`);
  const bun = (globalThis as { Bun?: BunRuntime }).Bun;
  if (bun && process.platform !== 'win32') return openPty(bun, shell, cols, rows, io);
  return openPipes(shell, io);
};

/** The shell: $SHELL if it is there, else zsh (macOS) or bash, else sh; PowerShell on Windows. */
function defaultShell(): string {
  if (process.platform === 'win32') return findShell('powershell.exe') ?? findShell('pwsh.exe') ?? 'cmd.exe';
  const fromEnv = process.env.SHELL ? findShell(process.env.SHELL) : undefined;
  return fromEnv ?? findShell(process.platform === 'darwin' ? 'zsh' : 'bash') ?? findShell('sh') ?? '/bin/sh';
}

/** An executable named (looked up on PATH) or at an absolute path; undefined when there is none. */
function findShell(name: string): string | undefined {
  if (isAbsolute(name)) return isExecutable(name) ? name : undefined;
  if (/[\\/]/.test(name)) return undefined;
  const exts = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';')] : [''];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function home(): string {
  try {
    const dir = homedir();
    return statSync(dir).isDirectory() ? dir : '/';
  } catch {
    return process.platform === 'win32' ? process.env.SystemDrive ?? 'C:\\' : '/';
  }
}

/**
 * The shell's output on its way to the server: held while io.write is pending, written in order, joined while it
 * waits. `pause`/`resume` ask the source to stop and start (called on crossing OUTPUT_HIGH and OUTPUT_LOW).
 */
class OutputQueue {
  private queue: Uint8Array[] = [];
  private held = 0;
  private pumping: Promise<void> | undefined;
  private paused = false;
  /** Set once io.write rejected (the session ended): nothing more is sent. */
  failed = false;

  constructor(
    private readonly io: SessionIo,
    private readonly source: { pause(): void; resume(): void; overflow?(): void },
  ) {}

  get size(): number {
    return this.held;
  }

  push(bytes: Uint8Array): void {
    if (this.failed || bytes.length === 0) return;
    this.queue.push(bytes);
    this.held += bytes.length;
    if (this.held > OUTPUT_HIGH && !this.paused) {
      this.paused = true;
      this.source.pause();
    }
    if (this.held > OUTPUT_OVERFLOW) this.source.overflow?.();
    this.pumping ??= this.pump().finally(() => (this.pumping = undefined));
  }

  /** Resolves once everything pushed so far was written (or the session ended). */
  async flushed(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private async pump(): Promise<void> {
    while (this.queue.length && !this.failed) {
      const parts = this.queue;
      this.queue = [];
      const chunk = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      try {
        await this.io.write(chunk);
      } catch {
        this.failed = true;
        this.queue = [];
      }
      this.held -= chunk.length;
      if (this.paused && this.held <= OUTPUT_LOW) {
        this.paused = false;
        this.source.resume();
      }
    }
    if (this.failed) this.held = 0;
  }
}

/**
 * A shell on a pseudo-terminal (Bun). Bun's PTY makes the shell a session leader (pid = pgid = sid), as `ps -o
 * pid,pgid,sid` shows. Its output comes by callback with no way to pause the read, so the agent uses the terminal's
 * own flow control: past OUTPUT_HIGH held it writes XOFF (^S) into the terminal, which the line discipline takes as
 * "stop output" while IXON is on (a shell's and a line-oriented program's default), so the program blocks in
 * write() once the kernel's buffer (some KiB) is full; XON (^Q) when the queue is down to OUTPUT_LOW. A program
 * that turns IXON off (raw mode: vim, less, top) would read ^S as a key, so none is sent then: its output is held
 * (nothing dropped) up to OUTPUT_OVERFLOW, past which the session ends with an error rather than grow the agent.
 */
function openPty(bun: BunRuntime, shell: string, cols: number, rows: number, io: SessionIo): SessionHandler {
  let stoppedByUs = false;
  let closing = false;
  let eof: () => void = () => undefined;
  const eofSeen = new Promise<void>((resolve) => (eof = resolve));
  let drained: (() => void) | undefined;
  const ixon = (): boolean => !term.closed && (term.inputFlags & IXON) !== 0;
  const output = new OutputQueue(io, {
    pause: () => {
      if (ixon()) {
        term.write(XOFF);
        stoppedByUs = true;
      }
    },
    resume: () => {
      // With IXON turned off meanwhile the kernel restarted the output itself, and ^Q would be a key.
      if (stoppedByUs && ixon()) term.write(XON);
      stoppedByUs = false;
    },
    overflow: () => {
      if (closing) return;
      closing = true;
      io.log(`terminal: over ${OUTPUT_OVERFLOW} bytes of output held for a terminal that does not stop (IXON off): ending it`);
      io.end(`output overflow: over ${OUTPUT_OVERFLOW} bytes held`, { error: true });
      void killSession(proc.pid).finally(() => term.close());
    },
  });
  const proc = bun.spawn([shell, ...(LOGIN_SHELLS.has(basename(shell)) ? ['-l'] : [])], {
    cwd: home(),
    env: { ...process.env, TERM: 'xterm-256color' },
    terminal: {
      cols,
      rows,
      name: 'xterm-256color',
      // Bun hands a new buffer each time; a copy all the same, since it waits in the queue.
      data: (_t, bytes) => output.push(bytes.slice()),
      drain: () => {
        drained?.();
        drained = undefined;
      },
      exit: () => eof(),
    },
  });
  // (Bun calls data, drain and exit from the event loop, never during spawn: `term` is set by then)
  const term: BunTerminal = proc.terminal;
  io.opened({ pty: true, shell, pid: proc.pid });

  void proc.exited.then(async (status) => {
    if (closing) return;
    // Everything the shell wrote is read before the terminal reports its end; a job left running in the
    // background may keep it open, so not past DRAIN_MS.
    await Promise.race([eofSeen, delay(DRAIN_MS)]);
    await output.flushed();
    if (closing) return;
    closing = true;
    term.close();
    io.end('exit', { code: proc.exitCode ?? (proc.signalCode ? null : status) });
  });

  return {
    async data(bytes) {
      if (closing || term.closed) return;
      // Bun takes every byte and flushes what the terminal cannot take yet later, then calls drain.
      if (term.write(bytes) < bytes.length) await new Promise<void>((resolve) => (drained = resolve));
    },
    control(control) {
      const size = resizeTo(control, io);
      if (size && !term.closed) term.resize(size.cols, size.rows);
    },
    async close() {
      if (closing) return;
      closing = true;
      drained?.();
      await killSession(proc.pid);
      term.close();
    },
  };
}

/**
 * A shell on pipes (no terminal): stderr joined to stdout in the order written (a `sh -c 'exec 2>&1; exec …'`
 * wrapper on POSIX; two pipes on Windows), the shell non-interactive (an interactive one without a terminal warns
 * about job control and prompts on stderr). `detached` makes it a session leader (setsid) on POSIX. The pipe
 * is paused while its output waits for io.write beyond OUTPUT_HIGH, which blocks the shell's writes: no buffer grows.
 */
async function openPipes(shell: string, io: SessionIo): Promise<SessionHandler> {
  const windows = process.platform === 'win32';
  const name = basename(shell).toLowerCase().replace(/\.exe$/, '');
  const args = windows && (name === 'powershell' || name === 'pwsh') ? ['-NoLogo', '-NoProfile', '-Command', '-'] : [];
  const child: ChildProcess = windows
    ? spawn(shell, args, { cwd: home(), stdio: 'pipe', windowsHide: true, env: { ...process.env, TERM: 'dumb' } })
    : spawn('/bin/sh', ['-c', 'exec 2>&1; exec "$0" "$@"', shell, ...args], { cwd: home(), stdio: 'pipe', detached: true, env: { ...process.env, TERM: 'dumb' } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
  } catch (err) {
    throw new Error(`could not start ${shell}: ${(err as Error).message}`, { cause: err });
  }
  child.stdin!.on('error', () => undefined); // EPIPE once the shell is gone: its exit says the rest
  const outputs = [child.stdout!, child.stderr!];
  let closing = false;
  const output = new OutputQueue(io, {
    pause: () => outputs.forEach((s) => s.pause()),
    resume: () => outputs.forEach((s) => s.resume()),
  });
  io.opened({ pty: false, shell, pid: child.pid });
  output.push(Buffer.from(NO_TTY_NOTICE));
  let lastWasCr = false;
  // (the pipes hold what the shell writes until these listeners read it)
  for (const s of outputs) s.on('data', (chunk: Buffer) => output.push(chunk));
  const outputsClosed = Promise.all(outputs.map((s) => new Promise<void>((resolve) => s.once('close', () => resolve()))));

  void exited.then(async (code) => {
    if (closing) return;
    await Promise.race([outputsClosed, delay(DRAIN_MS)]);
    await output.flushed();
    if (closing) return;
    closing = true;
    for (const s of outputs) s.destroy();
    io.end('exit', { code });
  });

  return {
    async data(bytes) {
      if (closing || !child.stdin!.writable) return;
      // A terminal sends CR for Enter; a shell on pipes ends lines at LF only (no line discipline here to map it).
      const input = crToLf(bytes, lastWasCr);
      lastWasCr = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d;
      if (input.length === 0) return;
      if (!child.stdin!.write(input)) await new Promise<void>((resolve) => child.stdin!.once('drain', resolve).once('close', resolve));
    },
    control(control) {
      // No terminal to size: the programs on pipes see no rows nor columns.
      resizeTo(control, io);
    },
    async close() {
      if (closing) return;
      closing = true;
      await killSession(child.pid!);
      for (const s of [child.stdin!, ...outputs]) s.destroy();
    },
  };
}

/** The size a resize control asks for; null (and a log line) for another control or an invalid size. */
function resizeTo(control: Record<string, unknown>, io: SessionIo): { cols: number; rows: number } | null {
  if (control.type !== 'resize') {
    io.log(`terminal: ignored control ${JSON.stringify(control.type)}`);
    return null;
  }
  const { cols, rows } = control;
  if (!validSize(cols) || !validSize(rows)) {
    io.log(`terminal: ignored resize to ${JSON.stringify(cols)}x${JSON.stringify(rows)} (cols and rows are 1..1000)`);
    return null;
  }
  return { cols, rows };
}

function validSize(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 1000;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

/**
 * Kills everything the shell (a session leader, pid = sid) left in its session: SIGHUP to each process group in it
 * (as a terminal's hang-up does), SIGKILL after HANGUP_MS to what is left; resolves within CLOSE_MS. On Linux the
 * session's groups are read from /proc (an interactive shell puts each job in a group of its own); elsewhere the
 * shell's own group, whose interactive shell passes the SIGHUP on to its jobs. A process that left the session
 * (setsid: a daemon started on purpose) is not the terminal's any more and is left alone. Windows: taskkill /T.
 */
async function killSession(sid: number): Promise<void> {
  if (process.platform === 'win32') {
    await new Promise<void>((resolve) => {
      const killer = spawn('taskkill', ['/PID', String(sid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      killer.once('exit', () => resolve()).once('error', () => resolve());
    });
    return;
  }
  const deadline = Date.now() + CLOSE_MS;
  const signal = (sig: NodeJS.Signals) => {
    for (const pgid of sessionGroups(sid)) {
      try {
        process.kill(-pgid, sig);
      } catch {
        // gone meanwhile
      }
    }
  };
  signal('SIGHUP');
  // A stopped job does not act on SIGHUP until continued (what the kernel does for an orphaned group).
  signal('SIGCONT');
  const hangupUntil = Date.now() + HANGUP_MS;
  while (sessionGroups(sid).length && Date.now() < hangupUntil) await delay(50);
  signal('SIGKILL');
  while (sessionGroups(sid).length && Date.now() < deadline) await delay(50);
}

/** The process groups with a live process (not a zombie) in the session `sid`. */
function sessionGroups(sid: number): number[] {
  if (process.platform === 'linux') {
    const groups = new Set<number>();
    let pids: string[];
    try {
      pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
    } catch {
      pids = [];
    }
    for (const pid of pids) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
        // pid (comm) state ppid pgrp session …: comm may hold spaces and parentheses, so after the last ')'.
        const [state, , pgrp, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(session) === sid && state !== 'Z' && state !== 'X') groups.add(Number(pgrp));
      } catch {
        // gone meanwhile
      }
    }
    return [...groups];
  }
  try {
    process.kill(-sid, 0);
    return [sid];
  } catch {
    return [];
  }
}

/**
 * Input for a shell on pipes: CR (what a terminal sends for Enter) becomes LF, and the LF of a CR LF pair is dropped
 * (`afterCr`: the previous chunk ended with CR); every other byte is passed as it is.
 */
export function crToLf(bytes: Uint8Array, afterCr: boolean): Uint8Array {
  if (!bytes.includes(0x0d) && !(afterCr && bytes[0] === 0x0a)) return bytes;
  const out: number[] = [];
  let prevCr = afterCr;
  for (const b of bytes) {
    if (b === 0x0a && prevCr) {
      prevCr = false;
      continue;
    }
    prevCr = b === 0x0d;
    out.push(b === 0x0d ? 0x0a : b);
  }
  return Uint8Array.from(out);
}
