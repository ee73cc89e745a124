import { pgText } from '../../../common/values';
import { validFacts } from '../agent-channel/agent-protocol';

/**
 * Facts an agent sends in a heartbeat (docs/agent-protocol.md §2): the registration's facts minus
 * monitoring_type (an operator's choice once enrolled), and minus arch (accepted, not stored: no column). The
 * `hostname` fact is the device's own name: it is stored as os_hostname, never as the agent's hostname (the
 * agent's name in its client, which may be the one the enrollment function was asked for).
 * Each field is checked on its own against FactsSchema (agent-protocol.ts, the registration's bounds): unknown
 * fields and fields that fail their rule are dropped, never an error (a heartbeat is not answered). Text is made
 * storable (pgText: a lone surrogate, which PostgreSQL's jsonb refuses, becomes U+FFFD).
 */

/** Column → value; only the columns that were sent and valid. */
export interface HeartbeatFacts {
  /** From the fact `hostname`. */
  os_hostname?: string;
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

export const FACT_COLUMNS = ['os_hostname', 'plat', 'version', 'operating_system', 'cpu_model', 'total_ram', 'disks', 'public_ip', 'local_ip', 'logged_in_username'] as const;

/** The valid facts of a heartbeat's `facts` value; null when there are none. */
export function parseHeartbeatFacts(raw: unknown): HeartbeatFacts | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const valid = validFacts(raw as Record<string, unknown>);
  const f: HeartbeatFacts = {};
  for (const column of FACT_COLUMNS) {
    const v = column === 'os_hostname' ? valid.hostname : valid[column];
    if (v === undefined) continue;
    if (column === 'disks') f.disks = valid.disks!.map((d) => ({ device: pgText(d.device), free: pgText(d.free), total: pgText(d.total), percent: d.percent }));
    else if (column === 'total_ram') f.total_ram = v as number;
    else f[column] = pgText(v as string);
  }
  return Object.keys(f).length > 0 ? f : null;
}
