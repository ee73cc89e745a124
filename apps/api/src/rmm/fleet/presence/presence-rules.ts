/**
 * The pure rules of presence (AgentPresenceService applies them, its repository writes them to the database): which connection of an
 * agent is current (its epoch), which heartbeats a flush writes, and which queued status writes go in one batch.
 * No database, no timers: unit-tested in presence-rules.spec.ts.
 */

/** One channel connection of an agent, as presence knows it. */
export interface PresenceConnection {
  readonly agentId: number;
  /** Local order of the connections made on this instance (a later connection has a greater one). */
  readonly seq: number;
  /**
   * The agent's connection_epoch this connection was given when its connect was written; null until then (or
   * when that write failed: such a connection never writes the agent's status).
   */
  epoch: number | null;
}

let nextSeq = 0;
/** A new connection of `agentId`, not yet written. */
export function newConnection(agentId: number): PresenceConnection {
  return { agentId, seq: ++nextSeq, epoch: null };
}

/**
 * True when a connection given `epoch` superseded `held`, this instance's connection of the same agent: another
 * connect was written after it (here or on another instance), so `held` must close (4000). A connection whose
 * own connect is not written yet is never told so (its epoch, once given, is the newest or it is told then).
 */
export function superseded(held: PresenceConnection, epoch: number): boolean {
  return held.epoch !== null && held.epoch < epoch;
}

/** A status write decided by the database: a transition is announced once, by the writer whose UPDATE made it. */
export type AgentStatus = 'online' | 'offline' | 'overdue';
export function isTransition(was: AgentStatus | string, now: AgentStatus): boolean {
  return was !== now;
}

/** A heartbeat waiting for the next flush. */
export interface PendingHeartbeat {
  agentId: number;
  epoch: number;
  at: Date;
}

/**
 * Heartbeats received since the last flush, one per agent: the latest connection's (by seq) wins, and within a
 * connection the latest time. A flush writes each with its connection's epoch, so the heartbeats of a connection
 * that has been superseded change nothing (the UPDATE names the epoch). A heartbeat of a connection whose connect
 * is not written yet waits for the next flush.
 */
export class HeartbeatBuffer {
  private readonly pending = new Map<number, { conn: PresenceConnection; at: Date }>();

  get size(): number {
    return this.pending.size;
  }

  record(conn: PresenceConnection, at: Date): void {
    const had = this.pending.get(conn.agentId);
    if (had && had.conn.seq > conn.seq) return; // a newer connection's heartbeat is waiting: this one is stale
    if (had && had.conn === conn && had.at > at) return;
    this.pending.set(conn.agentId, { conn, at });
  }

  /** What a flush writes now (and forgets); heartbeats of connections not yet written stay for the next one. */
  take(): PendingHeartbeat[] {
    const out: PendingHeartbeat[] = [];
    for (const [agentId, { conn, at }] of this.pending) {
      if (conn.epoch === null) continue;
      out.push({ agentId, epoch: conn.epoch, at });
      this.pending.delete(agentId);
    }
    return out;
  }

  /** The connection closed: its waiting heartbeat (null: none), taken out (its close writes it as last_seen). */
  takeFor(conn: PresenceConnection): Date | null {
    const had = this.pending.get(conn.agentId);
    if (!had || had.conn !== conn) return null;
    this.pending.delete(conn.agentId);
    return had.at;
  }
}

/** A queued status write of one connection: its connect, or its close (a release: closed by this server stopping). */
export interface StatusOp {
  kind: 'connect' | 'disconnect' | 'release';
  conn: PresenceConnection;
  /** connect: when; disconnect, release: when it was last heard, not yet written (null: nothing new). */
  at: Date | null;
}

/**
 * Status writes waiting for a batch, in the order they were made. A batch takes at most one write per agent (the
 * oldest waiting): a connection's close is written only after its connect (so it knows its epoch), and a newer
 * connect after the older connection's writes. What a batch leaves waits for the next one.
 */
export class StatusQueue<T extends StatusOp = StatusOp> {
  private ops: T[] = [];

  get size(): number {
    return this.ops.length;
  }

  push(op: T): void {
    this.ops.push(op);
  }

  /** The next batch: at most `max` writes, one per agent, oldest first. */
  next(max: number): T[] {
    const taken: T[] = [];
    const agents = new Set<number>();
    const rest: T[] = [];
    for (const op of this.ops) {
      if (taken.length < max && !agents.has(op.conn.agentId)) {
        agents.add(op.conn.agentId);
        taken.push(op);
      } else rest.push(op);
    }
    this.ops = rest;
    return taken;
  }
}
