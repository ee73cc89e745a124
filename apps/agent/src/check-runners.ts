// The checks the reference agent runs (docs/agent-protocol.md, checks.sync): one function per type, each
// resolving to a status and a line of more_info. Nothing from the server ever reaches a shell: commands are
// started with execFile and an argument list, after the strings are checked here.
import { execFile } from 'node:child_process';
import { statfs } from 'node:fs/promises';
import { connect } from 'node:net';
import { cpus, freemem, totalmem } from 'node:os';
import type { CheckDefinition, CheckStatus } from '@app/protocol/agent';
import { runScript } from './run-script';

export interface CheckOutcome {
  status: CheckStatus;
  moreInfo: string;
}

/** more_info is cut to this many characters (the server keeps 4,000). */
export const MORE_INFO_MAX = 2_000;
export const NOT_SUPPORTED = 'not supported on this platform';

const GB = 1024 ** 3;

export function cap(text: string, max = MORE_INFO_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A threshold setting, or why it is not one. */
function percentSetting(settings: Record<string, unknown>): number | string {
  const t = settings.threshold_percent;
  return typeof t === 'number' && Number.isFinite(t) && t >= 0 && t <= 100 ? t : 'bad settings: threshold_percent must be a number from 0 to 100';
}

/** True when the text holds a control character (never part of a drive or a service name). */
export function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20 || text.charCodeAt(i) === 0x7f) return true;
  return false;
}

const pct = (v: number): string => `${v.toFixed(1)} %`;

// ---- diskspace ----------------------------------------------------------------------------------------------

/** The path to ask statfs about for a drive setting ("C:" or a mount point), or null when it is not one. */
export function drivePath(drive: unknown, platform: NodeJS.Platform = process.platform): string | null {
  if (typeof drive !== 'string' || drive.length === 0 || drive.length > 255 || hasControl(drive)) return null;
  if (/^[A-Za-z]:$/.test(drive)) return platform === 'win32' ? `${drive.toUpperCase()}\\` : null;
  return drive.startsWith('/') || (platform === 'win32' && /^[A-Za-z]:\\/.test(drive)) ? drive : null;
}

/** Fails when the free share is below the threshold. */
export function evaluateDisk(drive: string, freeBytes: number, totalBytes: number, thresholdPercent: number): CheckOutcome {
  if (totalBytes <= 0) return { status: 'failing', moreInfo: `${drive}: the file system reports no size` };
  const freePercent = (freeBytes / totalBytes) * 100;
  const line = `${drive}: ${(freeBytes / GB).toFixed(1)} GB free of ${(totalBytes / GB).toFixed(1)} GB (${pct(freePercent)}), threshold ${thresholdPercent} %`;
  return { status: freePercent < thresholdPercent ? 'failing' : 'passing', moreInfo: line };
}

export async function diskspace(settings: Record<string, unknown>): Promise<CheckOutcome> {
  const threshold = percentSetting(settings);
  if (typeof threshold === 'string') return { status: 'failing', moreInfo: threshold };
  const path = drivePath(settings.drive);
  if (path === null) return { status: 'failing', moreInfo: `not a drive or mount point on this platform: ${JSON.stringify(settings.drive)}` };
  try {
    const s = await statfs(path);
    return evaluateDisk(String(settings.drive), Number(s.bavail) * Number(s.bsize), Number(s.blocks) * Number(s.bsize), threshold);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { status: 'failing', moreInfo: code === 'ENOENT' ? `${String(settings.drive)}: no such drive or mount point` : `${String(settings.drive)}: cannot read its free space (${code ?? (err as Error).message})` };
  }
}

// ---- cpuload, memory ----------------------------------------------------------------------------------------

/** Fails when `value` is above the threshold. */
export function evaluateAbove(what: string, value: number, thresholdPercent: number): CheckOutcome {
  return { status: value > thresholdPercent ? 'failing' : 'passing', moreInfo: `${what} ${pct(value)}, threshold ${thresholdPercent} %` };
}

type CpuTimes = Array<{ times: { user: number; nice: number; sys: number; idle: number; irq: number } }>;

