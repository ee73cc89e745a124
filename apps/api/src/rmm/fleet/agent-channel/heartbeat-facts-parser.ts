import { pgText } from '../../../common/values';
import { FACT_COLUMNS, HeartbeatFacts } from '../presence/heartbeat-facts';
import { validFacts } from './agent-protocol';

/**
 * Each field of a heartbeat's facts is checked on its own against FactsSchema (agent-protocol.ts, the
 * registration's bounds): unknown fields and fields that fail their rule are dropped, never an error (a heartbeat
 * is not answered). Text is made storable (pgText: a lone surrogate, which PostgreSQL's jsonb refuses, becomes
 * U+FFFD).
 */
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
