import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { TransactionHost } from '../../database/transaction-host';
import { hashApiKey } from '../api-keys/api-key-secret';
import { RmmEvents } from '../events/rmm-events';
import { FACT_COLUMNS, HeartbeatFacts } from './heartbeat-facts';

/** How often the heartbeats received meanwhile are written (one UPDATE for all of them). */
export const HEARTBEAT_FLUSH_MS = 5_000;
/** The most rows one batched statement (secrets read, statuses written) carries. */
const BATCH_ROWS = 5_000;

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (err: Error) => void;
}
interface StatusWrite {
  status: 'online' | 'offline';
  /** online: the time of the connect; offline: the last heartbeat not yet written (null: none). */
  at: Date | null;
  waiters: Array<Waiter<void>>;
}

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
  `locked AS MATERIALIZED (SELECT a.id FROM ${from} WHERE ${where} ORDER BY a.id FOR UPDATE OF a)`;

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
 * What the agent channel reads and writes: an agent's credentials, and its presence. Connecting and
 * disconnecting are written at once; heartbeats only update memory and are written behind, batched every
 * HEARTBEAT_FLUSH_MS, so a heartbeat never costs a database write of its own.
 *
 * At scale (a reconnect storm: 20,000 agents within seconds, docs/performance.md) nothing here costs a
 * statement per agent: the secrets asked for in one turn of the event loop are read with one SELECT, the
 * connects and disconnects of one turn are written with one UPDATE (one batch at a time, so a later status of
 * an agent is never overtaken by an earlier one), and the facts of one heartbeat flush with one UPDATE.
 */
@Injectable()
export class AgentPresenceRepository implements BeforeApplicationShutdown {
  private readonly logger = new Logger('agent-presence');
  private readonly seen = new Map<number, Date>();
  /** Facts heard in heartbeats since the last flush (merged: a later heartbeat's field wins). */
  private readonly facts = new Map<number, HeartbeatFacts>();
  private readonly timer = setInterval(() => void this.flush(), HEARTBEAT_FLUSH_MS).unref();
  /** Secrets asked for since the last read: agent → the SHA-256 of each secret offered, with its waiter. */
  private readonly secretsAsked = new Map<number, Array<Waiter<boolean> & { hash: Buffer }>>();
  private secretsScheduled = false;
  /** Status writes waiting for the next batch (the latest per agent wins; every caller is answered). */
  private readonly statusQueue = new Map<number, StatusWrite>();
  private statusWriting = false;
  /** Heartbeat flushes (heartbeats and facts), one after another. */
  private writes: Promise<unknown> = Promise.resolve();
  /** The batch run writing statuses now (awaited at shutdown). */
  private statusRun: Promise<void> = Promise.resolve();

  constructor(
    private readonly tx: TransactionHost,
    private readonly events: RmmEvents,
  ) {}

  /** True when `secret` is the agent's current secret (a re-enrollment replaces it). Batched: one SELECT per event-loop turn. */
  verifySecret(agentId: number, secret: string): Promise<boolean> {
    const hash = Buffer.from(hashApiKey(secret), 'hex');
    return new Promise<boolean>((resolve, reject) => {
      const asked = this.secretsAsked.get(agentId);
      if (asked) asked.push({ hash, resolve, reject });
      else this.secretsAsked.set(agentId, [{ hash, resolve, reject }]);
      if (!this.secretsScheduled) {
        this.secretsScheduled = true;
        setImmediate(() => void this.readSecrets());
      }
    });
  }

