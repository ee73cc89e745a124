import { Injectable } from '@nestjs/common';
import { RuntimeConfig } from '../../../config/runtime-config';
import { TransactionHost } from '../../../database/transaction-host';
import { outboxCtes } from '../../alerting/notifications/notification-outbox';
import { FACT_COLUMNS, HeartbeatFacts } from './heartbeat-facts';
import { PendingHeartbeat } from './presence-rules';

/**
 * Every multi-row write of `agents` here locks its rows first, in id order, and only then updates them: two
 * batches running side by side (a status batch, a heartbeat flush, a facts flush, a sweep, or another
 * instance's) then always take their row locks in the same order, so they queue rather than deadlock. Without
 * it, each UPDATE … FROM locked rows in its own plan's order; at 19,900 agents a facts flush and a status batch
 * deadlocked in most reconnect storms, and each deadlock held both for PostgreSQL's deadlock_timeout (1 s)
 * before one was rolled back, twice in a row: every `hello` waited 2 s. MATERIALIZED keeps PostgreSQL from
 * folding the CTE into the UPDATE (where its ORDER BY would no longer decide the order of the locks).
 */
const lockInIdOrder = (where: string, from = 'agents a'): string =>
  `locked AS MATERIALIZED (SELECT a.id, a.status AS was, a.offline_notified AS notified FROM ${from} WHERE ${where} ORDER BY a.id FOR UPDATE OF a)`;

/**
 * Runs a batched write again when PostgreSQL chose it as a deadlock's victim anyway (it rolled back, nothing
 * was written): a write of agents elsewhere (registration, an operator's PATCH) does not follow lockInIdOrder.
 * Each batch is one statement, so running it again is safe.
 */
async function retryDeadlock<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await write();
    } catch (err) {
      if (i >= attempts || (err as { code?: string }).code !== '40P01') throw err;
    }
  }
}

/**
 * One status write of a batch: a connection's connect or close (PresenceConnection's agent and epoch). A `release`
 * is a close by this server going away (shutdown: the agent reconnects, here or elsewhere): it writes when the agent
 * was last heard and leaves its status, so the agent coming back within RMM_AGENT_OFFLINE_AFTER_SECONDS is no
 * transition, and the silence sweep (any instance) turns it offline once that long has passed without it.
 */
export interface StatusWrite {
  agentId: number;
  kind: 'connect' | 'disconnect' | 'release';
  /** connect: when; disconnect, release: when the agent was last heard, not yet written (null: nothing new). */
  at: Date | null;
  /** The connection's epoch (null for a connect: the statement gives it one). */
  epoch: number | null;
}

/** What a status batch changed: each row's kind, its new epoch, and the status before. */
export interface StatusChange {
  id: number;
  kind: 'connect' | 'disconnect' | 'release';
  epoch: string;
  was: string;
}

/**
 * The SQL of presence, and only that (AgentPresenceService batches, buffers, sweeps and announces): the agents'
 * status, last_seen, connection_epoch and facts. Each statement is one batch of any number of agents; each status
 * change writes its notifications into the outbox in the same statement (a CTE: one statement, atomic with the
 * change, joining nothing when no channel subscribes; notification-outbox.ts); each transition is decided by the
 * UPDATE, which returns the status before. Nothing here emits an event.
 */
@Injectable()
export class AgentPresenceRepository {
  constructor(
    private readonly tx: TransactionHost,
    private readonly config: RuntimeConfig,
  ) {}

  /** outboxCtes with this server's RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR. */
  private outbox(name: string, event: Parameters<typeof outboxCtes>[1], source: string): string {
    return outboxCtes(name, event, source, this.config.notifyMaxPerAgentPerHour);
  }

  /** The stored secret hash (hex SHA-256) of each agent asked about that exists. */
  secretHashes(agentIds: number[]): Promise<Array<{ id: number; secret_hash: string | null }>> {
    return this.tx.rows<{ id: number; secret_hash: string | null }>(`SELECT id, secret_hash FROM agents WHERE id = ANY($1::int[])`, [agentIds]);
  }

