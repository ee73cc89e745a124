import { Injectable } from '@nestjs/common';
import type { AgentUpdateStatus } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { ClientScope } from '../../common/client-scope';

/** One update offered to an agent (status running): what update.available carries. */
export interface OfferedUpdate {
  agentId: number;
  fromVersion: string;
  target: string;
}

/** GET /api/v3/agents/updates/'s figures. */
export interface UpdateCounts {
  versions: Array<{ version: string | null; agents: number }>;
  statuses: Record<AgentUpdateStatus, number>;
  failures: Array<{ agentId: number; hostname: string; version: string; error: string | null; at: Date | null }>;
}

/** Serialises the slot count across instances (pg_advisory_xact_lock; the key is arbitrary but fixed). */
const SLOTS_LOCK = 2_264_022_001;

/**
 * agent_updates (one row per agent: its latest update; docs/agent-binaries.md). Every statement here is the whole
 * of its change, so two instances never offer one update twice or more than the concurrency between them.
 */
@Injectable()
export class AgentUpdatesRepository {
  constructor(private readonly tx: TransactionHost) {}

  /**
   * The agent reported `version` as a binary of `target` that can update itself: when it is not `to` and its
   * client updates automatically, a pending update to `to` (unless this very update already failed for it, or
   * is under way). True when a pending update was written.
   */
  async want(agentId: number, version: string, target: string, to: string): Promise<boolean> {
    const { rowCount } = await this.tx.exec(
      `INSERT INTO agent_updates (agent_id, from_version, to_version, target, status)
       SELECT a.id, $2, $4, $3, 'pending' FROM agents a JOIN clients c ON c.id = a.client_id
        WHERE a.id = $1 AND c.agent_update = 'auto'
       ON CONFLICT (agent_id) DO UPDATE SET from_version = EXCLUDED.from_version, to_version = EXCLUDED.to_version,
         target = EXCLUDED.target, status = 'pending', error = NULL, created_at = now(), started_at = NULL, finished_at = NULL
        WHERE agent_updates.to_version <> EXCLUDED.to_version
           OR (agent_updates.status = 'done')
           OR (agent_updates.status = 'pending' AND (agent_updates.from_version <> EXCLUDED.from_version OR agent_updates.target <> EXCLUDED.target))`,
      [agentId, version, target, to],
    );
    return rowCount > 0;
  }

  /** The agent came back on `version`: its update to it is done. True when that finished a pending or running one. */
  async arrived(agentId: number, version: string, now: Date): Promise<boolean> {
    const { rowCount } = await this.tx.exec(
      `UPDATE agent_updates SET status = 'done', finished_at = $3, error = NULL WHERE agent_id = $1 AND to_version = $2 AND status IN ('pending', 'running')`,
      [agentId, version, now],
    );
    return rowCount > 0;
  }

  /** The agent refused or rolled back `version`: failed (not offered again). The row when it was pending or running. */
  async failed(agentId: number, version: string, error: string, now: Date): Promise<{ fromVersion: string } | null> {
    const [row] = await this.tx.rows<{ from_version: string }>(
      `UPDATE agent_updates SET status = 'failed', error = $3, finished_at = $4 WHERE agent_id = $1 AND to_version = $2 AND status IN ('pending', 'running') RETURNING from_version`,
      [agentId, version, error, now],
    );
    return row ? { fromVersion: row.from_version } : null;
  }

  /**
   * Takes up to (concurrency − running) pending updates to `to` of the agents in `held` (those this instance holds a
   * connection of) and marks them running, oldest first, all in one transaction under an advisory lock, so the
   * count of running updates across every instance never passes `concurrency`.
   */
  takeSlots(to: string, held: number[], concurrency: number, now: Date): Promise<OfferedUpdate[]> {
    return this.tx.run(async () => {
      await this.tx.exec(`SELECT pg_advisory_xact_lock($1)`, [SLOTS_LOCK]);
      const rows = await this.tx.rows<{ agent_id: number; from_version: string; target: string }>(
        `UPDATE agent_updates u SET status = 'running', started_at = $4
          WHERE u.agent_id IN (
            SELECT p.agent_id FROM agent_updates p
             WHERE p.status = 'pending' AND p.to_version = $1 AND p.agent_id = ANY($2::int[])
             ORDER BY p.created_at, p.agent_id
             LIMIT GREATEST(0, $3 - (SELECT count(*) FROM agent_updates r WHERE r.status = 'running')))
          RETURNING u.agent_id, u.from_version, u.target`,
        [to, held, concurrency, now],
      );
      return rows.map((r) => ({ agentId: r.agent_id, fromVersion: r.from_version, target: r.target }));
    });
  }

