// `rmm-agent uninstall` and the agent.uninstall message: remove the service the installer set up (only what
// exists), then the prefix's files. Only the files the installer and the agent write are removed, by name: a
// mistaken --prefix never costs anything else.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AGENT_LOG, AGENT_PID, agentProcess, RUN_PID } from './background';

export interface Command {
  cmd: string;
  args: string[];
}

/** One way the agent may be installed as a service, and how to take it away. */
export interface ServiceDefinition {
  name: string;
  /** The definition file (removed), or a query that succeeds when the service exists. */
  file?: string;
  query?: Command;
  /** Run in order before the file is removed (a failure is reported, the rest goes on). */
  remove: Command[];
  /** Run after the file is removed. */
  after: Command[];
  /** Started detached once the prefix's files are gone: it stops this very process (launchd's bootout). */
  last?: Command;
}

const cmd = (c: string, ...args: string[]): Command => ({ cmd: c, args });

export const SYSTEMD_UNIT = '/etc/systemd/system/rmm-agent.service';
export const LAUNCHD_LABEL = 'com.rmm.agent';
export const LAUNCH_DAEMON = `/Library/LaunchDaemons/${LAUNCHD_LABEL}.plist`;
export const WINDOWS_SERVICE = 'rmm-agent';

/**
 * The service definitions of a platform. `self`: the agent's own `run` process is uninstalling (agent.uninstall):
 * nothing is stopped (that would stop this process half way); it exits 0 afterwards, which no service manager
 * restarts (systemd Restart=on-failure, launchd SuccessfulExit=false), and the service is gone once it has.
 */
