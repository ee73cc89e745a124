import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');
export const MAIN_JS = join(ROOT, 'dist/apps/api/src/main.js');
export const CLI_JS = join(ROOT, 'dist/apps/api/src/cli/cli.js');

/** The environment of a fresh machine: no DATABASE_URL (so the embedded default is used). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(DATABASE_URL|REDIS_URL|PORT|PUBLIC_URL|DATA_DIR|JWT_SECRET|DATA_|RMM_|LOG_LEVEL|RMM_TEST_)/.test(k)) delete env[k];
  }
  return { ...env, ...extra };
}

/** A folder PostgreSQL (running as the postgres user under root) can use. */
export function tempDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return join(dir, 'data');
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs node with `args` to its end (bounded by timeoutMs), from the project folder. */
export function run(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000, input?: string): Promise<Finished> {
  return exec(process.execPath, args, { env, cwd: ROOT, timeoutMs, input });
}

/**
 * Runs a command to its end, bounded: killed (and the promise rejected, with what it printed) after timeoutMs.
 * `onSpawn` is given the child (a test keeps it, to kill what is left when it fails).
 */
export function exec(
  cmd: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs?: number; onSpawn?: (child: ChildProcess) => void; /** Written to standard input, which is then closed. */ input?: string },
): Promise<Finished> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { env: options.env, cwd: options.cwd });
    options.onSpawn?.(child);
    if (options.input !== undefined) child.stdin.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rej(new Error(`timed out: ${cmd === process.execPath ? '' : `${cmd} `}${args.join(' ')}\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>;
  /** Ctrl-C at a terminal: SIGINT to the whole process group (started `detached`), then wait for the exit. */
  interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the real server (or `command`, e.g. `npm start`) and waits until `url`/healthz answers. `detached`: in
 * a process group of its own, as a terminal's foreground job is (so that interrupt() signals the group).
 */
export async function startMain(
  env: NodeJS.ProcessEnv,
  url: string,
  timeoutMs = 60_000,
  options: { detached?: boolean; command?: [string, ...string[]] } = {},
): Promise<Started> {
  const [command, ...args] = options.command ?? [process.execPath, MAIN_JS];
  const child = spawn(command, args, { env, cwd: ROOT, detached: options.detached === true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('close', (code, signal) => r({ code, signal })));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      if (options.detached) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
      throw new Error(`server did not answer within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      return (await exited).code;
    },
    interrupt: async () => {
      process.kill(-child.pid!, 'SIGINT');
      return exited;
    },
  };
}

/** The reference agent, bundled by the test global setup. */
export const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');

/**
 * The reference agent run as a real process (`rmm-agent run --prefix DIR`), which a test starts, kills and
 * starts again (an agent going away and coming back); its stdout and stderr are kept across its runs, for the
 * messages of failed waits.
 */
export class AgentProcess {
  private child?: ChildProcess;
  private text = '';

  constructor(
    private readonly prefix: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Everything it wrote, all runs together. */
  get output(): string {
    return this.text;
  }

  start(): void {
    this.child = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', this.prefix], { env: this.env, cwd: ROOT });
    this.child.stdout!.on('data', (c) => (this.text += c));
    this.child.stderr!.on('data', (c) => (this.text += c));
  }

  /** SIGKILL (a machine switched off), and waits until it is gone; nothing when it does not run. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const closed = new Promise((r) => child.once('close', r));
    child.kill('SIGKILL');
    await closed;
  }
}