/** The busy share of all CPUs between two samples of os.cpus(). */
export function cpuPercent(before: CpuTimes, after: CpuTimes): number {
  let busy = 0;
  let total = 0;
  for (let i = 0; i < Math.min(before.length, after.length); i++) {
    const a = before[i].times;
    const b = after[i].times;
    const idle = b.idle - a.idle;
    const all = b.user - a.user + (b.nice - a.nice) + (b.sys - a.sys) + (b.irq - a.irq) + idle;
    busy += all - idle;
    total += all;
  }
  return total > 0 ? Math.min(100, Math.max(0, (busy / total) * 100)) : 0;
}

export async function cpuload(settings: Record<string, unknown>, sampleMs = 1_000): Promise<CheckOutcome> {
  const threshold = percentSetting(settings);
  if (typeof threshold === 'string') return { status: 'failing', moreInfo: threshold };
  const before = cpus();
  await new Promise((r) => setTimeout(r, sampleMs));
  return evaluateAbove('CPU load', cpuPercent(before, cpus()), threshold);
}

export function memory(settings: Record<string, unknown>): CheckOutcome {
  const threshold = percentSetting(settings);
  if (typeof threshold === 'string') return { status: 'failing', moreInfo: threshold };
  const total = totalmem();
  const used = total - freemem();
  const out = evaluateAbove('memory used', (used / total) * 100, threshold);
  return { ...out, moreInfo: `${out.moreInfo} (${(used / GB).toFixed(1)} GB of ${(total / GB).toFixed(1)} GB)` };
}

// ---- ping ---------------------------------------------------------------------------------------------------

/** A host name or an IP address (never an option: no leading '-'), else null. */
export function validTarget(target: unknown): string | null {
  return typeof target === 'string' && target.length <= 253 && /^[A-Za-z0-9_.:][A-Za-z0-9_.:-]*$/.test(target) ? target : null;
}

/** The system ping's arguments for one packet, at most 2 s. */
export function pingArgs(target: string, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'win32') return ['-n', '1', '-w', '2000', target];
  if (platform === 'darwin') return ['-c', '1', '-t', '2', target];
  return ['-c', '1', '-W', '2', target];
}

/** The round-trip time a ping printed ("time=0.045 ms", "time<1ms", "Zeit=3ms"), or null. */
export function parsePingTime(output: string): number | null {
  const m = /(?:time|zeit|temps|tiempo)\s*[=<]\s*([\d.,]+)\s*ms/i.exec(output);
  return m ? Number(m[1].replace(',', '.')) : null;
}

/** True when the output or error says ICMP cannot be used here (no ping, or no permission to open its socket). */
export function icmpUnavailable(errorCode: string | number | undefined, output: string): boolean {
  if (errorCode === 'ENOENT' || errorCode === 'EACCES' || errorCode === 'EPERM') return true;
  return /operation not permitted|permission denied|socket: |cap_net_raw|must be root|you don'?t have permission/i.test(output);
}

interface Exec {
  code: number | string | undefined;
  output: string;
}

function execNoShell(command: string, args: string[], timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<Exec> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, windowsHide: true, maxBuffer: 1024 * 1024, env: env ?? process.env }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (!err) return resolve({ code: 0, output });
      const e = err as NodeJS.ErrnoException & { code?: string | number; killed?: boolean };
      resolve({ code: e.killed ? 'ETIMEDOUT' : e.code, output: output || e.message });
    });
  });
}

type TcpAnswer = { port: number; outcome: 'connected' | 'refused' | 'unresolved' | 'no answer'; ms: number; detail?: string };

function tcpProbe(host: string, port: number, timeoutMs = 3_000): Promise<TcpAnswer> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (outcome: TcpAnswer['outcome'], detail?: string): void => {
      socket.destroy();
      resolve({ port, outcome, ms: Date.now() - started, detail });
    };
    socket.setTimeout(timeoutMs, () => done('no answer'));
    socket.once('connect', () => done('connected'));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') done('refused');
      else if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') done('unresolved', err.code);
      else done('no answer', err.code ?? err.message);
    });
  });
}

/**
 * TCP to 443, then 80: a connection, or a refusal (the host's own TCP stack answered), passes: the host is up.
 * A name that does not resolve, or silence on both ports, fails.
 */