  /** An offer that could not be sent (the agent went away meanwhile): back to pending, to be offered when it is here again. */
  async release(agentId: number): Promise<void> {
    await this.tx.exec(`UPDATE agent_updates SET status = 'pending', started_at = NULL WHERE agent_id = $1 AND status = 'running'`, [agentId]);
  }

  /** Running updates older than `before`: failed (the agent never came back on the new version nor said why). */
  async expire(before: Date, now: Date, error: string): Promise<Array<{ agentId: number; toVersion: string }>> {
    const rows = await this.tx.rows<{ agent_id: number; to_version: string }>(
      `UPDATE agent_updates SET status = 'failed', error = $3, finished_at = $2 WHERE status = 'running' AND started_at < $1 RETURNING agent_id, to_version`,
      [before, now, error],
    );
    return rows.map((r) => ({ agentId: r.agent_id, toVersion: r.to_version }));
  }

  /**
   * Updates under way whose agent's stored version is already the new one: done. (The agent's heartbeat normally
   * finishes its update at once; this catches one seen by an instance that did not know an update was under way.)
   */
  async settleArrived(now: Date): Promise<number> {
    const { rowCount } = await this.tx.exec(
      `UPDATE agent_updates u SET status = 'done', finished_at = $1, error = NULL FROM agents a
        WHERE a.id = u.agent_id AND u.status = 'running' AND a.version = u.to_version`,
      [now],
    );
    return rowCount;
  }

  /** Whether some update to `to` waits for a slot, and whether any update is under way. */
  async activity(to: string): Promise<{ pending: boolean; running: boolean }> {
    const [row] = await this.tx.rows<{ pending: boolean; running: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM agent_updates WHERE status = 'pending' AND to_version = $1) AS pending,
              EXISTS (SELECT 1 FROM agent_updates WHERE status = 'running') AS running`,
      [to],
    );
    return row;
  }

  /** The versions the agents in scope run, and their updates (to `to`) by status, and the latest failures. */
  async counts(to: string, clients: ClientScope): Promise<UpdateCounts> {
    const scope = `($1::int[] IS NULL OR a.client_id = ANY($1::int[]))`;
    const versions = await this.tx.rows<{ version: string | null; agents: number }>(
      `SELECT a.version, count(*)::int AS agents FROM agents a WHERE ${scope} GROUP BY a.version ORDER BY count(*) DESC, a.version`,
      [clients],
    );
    const statuses = await this.tx.rows<{ status: AgentUpdateStatus; n: number }>(
      `SELECT u.status, count(*)::int AS n FROM agent_updates u JOIN agents a ON a.id = u.agent_id WHERE ${scope} AND u.to_version = $2 GROUP BY u.status`,
      [clients, to],
    );
    const failures = await this.tx.rows<{ agent_id: number; hostname: string; to_version: string; error: string | null; finished_at: Date | null }>(
      `SELECT u.agent_id, a.hostname, u.to_version, u.error, u.finished_at FROM agent_updates u JOIN agents a ON a.id = u.agent_id
        WHERE ${scope} AND u.status = 'failed' ORDER BY u.finished_at DESC NULLS LAST, u.agent_id LIMIT 20`,
      [clients],
    );
    const byStatus: Record<AgentUpdateStatus, number> = { pending: 0, running: 0, done: 0, failed: 0 };
    for (const s of statuses) byStatus[s.status] = s.n;
    return {
      versions,
      statuses: byStatus,
      failures: failures.map((f) => ({ agentId: f.agent_id, hostname: f.hostname, version: f.to_version, error: f.error, at: f.finished_at })),
    };
  }
}
