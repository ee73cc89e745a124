import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { Clock } from '../../../common/clock';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { hashApiKey } from '../../common/api-key-secret';
import { RmmEvents } from '../../common/bus/rmm-events';
import { AgentPresenceRepository, StatusWrite } from './agent-presence.repository';
import { HeartbeatFacts } from './heartbeat-facts';
import { HeartbeatBuffer, isTransition, newConnection, PresenceConnection, StatusOp, StatusQueue } from './presence-rules';

/** How often the heartbeats received meanwhile are written (one UPDATE for all of them). */
export const HEARTBEAT_FLUSH_MS = 5_000;
/** The most rows one batched statement (secrets read, statuses written) carries. */
const BATCH_ROWS = 5_000;
/**
 * Secrets reads running at once. Upgrades arrive one per event-loop turn, so a read per turn carried one agent
 * each in a reconnect storm (19,645 reads for 19,900 agents, measured); with the reads capped, the agents asked
 * about while they run wait for the next read, which takes all of them: one read when the server is quiet, a few
 * hundred agents a read when it is not.
 */
const SECRET_READS_AT_ONCE = 2;
/**
 * The least time from one batch's start to the next's while work keeps coming (secrets reads, status writes):
 * what an upgrade or a `hello` may wait at most for company. In a reconnect storm each statement then carries
 * tens of agents instead of two or three, and PostgreSQL and the server spend their CPU on agents, not on
 * statements (a 19,900-agent storm ran ~23,000 presence statements before, measured with a counting pg wrapper).
 */
export const BATCH_SPACING_MS = 25;

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (err: Error) => void;
}
/** A queued status write and who waits for it. */
interface QueuedOp extends StatusOp {
  waiter: Waiter<void>;
}

/**
 * Told, on the instance that made the change, right after it is written (never through pub/sub): the once-only
 * effects of presence hang here (AvailabilityAlerts, CheckSync, RunQueue, the gateway). Each gets a batch of agent ids.
 */
export interface PresenceListener {
  /** Channels connected (and written) here: every connect, whether or not the agent was online before. */
  connected?(agentIds: number[]): void;
  /** Agents that came back online while connected (a heartbeat after a sweep had turned them offline or overdue). */
  back?(agentIds: number[]): void;
  /** Agents this instance's sweep turned offline (silent: a connection still held for one is dead). */
  silent?(agentIds: number[]): void;
  /** Agents this instance's sweep turned overdue. */
  overdue?(agentIds: number[]): void;
}

/**
 * The one owner of an agent's presence (status, last_seen, connection_epoch) and of its announcements
 * (agent.online, agent.offline, agent.overdue, agent.connected, agent.updated for facts): nothing else writes those
 * columns (AgentPresenceRepository holds the SQL). Every connect increments the agent's connection_epoch and gives
 * its connection that epoch; every later write of that connection (its heartbeats, its close) names it, so a stale
 * connection (superseded here or on another instance) changes nothing. Each transition is decided by one UPDATE
 * (which returns the status before), and announced once, by the instance whose UPDATE made it. The once-only
 * effects (alerts, the check list at connect) are called directly on that instance (PresenceListener), never
 * through pub/sub.
 *
 * Connecting and disconnecting are written at once; heartbeats only update memory and are written behind, by the
 * job `presence.flush` every HEARTBEAT_FLUSH_MS, so a heartbeat never costs a database write of its own; the job
 * `presence.silence-sweep` applies the silence rules. At scale (a reconnect storm: 20,000 agents within seconds,
 * docs/performance.md) nothing here costs a statement per agent: the secrets asked for in one turn of the event loop
 * are read with one SELECT, the connects and disconnects of one turn are written with one UPDATE (one batch at a
 * time, at most one write per agent per batch, so a later write of an agent is never overtaken by an earlier one),
 * and the facts of one heartbeat flush with one UPDATE.
 */
