import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { Clock } from '../../common/clock';
import { RuntimeConfig } from '../../config/runtime-config';
import { parseId } from '../../common/values';
import { refuseUpgrade, upgradeRouterOf } from '../../common/http/upgrade-router';
import { RmmEvents } from '../events/rmm-events';
import { LocalAgentChannel } from './agent-channel';
import { AgentPresenceRepository } from './agent-presence.repository';
import { parseAgentMessage } from './agent-protocol';
import { parseHeartbeatFacts } from './heartbeat-facts';
import { PresenceConnection, superseded } from './presence-rules';

export const AGENT_WS_PATH = '/agent/v1/ws';
/** The largest message an agent may send (a script's output comes in chunks well below it). */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Ping interval: a connection that does not answer two pings in a row is dropped. */
const PING_MS = 30_000;
/**
 * Each round of pings is spread over this many ticks of the interval (1 s each): pinging 20,000 sockets in one
 * tick (and taking their 20,000 pongs together) stalled the event loop for hundreds of milliseconds every 30 s.
 */
const PING_SLICES = 30;

/** The most that may wait to be sent to an agent: past it, nothing more is queued and the connection is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Invalid messages an agent may send within INVALID_WINDOW_MS; one more closes its connection (1008). */
export const MAX_INVALID_MESSAGES = 20;
const INVALID_WINDOW_MS = 60_000;
/** The burst an agent may send above RMM_AGENT_MAX_MESSAGES_PER_SECOND: this many seconds' worth. */
const BURST_SECONDS = 5;
/** How long a connection being closed may take to answer the close before it is dropped (its buffers freed). */
const CLOSE_GRACE_MS = 1_000;

/** Close codes the agent acts on (docs/agent-protocol.md). */
export const CLOSE = {
  shuttingDown: { code: 1001, reason: 'server shutting down' },
  invalid: { code: 1008, reason: `too many invalid messages: more than ${MAX_INVALID_MESSAGES} in a minute` },
  flooding: { code: 1008, reason: 'too many messages: over RMM_AGENT_MAX_MESSAGES_PER_SECOND' },
  notReading: { code: 1008, reason: `not reading: more than ${MAX_BUFFERED_BYTES / 1024 / 1024} MiB waiting to be sent` },
  internal: { code: 1011, reason: 'server error' },
  replaced: { code: 4000, reason: 'replaced by a newer connection of this agent' },
  secretReplaced: { code: 4001, reason: 'agent re-enrolled: this secret no longer works' },
} as const;

/** What the gateway keeps per connection to hold it to its limits. */
interface Limits {
  /** Times (ms) of its invalid messages within the window. */
  invalid: number[];
  /** Token bucket of the message rate: tokens left, and when it was last filled. */
  tokens: number;
  filledAt: number;
}

/**
 * The agent channel's server side: one WebSocket per agent at /agent/v1/ws, authenticated before the
 * upgrade completes (`X-Agent-Id` and `Authorization: Bearer <agent secret>`; 401 otherwise). It attaches
 * the connection to the LocalAgentChannel (commands out, answers in) and tells AgentPresenceRepository, which owns
 * the agent's status and announces its changes: the connect, each heartbeat, the close, each with its connection.
 */