  private async readSecrets(): Promise<void> {
    this.secretsScheduled = false;
    const asked = [...this.secretsAsked];
    this.secretsAsked.clear();
    for (let i = 0; i < asked.length; i += BATCH_ROWS) {
      const batch = asked.slice(i, i + BATCH_ROWS);
      try {
        const rows = await this.tx.rows<{ id: number; secret_hash: string | null }>(`SELECT id, secret_hash FROM agents WHERE id = ANY($1::int[])`, [
          batch.map(([id]) => id),
        ]);
        const stored = new Map(rows.map((r) => [r.id, r.secret_hash]));
        for (const [agentId, waiters] of batch) {
          const hex = stored.get(agentId);
          const b = hex ? Buffer.from(hex, 'hex') : null;
          for (const w of waiters) w.resolve(b !== null && w.hash.length === b.length && timingSafeEqual(w.hash, b));
        }
      } catch (err) {
        for (const [, waiters] of batch) for (const w of waiters) w.reject(err as Error);
      }
    }
  }

  online(agentId: number, at: Date): Promise<void> {
    this.seen.delete(agentId);
    return this.writeStatus(agentId, 'online', at);
  }

  /** The channel closed: offline; `last_seen` stays the last time the agent was heard (a pending heartbeat counts). */
  offline(agentId: number): Promise<void> {
    const heard = this.seen.get(agentId) ?? null;
    this.seen.delete(agentId);
    return this.writeStatus(agentId, 'offline', heard);
  }

