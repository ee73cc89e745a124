// The agent's process without a service manager: `start` (a `run` in the background, its output in agent.log,
// its pid in agent.pid), `stop`, and what `status` and `uninstall` need to know: is a `run` of this prefix alive.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written by every `run` process (its pid); removed when it ends. */
export const RUN_PID = 'run.pid';
/** The background agent's pid (`start`, the installer without a service manager); removed by `stop`. */
export const AGENT_PID = 'agent.pid';
/** The background agent's output (stdout and stderr, appended). */
export const AGENT_LOG = 'agent.log';
/** Set in a background agent's environment: its `run` keeps agent.pid current (a self-update starts a new process). */
export const BACKGROUND_ENV = 'RMM_AGENT_BACKGROUND';

/** How long `stop` waits for the agent to exit after SIGTERM, and `start` for it to come up. */
const STOP_WAIT_MS = 15_000;
const START_WAIT_MS = 10_000;

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a process (Linux: /proc; elsewhere `ps`); undefined when it cannot be read (Windows). */
function commandLine(pid: number): string | undefined {
  try {
    if (process.platform === 'linux') return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    if (process.platform === 'win32') return undefined;
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
  } catch {
    return undefined;
  }
}

/**
 * A pid file's process when it is alive and is an agent's `run` (a pid file left by a crash may name a process
 * that has nothing to do with the agent now: that one is never signalled). `service`: it runs under a service
 * manager (`run --service`).
 */
export function agentProcess(file: string): { pid: number; service: boolean } | undefined {
  const pid = readPid(file);
  if (pid === undefined || pid === process.pid || !pidAlive(pid)) return undefined;
  const line = commandLine(pid);
  if (line === undefined) return { pid, service: false };
  if (!/rmm-agent/.test(line) || !/\brun\b/.test(line)) return undefined;
  return { pid, service: /\s--service\b/.test(line) };
}

/** The `run` process of this prefix, if one is alive: run.pid's (any `run`), else agent.pid's. */
export function runningAgent(prefix: string): { pid: number; service: boolean } | undefined {
  return agentProcess(join(prefix, RUN_PID)) ?? agentProcess(join(prefix, AGENT_PID));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) if (check()) return true;
  return check();
}

export interface StartOptions {
  prefix: string;
  /** This program: the binary, or node and the bundle's path. */
  command: string;
  args: string[];
  out: (line: string) => void;
}

/**
 * `start`: a `run --prefix PREFIX` detached from this process (a session of its own, no terminal), its output
 * appended to agent.log, its pid in agent.pid. Resolves with the exit code: 0 started (or already running), 1
 * when it stopped at once (agent.log says why).
 */
export async function startInBackground(o: StartOptions): Promise<number> {
  const running = runningAgent(o.prefix);
  if (running) {
    o.out(`already running (pid ${running.pid})`);
    return 0;
  }
  const logFile = join(o.prefix, AGENT_LOG);
  const log = openSync(logFile, 'a', 0o600);
  let exited: number | null | undefined;
  const child = spawn(o.command, [...o.args, 'run', '--prefix', o.prefix], {
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...process.env, [BACKGROUND_ENV]: '1' },
    windowsHide: true,
  });
  closeSync(log);
  child.once('exit', (code, signal) => (exited = code ?? (signal ? 128 : 1)));
  child.once('error', () => (exited = 1));
  const pidFile = join(o.prefix, AGENT_PID);
  if (child.pid !== undefined) writeFileSync(pidFile, `${child.pid}\n`, { mode: 0o600 });
  // Up once its `run` has written run.pid (after reading the state file); stopped at once: say so.
  const up = await waitFor(() => exited !== undefined || readPid(join(o.prefix, RUN_PID)) === child.pid, START_WAIT_MS);
  child.unref();
  if (exited !== undefined || !up || child.pid === undefined) {
    if (readPid(pidFile) === child.pid) rmSync(pidFile, { force: true });
    const tail = readTail(logFile);
    o.out(`the agent did not start${exited !== undefined ? ` (exit ${exited})` : ''}: see ${logFile}${tail ? `\n${tail}` : ''}`);
    return 1;
  }
  o.out(`started in the background: pid ${child.pid}, log ${logFile}`);
  return 0;
}

/**
 * `stop`: SIGTERM to the background agent (agent.pid), or a `run` of this prefix started by hand (run.pid); waits
 * for it to exit and removes agent.pid. 0 stopped or not running; 1 it runs under a service manager (stop it
 * there) or did not exit within 15 s.
 */
export async function stopAgent(prefix: string, out: (line: string) => void): Promise<number> {
  const pidFile = join(prefix, AGENT_PID);
  const agent = agentProcess(pidFile) ?? agentProcess(join(prefix, RUN_PID));
  if (!agent) {
    rmSync(pidFile, { force: true });
    out('not running');
    return 0;
  }
  if (agent.service) {
    out(`the agent (pid ${agent.pid}) runs under its service manager: stop it there (systemctl stop rmm-agent; macOS: launchctl bootout system/com.rmm.agent)`);
    return 1;
  }
  try {
    process.kill(agent.pid, 'SIGTERM');
  } catch {
    /* gone meanwhile */
  }
  if (!(await waitFor(() => !pidAlive(agent.pid), STOP_WAIT_MS))) {
    out(`the agent (pid ${agent.pid}) is still running ${STOP_WAIT_MS / 1000} s after SIGTERM`);
    return 1;
  }
  if (readPid(pidFile) === agent.pid) rmSync(pidFile, { force: true });
  out(`stopped (pid ${agent.pid})`);
  return 0;
}

function readTail(file: string, lines = 5): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
