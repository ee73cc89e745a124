import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { TransactionHost } from '../../database/transaction-host';
import { hashApiKey } from '../api-keys/api-key-secret';
import { RmmEvents } from '../events/rmm-events';
import { FACT_COLUMNS, HeartbeatFacts } from './heartbeat-facts';

/** How often the heartbeats received meanwhile are written (one UPDATE for all of them). */
export const HEARTBEAT_FLUSH_MS = 5_000;

/**
 * What the agent channel reads and writes: an agent's credentials, and its presence. Connecting and
 * disconnecting are written at once; heartbeats only update memory and are written behind, batched every
 * HEARTBEAT_FLUSH_MS, so a heartbeat never costs a database write of its own.
 */
@Injectable()
export class AgentPresenceRepository implements BeforeApplicationShutdown {
  private readonly logger = new Logger('agent-presence');
  private readonly seen = new Map<number, Date>();
  /** Facts heard in heartbeats since the last flush (merged: a later heartbeat's field wins). */
  private readonly facts = new Map<number, HeartbeatFacts>();
  private readonly timer = setInterval(() => void this.flush(), HEARTBEAT_FLUSH_MS).unref();

  constructor(
    private readonly tx: TransactionHost,
    private readonly events: RmmEvents,
  ) {}

  /** True when `secret` is the agent's current secret (a re-enrollment replaces it). */
  async verifySecret(agentId: number, secret: string): Promise<boolean> {
    const rows = await this.tx.query<Array<{ secret_hash: string | null }>>(`SELECT secret_hash FROM agents WHERE id = $1`, [agentId]);
    const stored = rows[0]?.secret_hash;
    if (!stored) return false;
    const a = Buffer.from(hashApiKey(secret), 'hex');
    const b = Buffer.from(stored, 'hex');
    return a.length === b.length && timingSafeEqual(a, b);
  }

  async online(agentId: number, at: Date): Promise<void> {
    this.seen.delete(agentId);
    await this.tx.query(`UPDATE agents SET status = 'online', last_seen = $2 WHERE id = $1`, [agentId, at]);
  }

  /** The channel closed: offline; `last_seen` stays the last time the agent was heard (a pending heartbeat counts). */
  async offline(agentId: number): Promise<void> {
    const heard = this.seen.get(agentId) ?? null;
    this.seen.delete(agentId);
    await this.tx.query(`UPDATE agents SET status = 'offline', last_seen = GREATEST(last_seen, COALESCE($2::timestamptz, last_seen)) WHERE id = $1`, [agentId, heard]);
  }

  /**
   * The silence rules, applied to every agent (whichever instance holds its channel): online and silent for
   * `offlineAfter` seconds → offline; silent for `overdueAfter` → overdue. Each row changes once (the UPDATE
   * decides), so several instances sweeping together announce each change once.
   */
  async markSilent(now: Date, offlineAfterSeconds: number, overdueAfterSeconds: number): Promise<{ offline: number[]; overdue: number[] }> {
    await this.flush();
    const offline = await this.tx.query<Array<{ id: number }>>(
      // (a CTE, so that the driver answers rows rather than an UPDATE's [rows, count])
      `WITH changed AS (UPDATE agents SET status = 'offline' WHERE status = 'online' AND last_seen < $1::timestamptz - $2 * interval '1 second' RETURNING id)
       SELECT id FROM changed`,
      [now, offlineAfterSeconds],
    );
    const overdue = await this.tx.query<Array<{ id: number }>>(
      `WITH changed AS (UPDATE agents SET status = 'overdue' WHERE status <> 'overdue' AND last_seen < $1::timestamptz - $2 * interval '1 second' RETURNING id)
       SELECT id FROM changed`,
      [now, overdueAfterSeconds],
    );
    return { offline: offline.map((r) => r.id), overdue: overdue.map((r) => r.id) };
  }

  /** A heartbeat (with the facts it carried, already validated): remembered now, written with the next flush. */
  heartbeat(agentId: number, at: Date, facts?: HeartbeatFacts | null): void {
    this.seen.set(agentId, at);
    if (facts) this.facts.set(agentId, { ...this.facts.get(agentId), ...facts });
  }

  /**
   * Writes the heartbeats received since the last flush, in one statement, then the facts that came with them
   * (one statement per agent that sent any: they change rarely); announces agent.updated once for each agent
   * whose stored facts really changed.
   */
  async flush(): Promise<number> {
    const facts = [...this.facts];
    this.facts.clear();
    if (facts.length > 0) await this.writeFacts(facts);
    if (this.seen.size === 0) return 0;
    const ids = [...this.seen.keys()];
    const times = ids.map((id) => this.seen.get(id)!.toISOString());
    this.seen.clear();
    try {
      await this.tx.query(
        `UPDATE agents a SET last_seen = GREATEST(a.last_seen, s.at), status = 'online'
           FROM unnest($1::int[], $2::timestamptz[]) AS s(id, at) WHERE a.id = s.id`,
        [ids, times],
      );
    } catch (err) {
      this.logger.warn(`heartbeats not written (${ids.length}): ${(err as Error).message}`);
    }
    return ids.length;
  }

  private async writeFacts(batch: Array<[number, HeartbeatFacts]>): Promise<void> {
    const cast = { total_ram: 'double precision', disks: 'jsonb' } as Record<string, string>;
    for (const [agentId, f] of batch) {
      const columns = FACT_COLUMNS.filter((c) => f[c] !== undefined);
      if (columns.length === 0) continue;
      const values = columns.map((c) => (c === 'disks' ? JSON.stringify(f.disks) : f[c]));
      const params = columns.map((c, i) => `$${i + 2}::${cast[c] ?? 'text'}`);
      try {
        const changed = await this.tx.query<Array<{ id: number }>>(
          `WITH changed AS (
             UPDATE agents SET ${columns.map((c, i) => `${c} = ${params[i]}`).join(', ')}
              WHERE id = $1 AND (${columns.join(', ')}) IS DISTINCT FROM (${params.join(', ')}) RETURNING id)
           SELECT id FROM changed`,
          [agentId, ...values],
        );
        if (changed.length > 0) this.events.emit('agent.updated', { agentId });
      } catch (err) {
        this.logger.warn(`facts of agent ${agentId} not written: ${(err as Error).message}`);
      }
    }
  }

  /** Before the database closes: the last heartbeats are written. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