@Injectable()
export class AgentGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('agent-gateway');
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly sockets = new Map<number, WebSocket>();
  /** The presence connection of each socket (its epoch: whether a connect elsewhere superseded it). */
  private readonly conns = new WeakMap<WebSocket, PresenceConnection>();
  private server?: Server;
  private pinger?: NodeJS.Timeout;
  private sweeper?: NodeJS.Timeout;
  private offRegistered?: () => void;
  private offConnected?: () => void;
  /**
   * Set at shutdown. By then the server no longer accepts connections (common/http/stop-accepting.ts); an
   * upgrade still arriving on a connection opened before is told to retry (503), never 404.
   */
  private closing = false;
  /** Upgrades being authenticated: awaited at shutdown, so that each ends in a 1001 rather than a 503. */
  private readonly upgrading = new Set<Promise<void>>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly channel: LocalAgentChannel,
    private readonly presence: AgentPresenceRepository,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
    private readonly config: RuntimeConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!this.server) return; // (the CLI's context serves no HTTP)
    // Through the server's one upgrade router (common/http/upgrade-router.ts), beside the events WebSocket.
    // (kept until the HTTP server closes: at shutdown an agent is answered 503 "retry", never 404)
    upgradeRouterOf(this.server).register({
      name: 'agent channel',
      match: (path) => (path.replace(/\/+$/, '') === AGENT_WS_PATH ? {} : null),
      handle: this.onUpgrade,
    });
    this.offRegistered = this.events.on('agent.registered', ({ agentId, reenrolled }) => {
      const ws = reenrolled ? this.sockets.get(agentId) : undefined;
      if (ws) closeAgent(ws, CLOSE.secretReplaced);
    });
    // The agent connected again, here or on another instance (a later epoch): its connection held here is closed
    // as replaced, like a second connection on this instance (accept). Its close then changes nothing (stale epoch).
    this.offConnected = this.events.on('agent.connected', ({ agentId, epoch }) => {
      const ws = this.sockets.get(agentId);
      const conn = ws && this.conns.get(ws);
      if (ws && conn && superseded(conn, epoch)) closeAgent(ws, CLOSE.replaced);
    });
    const alive = new WeakMap<WebSocket, boolean>();
    let round: WebSocket[] = [];
    let tick = 0;
    this.pinger = setInterval(() => {
      // A round: the sockets connected when it began, one slice per tick; one joining meanwhile waits for the next.
      if (tick === 0) round = [...this.sockets.values()];
      const end = Math.floor(((tick + 1) * round.length) / PING_SLICES);
      for (let i = Math.floor((tick * round.length) / PING_SLICES); i < end; i++) {
        const ws = round[i];
        if (ws.readyState !== WebSocket.OPEN) continue;
        if (alive.get(ws) === false) {
          ws.terminate();
          continue;
        }
        alive.set(ws, false);
        ws.once('pong', () => alive.set(ws, true));
        ws.ping();
      }
      tick = (tick + 1) % PING_SLICES;
      if (tick === 0) round = [];
    }, PING_MS / PING_SLICES).unref();
    const every = Math.min(15, Math.max(1, Math.floor(this.config.agentOfflineAfterSeconds / 4))) * 1000;
    this.sweeper = setInterval(() => void this.sweepSilent().catch((err: Error) => this.logger.warn(`status sweep failed: ${err.message}`)), every).unref();
  }

  /**
   * Agents silent for RMM_AGENT_OFFLINE_AFTER_SECONDS become offline (a connection this instance still holds
   * for one is dropped: it is dead), silent for RMM_AGENT_OVERDUE_AFTER_SECONDS overdue; each change announced
   * (by AgentPresenceRepository, once).
   */
  async sweepSilent(): Promise<{ offline: number[]; overdue: number[] }> {
    const changed = await this.presence.markSilent(this.clock.now(), this.config.agentOfflineAfterSeconds, this.config.agentOverdueAfterSeconds);
    for (const agentId of changed.offline) this.sockets.get(agentId)?.terminate(); // (its close changes nothing more)
    return changed;
  }

  /**
   * SIGTERM (the listening socket is already closed): upgrades under way complete, then every agent is told the
   * server is going (1001: it reconnects after a random 1–5 s, to whichever instance listens), heartbeats are written.
   */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pinger);
    clearInterval(this.sweeper);
    this.offRegistered?.();
    this.offConnected?.();
    this.closing = true;
    await Promise.allSettled([...this.upgrading]);
    for (const ws of this.sockets.values()) closeAgent(ws, CLOSE.shuttingDown);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  isConnected(agentId: number): boolean {
    return this.sockets.has(agentId);
  }

  /** An upgrade to /agent/v1/ws (the router answers 404 to paths no WebSocket serves). */
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (this.closing) return refuseUpgrade(socket, 503, 'the server is shutting down, retry shortly');
    const upgrade = this.authenticate(req)
      .then(
        (agentId) => {
          if (agentId === null) return refuseUpgrade(socket, 401, 'Invalid agent credentials');
          // Authenticated while the server began to shut down: the agent hears 1001 like the others.
          this.wss.handleUpgrade(req, socket, head, (ws) => (this.closing ? ws.close(CLOSE.shuttingDown.code, CLOSE.shuttingDown.reason) : this.accept(agentId, ws)));
        },
        (err: Error) => {
          this.logger.warn(`agent upgrade failed: ${err.message}`);
          refuseUpgrade(socket, 503, 'the database is not available, retry shortly');
        },
      )
      .finally(() => this.upgrading.delete(upgrade));
    this.upgrading.add(upgrade);
  };

  private async authenticate(req: IncomingMessage): Promise<number | null> {
    const header = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const agentId = parseId(header('x-agent-id'));
    const secret = /^Bearer\s+(\S+)$/i.exec(header('authorization') ?? '')?.[1];
    if (agentId === null || !secret) return null;
    return (await this.presence.verifySecret(agentId, secret)) ? agentId : null;
  }

  private accept(agentId: number, ws: WebSocket): void {
    const previous = this.sockets.get(agentId);
    if (previous) closeAgent(previous, CLOSE.replaced);
    this.sockets.set(agentId, ws);
    const detach = this.channel.attach(agentId, { send: (message) => this.send(agentId, ws, message) });
    // The status is written (batched with the other connects of this moment) before the agent is greeted: whoever
    // reads its status after `hello` or agent.online reads online. Presence announces the change, if it is one.
    const connected = this.presence.connect(agentId, this.clock.now());
    const rate = this.config.agentMaxMessagesPerSecond;
    const limits: Limits = { invalid: [], tokens: rate * BURST_SECONDS, filledAt: Date.now() };
    ws.on('message', (data, isBinary) => {
      // The guard: whatever one message does wrong (a bug here, or in a feature's handler) closes this connection
      // and is logged; it never reaches the process.
      if (ws.readyState !== WebSocket.OPEN) return; // closing: what it still sends is not read
      try {
        if (!this.withinRate(limits, rate)) {
          this.logger.warn(`agent ${agentId}: connection closed, over ${rate} messages per second`);
          return closeAgent(ws, CLOSE.flooding, 'now');
        }
        this.onMessage(agentId, ws, limits, isBinary ? null : data.toString());
      } catch (err) {
        this.logger.error(`agent ${agentId}: a message could not be handled (connection closed 1011): ${(err as Error)?.stack ?? String(err)}`);
        closeAgent(ws, CLOSE.internal);
      }
    });
    ws.on('close', () => {
      detach();
      if (this.sockets.get(agentId) === ws) this.sockets.delete(agentId);
      // Written whatever happened: a superseded connection's close names an older epoch and changes nothing.
      void connected
        .then(
          (conn) => this.presence.disconnect(conn),
          () => undefined, // (never written: nothing to undo)
        )
        .catch((err: Error) => this.logger.warn(`agent ${agentId} offline not written: ${err.message}`));
    });
    void connected.then(
      (conn) => {
        this.conns.set(ws, conn);
        if (ws.readyState !== WebSocket.OPEN) return; // gone meanwhile: never greeted
        this.trySend(agentId, ws, { type: 'hello', agent_id: String(agentId), heartbeat_seconds: this.config.agentHeartbeatSeconds, server_time: this.clock.now().toISOString() });
      },
      (err: Error) => {
        // Not written (the database): this connection would write nothing; the agent reconnects with back-off.
        this.logger.warn(`agent ${agentId} online not written (connection closed 1011): ${err.message}`);
        closeAgent(ws, CLOSE.internal);
      },
    );
    ws.on('error', () => ws.terminate());
  }

  /**
   * Every message to an agent goes through here: nothing is queued to a connection that already has more than
   * MAX_BUFFERED_BYTES waiting (an agent that does not read): it is dropped at once (1008, its buffers freed)
   * and the send throws, so a request waiting on it ends as "agent disconnected".
   */
  private send(agentId: number, ws: WebSocket, message: Record<string, unknown>): void {
    if (ws.readyState !== WebSocket.OPEN) throw new Error('connection closing');
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.logger.warn(`agent ${agentId}: connection dropped, not reading (${ws.bufferedAmount} bytes waiting)`);
      closeAgent(ws, CLOSE.notReading, 'now');
      throw new Error('agent not reading');
    }
    ws.send(JSON.stringify(message));
  }

  /** send, for messages nobody waits on (hello, error): a failure only closes the connection. */
  private trySend(agentId: number, ws: WebSocket, message: Record<string, unknown>): void {
    try {
      this.send(agentId, ws, message);
    } catch {
      /* closed by send, or closing already */
    }
  }

  /** The message rate's token bucket: false when the connection has spent its burst and its rate. */
  private withinRate(limits: Limits, rate: number): boolean {
    const now = Date.now();
    limits.tokens = Math.min(rate * BURST_SECONDS, limits.tokens + ((now - limits.filledAt) * rate) / 1000);
    limits.filledAt = now;
    if (limits.tokens < 1) return false;
    limits.tokens -= 1;
    return true;
  }

  /**
   * An invalid message: answered `{type: "error", message}` and otherwise ignored (nothing changes); more than
   * MAX_INVALID_MESSAGES within a minute closes the connection (1008).
   */
  private refuse(agentId: number, ws: WebSocket, limits: Limits, why: string): void {
    const now = Date.now();
    while (limits.invalid.length > 0 && limits.invalid[0] <= now - INVALID_WINDOW_MS) limits.invalid.shift();
    limits.invalid.push(now);
    if (limits.invalid.length > MAX_INVALID_MESSAGES) {
      this.logger.warn(`agent ${agentId}: connection closed after ${limits.invalid.length} invalid messages within a minute (last: ${why})`);
      return closeAgent(ws, CLOSE.invalid);
    }
    this.trySend(agentId, ws, { type: 'error', message: why });
  }

  /** One message of the protocol, validated against its type's schema (agent-protocol.ts) before anything reads it. */
  private onMessage(agentId: number, ws: WebSocket, limits: Limits, text: string | null): void {
    const parsed = parseAgentMessage(text);
    if (!parsed.ok) return this.refuse(agentId, ws, limits, parsed.error);
    switch (parsed.type) {
      case 'heartbeat': {
        const { facts } = parsed.message;
        this.presence.heartbeat(agentId, this.clock.now(), facts === undefined ? null : parseHeartbeatFacts(facts), this.conns.get(ws));
        return;
      }
      case 'script.output': {
        // Published as it comes, never stored one by one (the result carries the whole, capped output); only
        // for a run this agent was sent and has not answered yet. Anything else is dropped without a word.
        const { runId, stream, chunk, seq } = parsed.message;
        if (!this.channel.isRunOf(agentId, runId)) return;
        this.events.emit('script.output', { agentId, runId, stream, chunk, seq });
        return;
      }
      case 'result': {
        // The answer is checked against its command's schema by the request it answers (LocalAgentChannel.deliver).
        const delivered = this.channel.deliver(agentId, parsed.message.id, parsed.message);
        if ('invalid' in delivered) this.refuse(agentId, ws, limits, `invalid answer to request ${parsed.message.id}: ${delivered.invalid}`);
        return;
      }
      default:
        // A feature's message (check.result: the checks module, through AgentChannel.handle).
        this.channel.dispatch(agentId, parsed.type, parsed.message as unknown as Record<string, unknown>);
    }
  }
}

/**
 * Closes an agent's connection with a code and a reason. `now`: its buffers are freed at once (an agent that
 * does not read would otherwise hold them through the close handshake); else it has CLOSE_GRACE_MS to answer
 * the close before it is dropped.
 */
function closeAgent(ws: WebSocket, how: { code: number; reason: string }, when: 'now' | 'grace' = 'grace'): void {
  if (ws.readyState === WebSocket.OPEN) ws.close(how.code, how.reason);
  if (when === 'now') ws.terminate();
  else if (ws.readyState !== WebSocket.CLOSED) setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}