export function serviceDefinitions(platform: NodeJS.Platform, self: boolean, user: { uid: number; home: string }): ServiceDefinition[] {
  if (platform === 'linux') {
    return [{ name: `systemd unit ${SYSTEMD_UNIT}`, file: SYSTEMD_UNIT, remove: [self ? cmd('systemctl', 'disable', 'rmm-agent') : cmd('systemctl', 'disable', '--now', 'rmm-agent')], after: [cmd('systemctl', 'daemon-reload')] }];
  }
  if (platform === 'darwin') {
    const launchd = (file: string, domain: string): ServiceDefinition => {
      const bootout = cmd('launchctl', 'bootout', `${domain}/${LAUNCHD_LABEL}`);
      return { name: `launchd job ${file}`, file, remove: self ? [] : [bootout], after: [], ...(self ? { last: bootout } : {}) };
    };
    return [launchd(LAUNCH_DAEMON, 'system'), launchd(join(user.home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`), `gui/${user.uid}`)];
  }
  if (platform === 'win32') {
    return [
      {
        name: `Windows service ${WINDOWS_SERVICE}`,
        query: cmd('sc.exe', 'query', WINDOWS_SERVICE),
        // delete marks it for deletion: it goes when its process has exited
        remove: self ? [cmd('sc.exe', 'delete', WINDOWS_SERVICE)] : [cmd('sc.exe', 'stop', WINDOWS_SERVICE), cmd('sc.exe', 'delete', WINDOWS_SERVICE)],
        after: [],
      },
      // what the Node.js installer sets up on Windows (its running process is stopped through run.pid)
      { name: 'scheduled task rmm-agent', query: cmd('schtasks.exe', '/Query', '/TN', 'rmm-agent'), remove: [cmd('schtasks.exe', '/Delete', '/TN', 'rmm-agent', '/F')], after: [] },
    ];
  }
  return [];
}

/** The files of a prefix: its own, then bin/'s and lib/'s, each folder removed when nothing else is left in it. */
export const PREFIX_FILES = ['state.json', RUN_PID, AGENT_PID, 'update.json', AGENT_LOG];
export const BIN_FILES = ['rmm-agent', 'rmm-agent.exe', 'rmm-agent.cmd', 'rmm-agent.previous', 'rmm-agent.previous.exe', 'rmm-agent.download', 'rmm-agent.failed', 'rmm-agent.failed.exe'];
export const LIB_FILES = ['rmm-agent.js', 'rmm-agent.js.download'];

export interface UninstallOptions {
  /** The agent's own run process (agent.uninstall): see serviceDefinitions. */
  self: boolean;
  log: (line: string) => void;
  platform?: NodeJS.Platform;
  /** Runs a command to its end; throws with its output when it fails. */
  run?: (c: Command) => void;
  exists?: (file: string) => boolean;
}

function runCommand(c: Command): void {
  try {
    execFileSync(c.cmd, c.args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000, windowsHide: true });
  } catch (err) {
    const e = err as { stderr?: Buffer; stdout?: Buffer; message: string };
    const said = `${e.stderr?.toString() ?? ''}${e.stdout?.toString() ?? ''}`.trim().split('\n')[0];
    throw new Error(said || e.message, { cause: err });
  }
}

function succeeds(run: (c: Command) => void, c: Command): boolean {
  try {
    run(c);
    return true;
  } catch {
    return false;
  }
}

/** Removes the service definitions that exist, then the prefix's files. Resolves with what could not be done. */
export function uninstall(prefix: string, o: UninstallOptions): string[] {
  const platform = o.platform ?? process.platform;
  const run = o.run ?? runCommand;
  const exists = o.exists ?? existsSync;
  const problems: string[] = [];
  const attempt = (what: string, work: () => void): void => {
    try {
      work();
    } catch (err) {
      problems.push(`${what}: ${(err as Error).message}`);
      o.log(`could not ${what}: ${(err as Error).message}`);
    }
  };
  const lasts: Command[] = [];
  let uid = -1;
  try {
    uid = process.getuid?.() ?? -1;
  } catch {
    /* not on this platform */
  }
  for (const def of serviceDefinitions(platform, o.self, { uid, home: homedir() })) {
    const present = def.file ? exists(def.file) : def.query ? succeeds(run, def.query) : false;
    if (!present) continue;
    o.log(`removing the ${def.name}`);
    for (const c of def.remove) attempt(`run ${c.cmd} ${c.args.join(' ')}`, () => run(c));
    if (def.file) attempt(`remove ${def.file}`, () => rmSync(def.file!, { force: true }));
    for (const c of def.after) attempt(`run ${c.cmd} ${c.args.join(' ')}`, () => run(c));
    if (def.last) lasts.push(def.last);
  }
  if (!o.self) stopRunProcess(prefix, o.log);
  const leftovers = removeFiles(prefix, o.log, problems);
  if (platform === 'win32' && leftovers.length > 0) deleteLater(leftovers, [join(prefix, 'bin'), prefix]);
  for (const c of lasts) spawn(c.cmd, c.args, { detached: true, stdio: 'ignore' }).unref();
  return problems;
}

/**
 * SIGTERM to the `run` processes of this prefix started by hand or in the background (`start`: agent.pid; a
 * service's was stopped with its service), only when the pid file names an agent's `run` (background.ts).
 */
function stopRunProcess(prefix: string, log: (line: string) => void): void {
  const pids = new Set([RUN_PID, AGENT_PID].map((f) => agentProcess(join(prefix, f))?.pid).filter((pid) => pid !== undefined));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
      log(`stopped the run process ${pid}`);
    } catch {
      /* not running */
    }
  }
}

/** Removes the prefix's files by name; answers the ones Windows would not let go (the running executable). */
function removeFiles(prefix: string, log: (line: string) => void, problems: string[]): string[] {
  const leftovers: string[] = [];
  let removed = 0;
  const remove = (file: string): void => {
    if (!existsSync(file)) return;
    try {
      rmSync(file, { force: true });
      removed++;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (process.platform === 'win32' && (code === 'EBUSY' || code === 'EPERM')) leftovers.push(file);
      else problems.push(`remove ${file}: ${(err as Error).message}`);
    }
  };
  const removeDirIfEmpty = (dir: string): void => {
    try {
      if (readdirSync(dir).length === 0) rmdirSync(dir);
      else if (dir !== prefix) log(`left ${dir}: it holds files that are not the agent's`);
    } catch {
      /* not there */
    }
  };
  for (const f of PREFIX_FILES) remove(join(prefix, f));
  for (const f of BIN_FILES) remove(join(prefix, 'bin', f));
  for (const f of LIB_FILES) remove(join(prefix, 'lib', f));
  removeDirIfEmpty(join(prefix, 'bin'));
  removeDirIfEmpty(join(prefix, 'lib'));
  if (leftovers.length === 0) removeDirIfEmpty(prefix);
  log(removed > 0 ? `removed the agent's files from ${prefix}` : `no agent files in ${prefix}`);
  return leftovers;
}

/** Windows: the running executable cannot be deleted; a detached cmd deletes it once this process has exited. */
function deleteLater(files: string[], dirs: string[]): void {
  const script = ['ping -n 4 127.0.0.1 >nul', ...files.map((f) => `del /f /q "${f}"`), ...dirs.map((d) => `rmdir "${d}"`)].join(' & ');
  spawn('cmd.exe', ['/d', '/c', script], { detached: true, stdio: 'ignore', windowsHide: true, windowsVerbatimArguments: true }).unref();
}