  /** Queues an agent's new status; resolves once it is written (with the others of its batch). */
  private writeStatus(agentId: number, status: 'online' | 'offline', at: Date | null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const queued = this.statusQueue.get(agentId);
      const waiters = queued ? queued.waiters : [];
      waiters.push({ resolve, reject });
      // A pending heartbeat time still counts for an offline that replaces a queued online.
      const offlineAt = status === 'offline' && queued?.status === 'online' ? (at ?? queued.at) : at;
      this.statusQueue.set(agentId, { status, at: status === 'offline' ? offlineAt : at, waiters });
      if (!this.statusWriting) {
        this.statusWriting = true;
        setImmediate(() => (this.statusRun = this.writeStatuses()));
      }
    });
  }

  /** Writes the queued statuses, one statement per batch, one batch at a time, until the queue is empty. */
  private async writeStatuses(): Promise<void> {
    while (this.statusQueue.size > 0) {
      const batch = [...this.statusQueue].slice(0, BATCH_ROWS);
      for (const [agentId] of batch) this.statusQueue.delete(agentId);
      try {
        const ids = batch.map(([id]) => id);
        const statuses = batch.map(([, w]) => w.status);
        const times = batch.map(([, w]) => (w.at ? w.at.toISOString() : null));
        await retryDeadlock(() =>
          this.tx.exec(
            `WITH ${lockInIdOrder('a.id = ANY($1::int[])')}
             UPDATE agents a SET status = s.status,
                    last_seen = CASE WHEN s.status = 'online' THEN s.at ELSE GREATEST(a.last_seen, COALESCE(s.at, a.last_seen)) END
               FROM unnest($1::int[], $2::text[], $3::timestamptz[]) AS s(id, status, at), locked l WHERE a.id = s.id AND l.id = s.id`,
            [ids, statuses, times],
          ),
        );
        for (const [, w] of batch) for (const waiter of w.waiters) waiter.resolve();
      } catch (err) {
        for (const [, w] of batch) for (const waiter of w.waiters) waiter.reject(err as Error);
      }
    }
    this.statusWriting = false;
  }

  /**
   * The silence rules, applied to every agent (whichever instance holds its channel): online and silent for
   * `offlineAfter` seconds → offline; silent for `overdueAfter` → overdue. Each row changes once (the UPDATE
   * decides), so several instances sweeping together announce each change once.
   */
  async markSilent(now: Date, offlineAfterSeconds: number, overdueAfterSeconds: number): Promise<{ offline: number[]; overdue: number[] }> {
    await this.flush();
    // (the UPDATE in a CTE, so that the driver answers rows rather than an UPDATE's [rows, count]; the
    // conditions again in the UPDATE: a row changed while it was being locked is checked on its new version)
    const offline = await retryDeadlock(() =>
      this.tx.rows<{ id: number }>(
        `WITH ${lockInIdOrder(`a.status = 'online' AND a.last_seen < $1::timestamptz - $2 * interval '1 second'`)},
         changed AS (UPDATE agents a SET status = 'offline' FROM locked l
                      WHERE a.id = l.id AND a.status = 'online' AND a.last_seen < $1::timestamptz - $2 * interval '1 second' RETURNING a.id)
         SELECT id FROM changed`,
        [now, offlineAfterSeconds],
      ),
    );
    const overdue = await retryDeadlock(() =>
      this.tx.rows<{ id: number }>(
        `WITH ${lockInIdOrder(`a.status <> 'overdue' AND a.last_seen < $1::timestamptz - $2 * interval '1 second'`)},
         changed AS (UPDATE agents a SET status = 'overdue' FROM locked l
                      WHERE a.id = l.id AND a.status <> 'overdue' AND a.last_seen < $1::timestamptz - $2 * interval '1 second' RETURNING a.id)
         SELECT id FROM changed`,
        [now, overdueAfterSeconds],
      ),
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
  flush(): Promise<number> {
    return this.serial(() => this.flushNow());
  }

  /** Runs a flush after the ones before it (two flushes never run side by side). */
  private serial<T>(write: () => Promise<T>): Promise<T> {
    const run = this.writes.then(write, write);
    this.writes = run.catch(() => undefined);
    return run;
  }

  private async flushNow(): Promise<number> {
    const facts = [...this.facts];
    this.facts.clear();
    if (facts.length > 0) await this.writeFacts(facts);
    if (this.seen.size === 0) return 0;
    const ids = [...this.seen.keys()];
    const times = ids.map((id) => this.seen.get(id)!.toISOString());
    this.seen.clear();
    try {
      await retryDeadlock(() =>
        this.tx.exec(
          `WITH ${lockInIdOrder('a.id = ANY($1::int[])')}
           UPDATE agents a SET last_seen = GREATEST(a.last_seen, s.at), status = 'online'
             FROM unnest($1::int[], $2::timestamptz[]) AS s(id, at), locked l WHERE a.id = s.id AND l.id = s.id`,
          [ids, times],
        ),
      );
    } catch (err) {
      this.logger.warn(`heartbeats not written (${ids.length}): ${(err as Error).message}`);
    }
    return ids.length;
  }

  /**
   * The facts of one flush, one statement: a field not sent keeps its stored value; a row whose facts did not
   * change is left alone. A batch PostgreSQL refuses (a value it will not store, whatever validation missed) is
   * written again row by row, so that only the refused row is lost, never the other agents' facts.
   */
  private async writeFacts(batch: Array<[number, HeartbeatFacts]>): Promise<void> {
    for (let i = 0; i < batch.length; i += BATCH_ROWS) {
      const rows = batch.slice(i, i + BATCH_ROWS).map(([id, f]) => ({ id, f }));
      try {
        await this.writeFactRows(rows);
      } catch (err) {
        if (rows.length === 1) {
          this.logger.warn(`facts of agent ${rows[0].id} not written: ${(err as Error).message}`);
          continue;
        }
        this.logger.warn(`facts of ${rows.length} agents refused as one batch (${(err as Error).message}); writing them one by one`);
        for (const row of rows) {
          await this.writeFactRows([row]).catch((e: Error) => this.logger.warn(`facts of agent ${row.id} not written: ${e.message}`));
        }
      }
    }
  }

  /** One statement for these rows; announces agent.updated for each agent whose stored facts changed. */
  private async writeFactRows(rows: Array<{ id: number; f: HeartbeatFacts }>): Promise<void> {
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
           UPDATE agents a SET ${FACT_COLUMNS.map((c, k) => `${c} = ${next[k]}`).join(', ')}
             FROM s, locked l WHERE a.id = s.id AND l.id = s.id AND ${differs}
           RETURNING a.id)
         SELECT id FROM changed`,
        [JSON.stringify(rows)],
      ),
    );
    for (const { id } of changed) this.events.emit('agent.updated', { agentId: id });
  }

  /** Before the database closes: the last heartbeats are written. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    await new Promise((resolve) => setImmediate(resolve));
    await this.statusRun;
  }
}
