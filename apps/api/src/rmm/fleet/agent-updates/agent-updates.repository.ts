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
         target = EXCLUDED.target, status = 'pending', error = NULL, created_at = now(), started_at = NULL, finished_at = NULL,
         not_before = NULL
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
   * connection of) whose target's binary is ready (`targets`) and whose `not_before` has passed, and marks them
   * running, all in one transaction under an advisory lock, so the count of running updates across every instance
   * never passes `concurrency`.
   *
   * Fair between clients (N3): the waiting updates (pending, agent online) are ranked within their client, oldest
   * first, and a slot goes to the lowest (updates its client has running + its rank): a client alone takes every
   * free slot, but once another client's agent waits, each freed slot goes to the waiting client with the fewest
   * updates running. (Across instances each ranks only the agents it holds: a waiting client held elsewhere gets
   * the next slot freed there.)
   */
  takeSlots(to: string, held: number[], concurrency: number, now: Date, targets: string[]): Promise<OfferedUpdate[]> {
    return this.tx.run(async () => {
      await this.tx.exec(`SELECT pg_advisory_xact_lock($1)`, [SLOTS_LOCK]);
      const rows = await this.tx.rows<{ agent_id: number; from_version: string; target: string }>(
        `UPDATE agent_updates u SET status = 'running', started_at = $4, not_before = NULL
          WHERE u.agent_id IN (
            SELECT w.agent_id
              FROM (SELECT p.agent_id, p.created_at, a.client_id,
                           row_number() OVER (PARTITION BY a.client_id ORDER BY p.created_at, p.agent_id) AS k
                      FROM agent_updates p JOIN agents a ON a.id = p.agent_id
                     WHERE p.status = 'pending' AND p.to_version = $1 AND a.status = 'online' AND p.target = ANY($5::text[])
                       AND (p.not_before IS NULL OR p.not_before <= $4)) w
              LEFT JOIN (SELECT a.client_id, count(*) AS n FROM agent_updates r JOIN agents a ON a.id = r.agent_id
                          WHERE r.status = 'running' GROUP BY a.client_id) busy ON busy.client_id IS NOT DISTINCT FROM w.client_id
             WHERE w.agent_id = ANY($2::int[])
             ORDER BY COALESCE(busy.n, 0) + w.k, w.created_at, w.agent_id
             LIMIT GREATEST(0, $3 - (SELECT count(*) FROM agent_updates r WHERE r.status = 'running')))
          RETURNING u.agent_id, u.from_version, u.target`,
        [to, held, concurrency, now, targets],
      );
      return rows.map((r) => ({ agentId: r.agent_id, fromVersion: r.from_version, target: r.target }));
    });
  }

  /**
   * The targets the pending updates to `to` of the agents in `held` need (whose `not_before` has passed), each with
   * its oldest waiting agent: their binaries are built (or found) before any of them is offered.
   */
  async waitingTargets(to: string, held: number[], now: Date): Promise<Array<{ target: string; agentId: number }>> {
    const rows = await this.tx.rows<{ target: string; agent_id: number }>(
      `SELECT DISTINCT ON (p.target) p.target, p.agent_id FROM agent_updates p
        WHERE p.status = 'pending' AND p.to_version = $1 AND p.agent_id = ANY($2::int[]) AND (p.not_before IS NULL OR p.not_before <= $3)
        ORDER BY p.target, p.created_at, p.agent_id`,
      [to, held, now],
    );
    return rows.map((r) => ({ target: r.target, agentId: r.agent_id }));
  }

  /**
   * An offer given back: back to pending, its slot free at once, offered again from `notBefore` (null: at the next
   * round). True when it was running.
   */
  async release(agentId: number, notBefore: Date | null = null): Promise<boolean> {
    const { rowCount } = await this.tx.exec(
      `UPDATE agent_updates SET status = 'pending', started_at = NULL, not_before = $2 WHERE agent_id = $1 AND status = 'running'`,
      [agentId, notBefore],
    );
    return rowCount > 0;
  }

  /** Offers made before `before` whose agent has not answered (still running): released, offered again from `notBefore`. */
  async releaseUnanswered(before: Date, notBefore: Date): Promise<number[]> {
    const rows = await this.tx.rows<{ agent_id: number }>(
      `UPDATE agent_updates SET status = 'pending', started_at = NULL, not_before = $2 WHERE status = 'running' AND started_at < $1 RETURNING agent_id`,
      [before, notBefore],
    );
    return rows.map((r) => r.agent_id);
  }

  /**
   * Halts the rollout of `version` when more than `threshold` updates to it failed since `since` (an hour ago) and
   * since its last resume: one statement (the row's primary key decides between instances). The halt it wrote, or
   * null (not enough failures, or halted already).
   */
  async haltIfFailing(version: string, since: Date, threshold: number, now: Date): Promise<{ reason: string } | null> {
    const [row] = await this.tx.rows<{ reason: string }>(
      `WITH f AS (
         SELECT count(*)::int AS n, (array_agg(a.hostname || ': ' || COALESCE(u.error, 'no reason given') ORDER BY u.finished_at DESC))[1] AS last
           FROM agent_updates u JOIN agents a ON a.id = u.agent_id
          WHERE u.to_version = $1::text AND u.status = 'failed' AND u.finished_at > $2::timestamptz
            AND u.finished_at > COALESCE((SELECT h.resumed_at FROM agent_update_halts h WHERE h.version = $1), '-infinity'))
       INSERT INTO agent_update_halts (version, halted_at, reason)
       SELECT $1::text, $4::timestamptz, f.n || ' updates to ' || $1::text || ' failed within an hour (more than RMM_AGENT_UPDATE_HALT_FAILURES, ' || $3::int || '); the last: ' || left(f.last, 500)
         FROM f WHERE f.n > $3::int
       ON CONFLICT (version) DO UPDATE SET halted_at = EXCLUDED.halted_at, reason = EXCLUDED.reason, alert_id = NULL, resumed_at = NULL, resumed_by = NULL
        WHERE agent_update_halts.resumed_at IS NOT NULL
       RETURNING reason`,
      [version, since, threshold, now],
    );
    return row ?? null;
  }

  /** The alert the halt of `version` opened. */
  async setHaltAlert(version: string, alertId: number): Promise<void> {
    await this.tx.exec(`UPDATE agent_update_halts SET alert_id = $2 WHERE version = $1`, [version, alertId]);
  }

  /** The halt of `version` under way, if any. */
  async halt(version: string): Promise<{ at: Date; reason: string; alertId: number | null } | null> {
    const [row] = await this.tx.rows<{ halted_at: Date; reason: string; alert_id: number | null }>(
      `SELECT halted_at, reason, alert_id FROM agent_update_halts WHERE version = $1 AND resumed_at IS NULL`,
      [version],
    );
    return row ? { at: row.halted_at, reason: row.reason, alertId: row.alert_id } : null;
  }

  /** Ends the halt of `version` (who, when); the halt's alert id, or undefined when it was not halted. */
  async resume(version: string, by: string, now: Date): Promise<{ alertId: number | null } | undefined> {
    const [row] = await this.tx.rows<{ alert_id: number | null }>(
      `UPDATE agent_update_halts SET resumed_at = $3, resumed_by = $2 WHERE version = $1 AND resumed_at IS NULL RETURNING alert_id`,
      [version, by, now],
    );
    return row ? { alertId: row.alert_id } : undefined;
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

  /** Whether some update to `to` waits for a slot, whether any update is under way, and whether `to`'s rollout is halted. */
  async activity(to: string): Promise<{ pending: boolean; running: boolean; halted: boolean }> {
    const [row] = await this.tx.rows<{ pending: boolean; running: boolean; halted: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM agent_updates WHERE status = 'pending' AND to_version = $1) AS pending,
              EXISTS (SELECT 1 FROM agent_updates WHERE status = 'running') AS running,
              EXISTS (SELECT 1 FROM agent_update_halts WHERE version = $1 AND resumed_at IS NULL) AS halted`,
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
