import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { ScriptResult, ScriptRunMessage } from '@app/protocol/agent';

/** What is kept of each of stdout and stderr (the server stores 64 KiB of each; a message is at most 1 MiB). */
export const OUTPUT_CAP = 256 * 1024;
/** After the script's own process exits, how long its output pipes may stay open (a background child holding them). */
const DRAIN_MS = 2_000;

export type Outcome = { ok: true; result: ScriptResult } | { ok: false; error: string };

interface Interpreter {
  command: string;
  args: (file: string) => string[];
  extension: string;
}

/** The interpreter for a shell on this platform, or why there is none. */
export function interpreterFor(shell: string, platform: NodeJS.Platform = process.platform): Interpreter | string {
  switch (shell) {
    case 'bash':
      return { command: 'bash', args: (f) => [f], extension: '.sh' };
    case 'python':
      return { command: platform === 'win32' ? 'python' : 'python3', args: (f) => [f], extension: '.py' };
    case 'powershell':
      return { command: 'pwsh', args: (f) => ['-NoProfile', '-NonInteractive', '-File', f], extension: '.ps1' };
    case 'cmd':
      if (platform !== 'win32') return 'cmd scripts run only on Windows';
      return { command: 'cmd.exe', args: (f) => ['/c', f], extension: '.cmd' };
    default:
      return `unknown shell: ${shell}`;
  }
}

/** Collects a stream's first `cap` bytes and drops the rest (still reading it, so the writer never blocks). */
function capture(cap: number): { push: (b: Buffer) => void; text: () => string } {
  const parts: Buffer[] = [];
  let kept = 0;
  return {
    push: (b) => {
      if (kept >= cap) return;
      const take = b.subarray(0, cap - kept);
      parts.push(take);
      kept += take.length;
    },
    text: () => Buffer.concat(parts).toString('utf8'),
  };
}

/** Output is streamed in chunks of at most this many characters, held at most COALESCE_MS. */
export const CHUNK_MAX = 16 * 1024;
export const COALESCE_MS = 100;

export type Stream = 'stdout' | 'stderr';
export interface Chunk {
  stream: Stream;
  chunk: string;
  seq: number;
}

/**
 * Turns a script's writes into the protocol's script.output chunks: in the order produced across both
 * streams, seq from 0, small writes held together for at most `delayMs` or `max` characters (a switch of
 * stream sends what is held first). UTF-8 split across writes is decoded whole. Each stream stops being sent
 * past `cap` bytes (the result carries what is kept). Timers are injectable, for tests.
 */
export class OutputCoalescer {
  private seq = 0;
  private held: { stream: Stream; text: string } | undefined;
  private timer: unknown;
  private readonly decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  private readonly sent = { stdout: 0, stderr: 0 };

  constructor(
    private readonly emit: (c: Chunk) => void,
    private readonly options: { max?: number; delayMs?: number; cap?: number; setTimer?: (fn: () => void, ms: number) => unknown; clearTimer?: (t: unknown) => void } = {},
  ) {}

  push(stream: Stream, data: Buffer): void {
    const cap = this.options.cap ?? OUTPUT_CAP;
    if (this.sent[stream] >= cap) return;
    const take = data.subarray(0, cap - this.sent[stream]);
    this.sent[stream] += take.length;
    this.add(stream, this.decoders[stream].write(take));
  }

  /** Sends whatever is held (the script ended). */
  end(): void {
    this.add('stdout', this.decoders.stdout.end());
    this.add('stderr', this.decoders.stderr.end());
    this.flush();
  }

  private add(stream: Stream, text: string): void {
    if (text === '') return;
    const max = this.options.max ?? CHUNK_MAX;
    if (this.held && this.held.stream !== stream) this.flush();
    let rest = (this.held?.text ?? '') + text;
    while (rest.length >= max) {
      this.held = { stream, text: rest.slice(0, max) };
      rest = rest.slice(max);
      this.flush();
    }
    this.held = rest === '' ? undefined : { stream, text: rest };
    if (this.held && this.timer === undefined) {
      const set = this.options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
      this.timer = set(() => {
        this.timer = undefined;
        this.flush();
      }, this.options.delayMs ?? COALESCE_MS);
    }
  }

  private flush(): void {
    if (this.timer !== undefined) {
      (this.options.clearTimer ?? ((t: unknown) => clearTimeout(t as NodeJS.Timeout)))(this.timer);
      this.timer = undefined;
    }
    if (!this.held) return;
    const { stream, text } = this.held;
    this.held = undefined;
    this.emit({ stream, chunk: text, seq: this.seq++ });
  }
}

/** Process groups of the scripts running now. */
const running = new Set<number>();

/** Kills every script still running (the agent is stopping). */
export function killAllScripts(): void {
  for (const pid of running) killGroup(pid);
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') spawn('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore' });
    else process.kill(-pid, 'SIGKILL'); // the whole group: the script and everything it started
  } catch {
    /* already gone */
  }
}

/**
 * Runs a script that came over the channel: its body in a temporary file, its interpreter with the args, in a
 * process group of its own, killed whole at timeoutSeconds.
 */
export function runScript(cmd: Pick<ScriptRunMessage, 'shell' | 'body' | 'args' | 'timeoutSeconds'>, onChunk?: (c: Chunk) => void): Promise<Outcome> {
  const interpreter = interpreterFor(cmd.shell);
  if (typeof interpreter === 'string') return Promise.resolve({ ok: false, error: interpreter });

  const dir = mkdtempSync(join(tmpdir(), 'rmm-script-'));
  const file = join(dir, `script${interpreter.extension}`);
  writeFileSync(file, cmd.body, { mode: 0o700 });
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });

  return new Promise<Outcome>((resolve) => {
    const started = process.hrtime.bigint();
    const stdout = capture(OUTPUT_CAP);
    const stderr = capture(OUTPUT_CAP);
    let timedOut = false;
    let settled = false;
    const child = spawn(interpreter.command, [...interpreter.args(file), ...(cmd.args ?? [])], {
      cwd: dir,
      detached: true, // its own process group (setsid), so a time-out kills the whole tree
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    if (child.pid !== undefined) running.add(child.pid);
    const streamer = onChunk ? new OutputCoalescer(onChunk) : undefined;
    child.stdout.on('data', (b: Buffer) => {
      stdout.push(b);
      streamer?.push('stdout', b);
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr.push(b);
      streamer?.push('stderr', b);
    });

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, Math.max(1, cmd.timeoutSeconds) * 1000);

    const finish = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      streamer?.end(); // every chunk goes before the result
      cleanup();
      resolve(outcome);
    };
    const result = (code: number | null): Outcome => ({
      ok: true,
      result: {
        retcode: timedOut ? null : code,
        stdout: stdout.text(),
        stderr: stderr.text(),
        executionTime: Number(process.hrtime.bigint() - started) / 1e9,
        timedOut,
      },
    });

    child.on('error', (err: NodeJS.ErrnoException) => {
      finish({ ok: false, error: err.code === 'ENOENT' ? `interpreter not found: ${interpreter.command}` : `cannot start ${interpreter.command}: ${err.message}` });
    });
    child.on('exit', (code) => {
      // 'close' follows once the pipes are drained; a background child may hold them open: do not wait for it long
      const drain = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(result(code));
      }, DRAIN_MS);
      child.once('close', () => {
        clearTimeout(drain);
        finish(result(code));
      });
    });
  });
}