export function describeTcp(answers: TcpAnswer[], why: string): CheckOutcome {
  const suffix = ` (ICMP not available: ${why})`;
  const up = answers.find((a) => a.outcome === 'connected' || a.outcome === 'refused');
  if (up) {
    const what = up.outcome === 'connected' ? `connected in ${up.ms} ms` : `connection refused in ${up.ms} ms: the host is up`;
    return { status: 'passing', moreInfo: `TCP ${up.port}: ${what}${suffix}` };
  }
  const unresolved = answers.find((a) => a.outcome === 'unresolved');
  if (unresolved) return { status: 'failing', moreInfo: `TCP: cannot resolve the name (${unresolved.detail})${suffix}` };
  return { status: 'failing', moreInfo: `TCP ${answers.map((a) => a.port).join(', ')}: no answer${suffix}` };
}

export async function ping(settings: Record<string, unknown>): Promise<CheckOutcome> {
  const target = validTarget(settings.target);
  if (target === null) return { status: 'failing', moreInfo: `not a host name or IP address: ${JSON.stringify(settings.target)}` };
  const r = await execNoShell('ping', pingArgs(target), 6_000, { ...process.env, LC_ALL: 'C' });
  const firstLine = (text: string): string => cap(text.trim().split('\n')[0] ?? '', 200);
  if (r.code === 0) {
    const ms = parsePingTime(r.output);
    return { status: 'passing', moreInfo: `ICMP: reply from ${target}${ms === null ? '' : ` in ${ms} ms`}` };
  }
  if (icmpUnavailable(r.code, r.output)) {
    const why = r.code === 'ENOENT' ? 'no ping command' : firstLine(r.output);
    const answers: TcpAnswer[] = [];
    for (const port of [443, 80]) {
      const a = await tcpProbe(target, port);
      answers.push(a);
      if (a.outcome !== 'no answer') break;
    }
    return describeTcp(answers, why);
  }
  if (r.code === 'ETIMEDOUT') return { status: 'failing', moreInfo: `ICMP: no reply from ${target} (ping timed out)` };
  const said = firstLine(r.output);
  return { status: 'failing', moreInfo: `ICMP: no reply from ${target}${said ? ` (${said})` : ''}` };
}

// ---- script -------------------------------------------------------------------------------------------------

/** more_info of a script check: its return code and the tail of its output. */
export function scriptMoreInfo(r: { retcode: number | null; stdout: string; stderr: string; timedOut: boolean }, timeoutSeconds: number): string {
  const head = r.timedOut ? `timed out after ${timeoutSeconds} s` : `retcode ${r.retcode}`;
  const output = `${r.stdout}${r.stderr ? `${r.stdout && !r.stdout.endsWith('\n') ? '\n' : ''}${r.stderr}` : ''}`.trim();
  if (!output) return head;
  const room = MORE_INFO_MAX - head.length - 2;
  const tail = output.length > room ? `…${output.slice(output.length - room + 1)}` : output;
  return `${head}: ${tail}`;
}

