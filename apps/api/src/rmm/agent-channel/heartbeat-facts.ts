/**
 * Facts an agent sends in a heartbeat (docs/agent-protocol.md §2): the registration's facts minus hostname
 * and monitoring_type (an operator's choice once enrolled), and minus arch (accepted, not stored: no column). Checked by hand, with the registration DTO's
 * bounds: unknown fields and fields that fail their rule are dropped, never an error (a heartbeat is not answered).
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const PRINTABLE = /^[^\u0000-\u001f\u007f]*$/;
const PLATFORMS = ['windows', 'darwin', 'linux'] as const;

/** Column → value; only the columns that were sent and valid. */
export interface HeartbeatFacts {
  plat?: string;
  version?: string;
  operating_system?: string;
  cpu_model?: string;
  total_ram?: number;
  disks?: Array<{ device: string; free: string; total: string; percent: number }>;
  public_ip?: string;
  local_ip?: string;
  logged_in_username?: string;
}

export const FACT_COLUMNS = ['plat', 'version', 'operating_system', 'cpu_model', 'total_ram', 'disks', 'public_ip', 'local_ip', 'logged_in_username'] as const;

const text = (v: unknown, max: number, min = 0): string | undefined =>
  typeof v === 'string' && v.length >= min && v.length <= max && PRINTABLE.test(v) ? v : undefined;

function disks(v: unknown): HeartbeatFacts['disks'] {
  if (!Array.isArray(v) || v.length > 64) return undefined;
  const out: NonNullable<HeartbeatFacts['disks']> = [];
  for (const d of v as unknown[]) {
    if (typeof d !== 'object' || d === null) return undefined;
    const r = d as Record<string, unknown>;
    const device = text(r.device, 255);
    const free = text(r.free, 32);
    const total = text(r.total, 32);
    const percent = r.percent;
    if (device === undefined || free === undefined || total === undefined) return undefined;
    if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 0 || percent > 100) return undefined;
    out.push({ device, free, total, percent });
  }
  return out;
}

/** The valid facts of a heartbeat's `facts` value; null when there are none. */
export function parseHeartbeatFacts(raw: unknown): HeartbeatFacts | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const f: HeartbeatFacts = {};
  if (typeof r.plat === 'string' && (PLATFORMS as readonly string[]).includes(r.plat)) f.plat = r.plat;
  const put = (key: Exclude<keyof HeartbeatFacts, 'plat' | 'total_ram' | 'disks'>, max: number, min = 0): void => {
    const v = text(r[key], max, min);
    if (v !== undefined) f[key] = v;
  };
  put('version', 64, 1);
  put('operating_system', 255);
  put('cpu_model', 255);
  put('public_ip', 64);
  put('local_ip', 255);
  put('logged_in_username', 255);
  if (typeof r.total_ram === 'number' && Number.isFinite(r.total_ram) && r.total_ram >= 0 && r.total_ram <= 1_000_000) f.total_ram = r.total_ram;
  const d = disks(r.disks);
  if (d !== undefined) f.disks = d;
  return Object.keys(f).length > 0 ? f : null;
}