  /**
   * One batch of connects and closes (at most one per agent): a connect makes the agent online and increments its
   * connection_epoch; a close makes it offline only if its epoch is still the agent's and the agent is online
   * (`last_seen` stays the last time it was heard, the close's pending heartbeat included); a release (the server
   * going away) writes only `last_seen`, if its epoch is still the agent's. Presence is debounced
   * (docs/notifications.md): a close notifies agent.offline only after `graceSeconds` (offline_notify_at, for
   * notifyOffline; at once when 0), and a connect notifies agent.online only when the agent's offline was notified.
   * The rows changed.
   */
  writeStatuses(batch: StatusWrite[], now: Date, graceSeconds: number): Promise<StatusChange[]> {
    return retryDeadlock(() =>
      this.tx.rows<StatusChange>(
        `WITH s AS (SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::bigint[]) AS x(id, kind, at, epoch)),
         ${lockInIdOrder('a.id = ANY($1::int[])')},
         changed AS (
           UPDATE agents a SET
             status = CASE s.kind WHEN 'connect' THEN 'online' WHEN 'release' THEN a.status ELSE 'offline' END,
             last_seen = CASE WHEN s.kind = 'connect' THEN s.at ELSE GREATEST(a.last_seen, COALESCE(s.at, a.last_seen)) END,
             connection_epoch = CASE WHEN s.kind = 'connect' THEN a.connection_epoch + 1 ELSE a.connection_epoch END,
             offline_notify_at = CASE WHEN s.kind = 'connect' THEN NULL
                                      WHEN s.kind = 'disconnect' AND $6::int > 0 THEN $5::timestamptz + $6::int * interval '1 second'
                                      ELSE a.offline_notify_at END,
             offline_notified = CASE WHEN s.kind = 'connect' THEN false WHEN s.kind = 'disconnect' AND $6::int = 0 THEN true ELSE a.offline_notified END
            FROM s, locked l
           WHERE a.id = s.id AND l.id = s.id
             AND (s.kind = 'connect' OR (a.connection_epoch = s.epoch AND (s.kind = 'release' OR a.status = 'online')))
           RETURNING a.id, s.kind, a.connection_epoch::text AS epoch, l.was, l.notified),
         -- the notifications, in this statement (its transaction): none without the change, never the change without them
         ${this.outbox('online', 'agent.online', `SELECT id AS agent_id FROM changed WHERE kind = 'connect' AND was <> 'online' AND notified`)},
         ${this.outbox('offline', 'agent.offline', `SELECT id AS agent_id FROM changed WHERE kind = 'disconnect' AND $6::int = 0`)}
         SELECT id, kind, epoch, was FROM changed`,
        [batch.map((w) => w.agentId), batch.map((w) => w.kind), batch.map((w) => (w.at ? w.at.toISOString() : null)), batch.map((w) => w.epoch), now, graceSeconds],
      ),
    );
  }

  /**
   * Online and silent for `offlineAfterSeconds` → offline; agent.offline into the outbox for those silent for
   * `graceSeconds` too (the others: offline_notify_at, for notifyOffline); the agents changed. Each row changes
   * once (the UPDATE decides), so instances sweeping together change each agent once.
   */
  async markOffline(now: Date, offlineAfterSeconds: number, graceSeconds = 0): Promise<number[]> {
    // (the UPDATE in a CTE, so that the driver answers rows rather than an UPDATE's [rows, count]; the
    // conditions again in the UPDATE: a row changed while it was being locked is checked on its new version)
    const rows = await retryDeadlock(() =>
      this.tx.rows<{ id: number }>(
        `WITH ${lockInIdOrder(`a.status = 'online' AND a.last_seen < $1::timestamptz - $2 * interval '1 second'`)},
         changed AS (UPDATE agents a SET status = 'offline',
                             offline_notified = a.last_seen <= $1::timestamptz - $3::int * interval '1 second',
                             offline_notify_at = CASE WHEN a.last_seen <= $1::timestamptz - $3::int * interval '1 second' THEN NULL
                                                      ELSE a.last_seen + $3::int * interval '1 second' END
                        FROM locked l
                      WHERE a.id = l.id AND a.status = 'online' AND a.last_seen < $1::timestamptz - $2 * interval '1 second' RETURNING a.id, a.offline_notified),
         ${this.outbox('notified', 'agent.offline', 'SELECT id AS agent_id FROM changed WHERE offline_notified')}
         SELECT id FROM changed ORDER BY id`,
        [now, offlineAfterSeconds, graceSeconds],
      ),
    );
    return rows.map((r) => r.id);
  }