export async function script(def: CheckDefinition): Promise<CheckOutcome> {
  if (!def.script) return { status: 'failing', moreInfo: 'the server sent no script for this check' };
  const { shell, body, args, timeoutSeconds } = def.script;
  const timeout = Number.isInteger(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds : 90;
  const outcome = await runScript({ shell, body, args: Array.isArray(args) ? args.map(String) : [], timeoutSeconds: timeout });
  if (!outcome.ok) return { status: 'failing', moreInfo: cap(outcome.error) };
  return { status: outcome.result.retcode === 0 ? 'passing' : 'failing', moreInfo: scriptMoreInfo(outcome.result, timeout) };
}

// ---- winsvc, eventlog (Windows) -----------------------------------------------------------------------------

/** The state `sc query` printed ("STATE : 4  RUNNING"), or null. */
export function parseScState(output: string): string | null {
  return /STATE\s*:\s*\d+\s+([A-Z_]+)/.exec(output)?.[1] ?? null;
}

export async function winsvc(settings: Record<string, unknown>, platform: NodeJS.Platform = process.platform): Promise<CheckOutcome> {
  if (platform !== 'win32') return { status: 'pending', moreInfo: NOT_SUPPORTED };
  const name = settings.service_name;
  if (typeof name !== 'string' || name.length === 0 || name.length > 256 || hasControl(name) || /["/\\]/.test(name)) return { status: 'failing', moreInfo: `not a service name: ${JSON.stringify(name)}` };
  const r = await execNoShell('sc.exe', ['query', name], 10_000);
  const state = parseScState(r.output);
  if (state === null) return { status: 'failing', moreInfo: cap(`service ${name}: ${r.output.trim() || `sc query failed (${r.code})`}`, 500) };
  return { status: state === 'RUNNING' ? 'passing' : 'failing', moreInfo: `service ${name} is ${state}` };
}

const EVENT_LEVELS: Record<string, number> = { error: 2, warning: 3, information: 4 };

/**
 * Fails when the log holds matching events from the last run_interval. The settings reach PowerShell as
 * environment variables, never as code.
 */
export async function eventlog(def: CheckDefinition, platform: NodeJS.Platform = process.platform): Promise<CheckOutcome> {
  if (platform !== 'win32') return { status: 'pending', moreInfo: NOT_SUPPORTED };
  const s = def.settings;
  const env: NodeJS.ProcessEnv = { ...process.env, RMM_LOG: String(s.log_name ?? ''), RMM_SECONDS: String(def.runInterval) };
  if (typeof s.event_id === 'number') env.RMM_EVENT_ID = String(s.event_id);
  if (typeof s.event_type === 'string' && EVENT_LEVELS[s.event_type]) env.RMM_LEVEL = String(EVENT_LEVELS[s.event_type]);
  if (typeof s.search_text === 'string') env.RMM_TEXT = s.search_text;
  const command = [
    '$f = @{ LogName = $env:RMM_LOG; StartTime = (Get-Date).AddSeconds(-[int]$env:RMM_SECONDS) }',
    'if ($env:RMM_EVENT_ID) { $f.Id = [int]$env:RMM_EVENT_ID }',
    'if ($env:RMM_LEVEL) { $f.Level = [int]$env:RMM_LEVEL }',
    '$e = @(Get-WinEvent -FilterHashtable $f -ErrorAction SilentlyContinue)',
    'if ($env:RMM_TEXT) { $e = @($e | Where-Object { $_.Message -and $_.Message.Contains($env:RMM_TEXT) }) }',
    '"$($e.Count)"; if ($e.Count -gt 0) { $e[0].Message }',
  ].join('; ');
  const r = await execNoShell('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', command], 30_000, env);
  const [countLine, ...rest] = r.output.trim().split(/\r?\n/);
  const count = Number(countLine);
  if (r.code !== 0 || !Number.isInteger(count)) return { status: 'failing', moreInfo: cap(`event log ${env.RMM_LOG}: cannot read it (${r.output.trim() || r.code})`, 500) };
  if (count === 0) return { status: 'passing', moreInfo: `event log ${env.RMM_LOG}: no matching events in the last ${def.runInterval} s` };
  return { status: 'failing', moreInfo: cap(`event log ${env.RMM_LOG}: ${count} matching event(s) in the last ${def.runInterval} s; latest: ${rest.join(' ').trim()}`) };
}

// ---- dispatch -----------------------------------------------------------------------------------------------

/** Runs one check once; never rejects (an unexpected error is a failing result saying what went wrong). */
export async function runCheck(def: CheckDefinition): Promise<CheckOutcome> {
  try {
    const settings = def.settings ?? {};
    switch (def.checkType) {
      case 'diskspace':
        return await diskspace(settings);
      case 'cpuload':
        return await cpuload(settings);
      case 'memory':
        return memory(settings);
      case 'ping':
        return await ping(settings);
      case 'script':
        return await script(def);
      case 'winsvc':
        return await winsvc(settings);
      case 'eventlog':
        return await eventlog(def);
      default:
        return { status: 'pending', moreInfo: `check type ${String((def as { checkType?: unknown }).checkType)} is not known to this agent` };
    }
  } catch (err) {
    return { status: 'failing', moreInfo: cap(`the check could not run: ${(err as Error).message}`) };
  }
}
