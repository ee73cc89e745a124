import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import type { AgentTarget, Disk, HeartbeatFacts, Platform, RegistrationFacts } from '@app/protocol/agent';
import { AGENT_VERSION } from './protocol';

/** The device's facts, as registration sends them (docs/agent-protocol.md §1). */
export function collectFacts(env: NodeJS.ProcessEnv = process.env): RegistrationFacts {
  const cpus = os.cpus();
  const facts: RegistrationFacts = {
    hostname: env.RMM_AGENT_HOSTNAME || os.hostname(),
    plat: platform(),
    version: AGENT_VERSION,
    operating_system: `${os.type()} ${os.release()}`.slice(0, 255),
    arch: os.arch(),
    total_ram: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    disks: disks(),
    monitoring_type: 'workstation',
  };
  const cpu = cpus[0]?.model.trim();
  if (cpu) facts.cpu_model = cpu.slice(0, 255);
  const ip = localIp();
  if (ip) facts.local_ip = ip;
  const user = username();
  if (user) facts.logged_in_username = user;
  return facts;
}

function platform(): Platform {
  if (process.platform === 'win32') return 'windows';
  if (process.platform === 'darwin') return 'darwin';
  return 'linux';
}

function localIp(): string | undefined {
  for (const addrs of Object.values(os.networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

function username(): string | undefined {
  try {
    return os.userInfo().username || undefined;
  } catch {
    return undefined; // no passwd entry for this uid
  }
}

function size(kib: number): string {
  const gib = kib / 1024 ** 2;
  return gib >= 1 ? `${gib.toFixed(1)} GB` : `${(kib / 1024).toFixed(1)} MB`;
}

/** Real file systems from `df -kP` (linux, darwin); none elsewhere or when df is missing. */
export function disks(): Disk[] {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return [];
  let out: string;
  try {
    out = execFileSync('df', ['-kP'], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    // df exits non-zero when one mount cannot be read, yet prints the others
    out = typeof (err as { stdout?: unknown }).stdout === 'string' ? (err as { stdout: string }).stdout : '';
  }
  return parseDf(out);
}

export function parseDf(out: string): Disk[] {
  const result: Disk[] = [];
  for (const line of out.split('\n').slice(1)) {
    // Filesystem 1024-blocks Used Available Capacity Mounted-on (the mount point may hold spaces)
    const m = /^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+%\s+(.+)$/.exec(line.trim());
    if (!m) continue;
    const [, fs, total, used, avail, mount] = m;
    if (!fs.startsWith('/dev/') && mount !== '/') continue; // tmpfs, proc, overlays of containers…
    const usable = Number(used) + Number(avail);
    const percent = usable > 0 ? Math.min(100, Math.max(0, Math.round((Number(used) / usable) * 100))) : 0;
    result.push({ device: mount.slice(0, 255), free: size(Number(avail)), total: size(Number(total)), percent });
    if (result.length === 64) break;
  }
  return result;
}

/**
 * The facts a heartbeat may carry (no monitoring_type; the hostname is the machine's, kept by the server as
 * os_hostname), and update_target when the agent can update itself.
 */
export function heartbeatFacts(facts: RegistrationFacts, updateTarget?: AgentTarget): HeartbeatFacts {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- dropped on purpose
  const { monitoring_type, ...rest } = facts;
  return updateTarget ? { ...rest, update_target: updateTarget } : rest;
}

/**
 * What a heartbeat sends: every fact when nothing was sent yet on this connection (`previous` undefined),
 * then only the fields that changed (a fact that disappeared is not sent: the server keeps the last value);
 * undefined when nothing changed.
 */
export function changedFacts(previous: HeartbeatFacts | undefined, current: HeartbeatFacts): Partial<HeartbeatFacts> | undefined {
  if (!previous) return current;
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(current)) {
    if (JSON.stringify(value) !== JSON.stringify((previous as Record<string, unknown>)[key])) changed[key] = value;
  }
  return Object.keys(changed).length > 0 ? (changed as Partial<HeartbeatFacts>) : undefined;
}

/** Where Linux keeps its machine id (systemd's, then D-Bus's for systems without systemd). */
export const LINUX_MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

/** `"IOPlatformUUID" = "…"` from `ioreg -rd1 -c IOPlatformExpertDevice`. */
export function parseIoregUuid(out: string): string | undefined {
  return /"IOPlatformUUID"\s*=\s*"([^"]+)"/.exec(out)?.[1]?.trim() || undefined;
}

/** `MachineGuid    REG_SZ    …` from `reg query HKLM\SOFTWARE\Microsoft\Cryptography /v MachineGuid`. */
export function parseRegMachineGuid(out: string): string | undefined {
  return /MachineGuid\s+REG_SZ\s+(\S+)/i.exec(out)?.[1]?.trim() || undefined;
}

/** The platform's raw machine id: Linux /etc/machine-id, macOS IOPlatformUUID, Windows MachineGuid; undefined when none can be read. */
export function rawMachineId(files: string[] = LINUX_MACHINE_ID_FILES): string | undefined {
  const run = (cmd: string, args: string[]): string => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
    } catch {
      return '';
    }
  };
  if (process.platform === 'darwin') return parseIoregUuid(run('ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice']));
  if (process.platform === 'win32') {
    // /reg:64: the 64-bit view, where MachineGuid lives, even from a 32-bit Node
    return parseRegMachineGuid(run('reg', ['query', 'HKLM\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid', '/reg:64']));
  }
  for (const file of files) {
    try {
      const id = readFileSync(file, 'utf8').trim();
      // systemd writes "uninitialized" into an image's file until the first boot gives it an id
      if (id && id !== 'uninitialized') return id;
    } catch {
      /* not there, or not readable: the next one */
    }
  }
  return undefined;
}

/**
 * What registration sends as `hardware_id`: the hex SHA-256 of the raw machine id, never the id itself
 * (docs/agent-protocol.md §1); undefined when the platform gives none.
 */
export function hardwareId(raw: string | undefined): string | undefined {
  return raw ? createHash('sha256').update(raw, 'utf8').digest('hex') : undefined;
}