  /**
   * agent.offline of the agents still offline (or overdue) whose grace has passed (offline_notify_at, written by a
   * close or by markOffline), into the outbox, once each (the UPDATE decides); the agents notified.
   */
  async notifyOffline(now: Date): Promise<number[]> {
    const rows = await retryDeadlock(() =>
      this.tx.rows<{ id: number }>(
        `WITH ${lockInIdOrder(`a.offline_notify_at <= $1::timestamptz`)},
         changed AS (UPDATE agents a SET offline_notify_at = NULL, offline_notified = a.status <> 'online' FROM locked l
                      WHERE a.id = l.id AND a.offline_notify_at <= $1::timestamptz RETURNING a.id, a.offline_notified),
         ${this.outbox('notified', 'agent.offline', 'SELECT id AS agent_id FROM changed WHERE offline_notified')}
         SELECT id FROM changed WHERE offline_notified ORDER BY id`,
        [now],
      ),
    );
    return rows.map((r) => r.id);
  }

  /** Silent for `overdueAfterSeconds` → overdue (agent.overdue into the outbox); the agents changed, once each. */
  async markOverdue(now: Date, overdueAfterSeconds: number): Promise<number[]> {
    const rows = await retryDeadlock(() =>
      this.tx.rows<{ id: number }>(
        `WITH ${lockInIdOrder(`a.status <> 'overdue' AND a.last_seen < $1::timestamptz - $2 * interval '1 second'`)},
         changed AS (UPDATE agents a SET status = 'overdue' FROM locked l
                      WHERE a.id = l.id AND a.status <> 'overdue' AND a.last_seen < $1::timestamptz - $2 * interval '1 second' RETURNING a.id),
         ${this.outbox('notified', 'agent.overdue', 'SELECT id AS agent_id FROM changed')}
         SELECT id FROM changed ORDER BY id`,
        [now, overdueAfterSeconds],
      ),
    );
    return rows.map((r) => r.id);
  }

  /**
   * The heartbeats of one flush: last_seen of each row whose epoch is the heartbeat's connection's (a superseded
   * connection's heartbeats change nothing); an agent a sweep had turned offline or overdue while it was connected
   * comes back online (agent.online into the outbox when its offline was notified). The agents that came back.
   */
  async writeHeartbeats(beats: PendingHeartbeat[]): Promise<number[]> {
    const rows = await retryDeadlock(() =>
      this.tx.rows<{ id: number }>(
        `WITH s AS (SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::bigint[]) AS x(id, at, epoch)),
         ${lockInIdOrder('a.connection_epoch = s.epoch', 'agents a JOIN s ON a.id = s.id')},
         changed AS (
           UPDATE agents a SET last_seen = GREATEST(a.last_seen, s.at), status = 'online', offline_notify_at = NULL, offline_notified = false
             FROM s, locked l WHERE a.id = s.id AND l.id = s.id AND a.connection_epoch = s.epoch
           RETURNING a.id, l.was, l.notified),
         ${this.outbox('notified', 'agent.online', `SELECT id AS agent_id FROM changed WHERE was <> 'online' AND notified`)}
         SELECT id FROM changed WHERE was <> 'online' ORDER BY id`,
        [beats.map((b) => b.agentId), beats.map((b) => b.at.toISOString()), beats.map((b) => b.epoch)],
      ),
    );
    return rows.map((r) => r.id);
  }

  /**
   * The facts of these agents, one statement: a field not sent keeps its stored value; a row whose facts did not
   * change is left alone. The agents whose stored facts changed.
   */
  async writeFacts(rows: Array<{ id: number; f: HeartbeatFacts }>): Promise<number[]> {
    const value = (c: (typeof FACT_COLUMNS)[number]): string =>
      c === 'total_ram' ? `(s.f->>'total_ram')::double precision` : c === 'disks' ? `s.f->'disks'` : `s.f->>'${c}'`;
    const next = FACT_COLUMNS.map((c) => `CASE WHEN s.f->'${c}' IS NOT NULL THEN ${value(c)} ELSE a.${c} END`);
    const differs = `(${FACT_COLUMNS.map((c) => `a.${c}`).join(', ')}) IS DISTINCT FROM (${next.join(', ')})`;
    const changed = await retryDeadlock(() =>
      this.tx.rows<{ id: number }>(
        // Only the rows whose facts differ are locked (in id order, as everywhere here) and written; after a
        // restart every agent resends facts that mostly did not change.
        `WITH s AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id int, f jsonb)),
         ${lockInIdOrder(differs, 'agents a JOIN s ON a.id = s.id')},
         changed AS (
           UPDATE agents a SET ${FACT_COLUMNS.map((c, k) => `${c} = ${next[k]}`).join(', ')}, updated_at = now()
             FROM s, locked l WHERE a.id = s.id AND l.id = s.id AND ${differs}
           RETURNING a.id)
         SELECT id FROM changed`,
        [JSON.stringify(rows)],
      ),
    );
    return changed.map((r) => r.id);
  }
}

