/**
 * Facts an agent sends in a heartbeat (docs/agent-protocol.md §2): the registration's facts minus
 * monitoring_type (an operator's choice once enrolled), and minus arch (accepted, not stored: no column). The
 * `hostname` fact is the device's own name: it is stored as os_hostname, never as the agent's hostname (the
 * agent's name in its client, which may be the one the enrollment function was asked for).
 * What presence stores of them; the agent channel parses them (agent-channel/heartbeat-facts-parser.ts).
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