@Injectable()
export class AgentPresenceService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('agent-presence');
  private readonly beats = new HeartbeatBuffer();
  /** The newest connection of each agent made on this instance (a heartbeat given without its connection is its). */
  private readonly current = new Map<number, PresenceConnection>();
  /** Facts heard in heartbeats since the last flush (merged: a later heartbeat's field wins). */
  private readonly facts = new Map<number, HeartbeatFacts>();
  /** Secrets asked for since the last read: agent → the SHA-256 of each secret offered, with its waiter. */
  private readonly secretsAsked = new Map<number, Array<Waiter<boolean> & { hash: Buffer }>>();
  private secretsScheduled = false;
  private secretReads = 0;
  private lastSecretRead = 0;
  /** Status writes waiting for the next batch. */
  private readonly statusQueue = new StatusQueue<QueuedOp>();
  private statusWriting = false;
  /** Heartbeat flushes (heartbeats and facts), one after another. */
  private writes: Promise<unknown> = Promise.resolve();
  /** The batch run writing statuses now (awaited at shutdown). */
  private statusRun: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<PresenceListener>();
  private readonly flushJob: Job;
  private readonly sweepJob: Job;

  constructor(
    private readonly repo: AgentPresenceRepository,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
    private readonly config: RuntimeConfig,
    jobs: Jobs,
  ) {
    // Every instance: the heartbeats and facts are this instance's memory.
    this.flushJob = jobs.every('presence.flush', { seconds: HEARTBEAT_FLUSH_MS / 1000, mode: 'every-instance' }, () => this.flush());
    // Every instance: a sweep writes this instance's heartbeats first (else its agents could look silent), and
    // drops the connections it holds of agents it turned offline. Silence is checked at least once a heartbeat (and
    // every 15 s at most), so an agent whose connection stays open but says nothing is offline at most
    // RMM_AGENT_OFFLINE_AFTER_SECONDS + one heartbeat after its last one.
    const every = Math.min(15, config.agentHeartbeatSeconds, Math.max(1, Math.floor(config.agentOfflineAfterSeconds / 4)));
    this.sweepJob = jobs.every('presence.silence-sweep', { seconds: every, mode: 'every-instance' }, () => this.sweepSilent());
  }

  /** Registers a listener of this instance's presence changes; returns the function that removes it. */
  listen(listener: PresenceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(what: keyof PresenceListener, agentIds: number[]): void {
    if (agentIds.length === 0) return;
    for (const l of this.listeners) {
      try {
        l[what]?.(agentIds);
      } catch (err) {
        this.logger.error(`presence listener (${what}) failed: ${(err as Error).message}`);
      }
    }
  }

  /**
   * True when `secret` is the agent's current secret (a re-enrollment replaces it). Batched: one SELECT for the
   * agents asked about in one event-loop turn, or meanwhile when SECRET_READS_AT_ONCE reads are running.
   */
  verifySecret(agentId: number, secret: string): Promise<boolean> {
    const hash = Buffer.from(hashApiKey(secret), 'hex');
    return new Promise<boolean>((resolve, reject) => {
      const asked = this.secretsAsked.get(agentId);
      if (asked) asked.push({ hash, resolve, reject });
      else this.secretsAsked.set(agentId, [{ hash, resolve, reject }]);
      this.scheduleSecrets();
    });
  }

  private scheduleSecrets(): void {
    if (this.secretsScheduled || this.secretReads >= SECRET_READS_AT_ONCE || this.secretsAsked.size === 0) return;
    this.secretsScheduled = true;
    const wait = this.lastSecretRead + BATCH_SPACING_MS - Date.now();
    // (a wait before one batch: no loop, the next read is scheduled by this one's end)
    if (wait > 0) setTimeout(() => void this.readSecrets(), wait);
    else setImmediate(() => void this.readSecrets());
  }

  private async readSecrets(): Promise<void> {
    this.secretsScheduled = false;
    const asked = [...this.secretsAsked];
    this.secretsAsked.clear();
    this.lastSecretRead = Date.now();
    this.secretReads++;
    try {
      await this.readSecretsOf(asked);
    } finally {
      this.secretReads--;
      this.scheduleSecrets();
    }
  }

  private async readSecretsOf(asked: Array<[number, Array<Waiter<boolean> & { hash: Buffer }>]>): Promise<void> {
    for (let i = 0; i < asked.length; i += BATCH_ROWS) {
      const batch = asked.slice(i, i + BATCH_ROWS);
      try {
        const rows = await this.repo.secretHashes(batch.map(([id]) => id));
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

  /**
   * A channel connected at `at`: the agent is online, its connection_epoch incremented; resolves once written,
   * with the connection (its epoch set). Announces agent.online when the agent was not online (a connection
   * replacing another, here or on another instance, is no transition), and agent.connected (with the epoch) in
   * every case, for whichever instance holds an older connection of the agent to close it (4000).
   */
  connect(agentId: number, at: Date): Promise<PresenceConnection> {
    const conn = newConnection(agentId);
    this.current.set(agentId, conn);
    return this.queue({ kind: 'connect', conn, at }).then(() => conn);
  }

  /** This instance's current connection of the agent (the one its latest connect here made), if any. */
  connectionOf(agentId: number): PresenceConnection | undefined {
    return this.current.get(agentId);
  }

  /**
   * The connection closed: offline, if it is still the agent's current connection (its epoch) and the agent is
   * online; `last_seen` stays the last time the agent was heard (a pending heartbeat of this connection counts).
   * A stale connection's close changes nothing and announces nothing.
   *
   * `released`: this server closed it because it is going away (shutdown), and the agent reconnects, here after a
   * restart or to another instance. That is not the agent going offline: its status is left as it is and only when
   * it was last heard is written (`released.heardAt`, the agent answering the close, or its pending heartbeat), so
   * an agent back within RMM_AGENT_OFFLINE_AFTER_SECONDS announces nothing, and one that is not is turned offline
   * (agent.offline, once) by the silence sweep of whichever instance runs then, as after a crash.
   */
  disconnect(conn: PresenceConnection, released?: { heardAt: Date | null }): Promise<void> {
    const pending = this.beats.takeFor(conn);
    if (this.current.get(conn.agentId) === conn) this.current.delete(conn.agentId);
    if (!released) return this.queue({ kind: 'disconnect', conn, at: pending });
    const heard = [pending, released.heardAt].filter((d): d is Date => d !== null);
    return this.queue({ kind: 'release', conn, at: heard.length === 0 ? null : new Date(Math.max(...heard.map((d) => d.getTime()))) });
  }

  /** Queues a connection's status write; resolves once it is written (with the others of its batch). */
  private queue(op: StatusOp): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.statusQueue.push({ ...op, waiter: { resolve, reject } });
      if (!this.statusWriting) {
        this.statusWriting = true;
        setImmediate(() => (this.statusRun = this.writeStatuses()));
      }
    });
  }

  /** Writes the queued status writes, one statement per batch, one batch at a time, until the queue is empty. */
  private async writeStatuses(): Promise<void> {
    let started = 0;
    while (this.statusQueue.size > 0) {
      const wait = started + BATCH_SPACING_MS - Date.now();
      if (started > 0 && wait > 0) await new Promise((r) => setTimeout(r, wait));
      started = Date.now();
      const all = this.statusQueue.next(BATCH_ROWS);
      // A close whose connect was never written (it failed) has nothing to write.
      const batch = all.filter((op) => op.kind === 'connect' || op.conn.epoch !== null);
      for (const op of all) if (!batch.includes(op)) op.waiter.resolve();
      if (batch.length === 0) continue;
      try {
        const rows = await this.repo.writeStatuses(
          batch.map((op): StatusWrite => ({ agentId: op.conn.agentId, kind: op.kind, at: op.at, epoch: op.conn.epoch })),
          this.clock.now(),
          this.config.notifyOfflineGraceSeconds,
        );
        const connected: number[] = [];
        for (const r of rows) {
          if (r.kind === 'connect') {
            const op = batch.find((o) => o.kind === 'connect' && o.conn.agentId === r.id)!;
            op.conn.epoch = Number(r.epoch);
            connected.push(r.id);
            if (isTransition(r.was, 'online')) this.events.emit('agent.online', { agentId: r.id });
            this.events.emit('agent.connected', { agentId: r.id, epoch: op.conn.epoch });
          } else if (r.kind === 'disconnect') {
            this.events.emit('agent.offline', { agentId: r.id });
          } // (a release changes no status: nothing to announce)
        }
        for (const op of batch) op.waiter.resolve();
        // After the waiters (the gateway greets its agents first), on this instance only: the once-only effects.
        if (connected.length > 0) setImmediate(() => this.tell('connected', connected));
      } catch (err) {
        for (const op of batch) op.waiter.reject(err as Error);
      }
    }
    this.statusWriting = false;
  }

  /**
   * The silence rules now (the job presence.silence-sweep): agents silent for RMM_AGENT_OFFLINE_AFTER_SECONDS become
   * offline (a connection this instance still holds for one is dropped by its gateway: it is dead), silent for
   * RMM_AGENT_OVERDUE_AFTER_SECONDS overdue.
   */
  sweepSilent(): Promise<{ offline: number[]; overdue: number[] }> {
    return this.markSilent(this.clock.now(), this.config.agentOfflineAfterSeconds, this.config.agentOverdueAfterSeconds);
  }

  /**
   * The silence rules, applied to every agent (whichever instance holds its channel): online and silent for
   * `offlineAfter` seconds → offline; silent for `overdueAfter` → overdue. Each row changes once (the UPDATE
   * decides), so several instances sweeping together announce each change once (agent.offline, agent.overdue)
   * and the instance that made an agent overdue opens its alert (PresenceListener.overdue).
   */
  async markSilent(now: Date, offlineAfterSeconds: number, overdueAfterSeconds: number): Promise<{ offline: number[]; overdue: number[] }> {
    await this.flush();
    const offline = await this.repo.markOffline(now, offlineAfterSeconds, this.config.notifyOfflineGraceSeconds);
    // agent.offline of the agents whose close (or silence) is past RMM_NOTIFY_OFFLINE_GRACE_SECONDS by now
    await this.repo.notifyOffline(now);
    const overdue = await this.repo.markOverdue(now, overdueAfterSeconds);
    for (const agentId of offline) this.events.emit('agent.offline', { agentId });
    for (const agentId of overdue) this.events.emit('agent.overdue', { agentId });
    this.tell('silent', offline);
    this.tell('overdue', overdue);
    return { offline, overdue };
  }

  /**
   * A heartbeat (with the facts it carried, already validated) of a connection (by default this instance's newest
   * connection of the agent): remembered now, written with the next flush under that connection's epoch.
   */
  heartbeat(agentId: number, at: Date, facts?: HeartbeatFacts | null, conn?: PresenceConnection): void {
    const of = conn ?? this.current.get(agentId);
    if (of) this.beats.record(of, at);
    if (facts) this.facts.set(agentId, { ...this.facts.get(agentId), ...facts });
  }

  /**
   * Writes the heartbeats received since the last flush, in one statement, then the facts that came with them
   * (one statement per agent that sent any: they change rarely); announces agent.updated once for each agent
   * whose stored facts really changed. How many heartbeats it wrote.
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
    const beats = this.beats.take();
    if (beats.length === 0) return 0;
    try {
      const back = await this.repo.writeHeartbeats(beats);
      for (const agentId of back) this.events.emit('agent.online', { agentId });
      this.tell('back', back);
    } catch (err) {
      this.logger.warn(`heartbeats not written (${beats.length}): ${(err as Error).message}`);
    }
    return beats.length;
  }

  /**
   * The facts of one flush, one statement: a batch PostgreSQL refuses (a value it will not store, whatever
   * validation missed) is written again row by row, so that only the refused row is lost, never the other agents'
   * facts. agent.updated for each agent whose stored facts changed.
   */
  private async writeFacts(batch: Array<[number, HeartbeatFacts]>): Promise<void> {
    for (let i = 0; i < batch.length; i += BATCH_ROWS) {
      const rows = batch.slice(i, i + BATCH_ROWS).map(([id, f]) => ({ id, f }));
      try {
        this.updated(await this.repo.writeFacts(rows));
      } catch (err) {
        if (rows.length === 1) {
          this.logger.warn(`facts of agent ${rows[0].id} not written: ${(err as Error).message}`);
          continue;
        }
        this.logger.warn(`facts of ${rows.length} agents refused as one batch (${(err as Error).message}); writing them one by one`);
        for (const row of rows) {
          await this.repo.writeFacts([row]).then(
            (ids) => this.updated(ids),
            (e: Error) => this.logger.warn(`facts of agent ${row.id} not written: ${e.message}`),
          );
        }
      }
    }
  }

  private updated(agentIds: number[]): void {
    for (const agentId of agentIds) this.events.emit('agent.updated', { agentId });
  }

  /** Before the database closes: the flush and the sweep stop, the last heartbeats are written. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.flushJob.stop(), this.sweepJob.stop()]);
    await this.flush();
    await new Promise((resolve) => setImmediate(resolve));
    await this.statusRun;
  }
}
