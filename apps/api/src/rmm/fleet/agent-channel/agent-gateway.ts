import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { OnGatewayConnection, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocket } from 'ws';
import { CLOSE_CODES, LogBudget } from '@app/protocol';
import { Clock } from '../../../common/clock';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { FdHeadroom } from '../../../health/fd-headroom';
import { parseId } from '../../../common/values';
import { GatewayServer } from '../../../common/ws/gateway-server';
import { closeSocket, contextOf, refuseMessage } from '../../../common/ws/ws-connection';
import { RmmEvents } from '../../common/bus/rmm-events';
import { LocalAgentChannel } from './agent-channel';
import { AgentPresenceService } from '../presence/agent-presence.service';
import { AgentErrorMessage, CheckResultMessage, HeartbeatMessage, parseAgentMessage, ResultMessage, ScriptOutputMessage, SessionMessage, UpdateFailedMessage } from './agent-protocol';
import { AgentSessions, SessionDelivery } from './agent-sessions';
import { parseHeartbeatFacts } from './heartbeat-facts-parser';
import { PingRounds } from './ping-rounds';
import { PresenceConnection, superseded } from '../presence/presence-rules';

export const AGENT_WS_PATH = '/agent/v1/ws';
/** The largest message an agent may send (a script's output comes in chunks well below it). */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** A round of pings: each connection is pinged once per round, and dropped at its next visit if it has not answered. */
const PING_MS = 30_000;
/**
 * Each round of pings is spread over this many ticks of the interval (1 s each), each connection in a fixed one
 * (PingRounds): pinging 20,000 sockets in one tick (and taking their 20,000 pongs together) stalled the event loop
 * for hundreds of milliseconds every 30 s.
 */
const PING_SLICES = 30;

/** The most that may wait to be sent to an agent: past it, nothing more is queued and the connection is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * Sessions' bytes may fill more (each session's window is 256 KiB, and an agent has a few sessions at most): past
 * this, the agent is not reading and is dropped as above.
 */
export const MAX_BUFFERED_SESSION_BYTES = 8 * 1024 * 1024;
/** Invalid messages an agent may send within INVALID_WINDOW_MS; one more closes its connection (1008). */
export const MAX_INVALID_MESSAGES = 20;
const INVALID_WINDOW_MS = 60_000;
/**
 * Lines about agents' `error` messages (an agent refusing a message of the server) per minute, over all agents: a
 * new message type that a whole fleet of older agents refuses is a few lines, not 20,000.
 */
export const AGENT_ERRORS_LOGGED_PER_MINUTE = 20;
/** The part of an agent's `error` a line keeps (the message is printable text of at most 1,000 characters). */
const AGENT_ERROR_LOGGED_MAX = 300;
/** The burst an agent may send above RMM_AGENT_MAX_MESSAGES_PER_SECOND: this many seconds' worth. */
const BURST_SECONDS = 5;
/** The start of a session.ack as agents write it (JSON.stringify, `type` first); any other form is counted. */
const SESSION_ACK = /^\{"type":"session\.ack"/;
/**
 * `hello` is held (its socket corked) until the agent's first `checks.sync`, which the check sync sends right
 * after the connect is written, so both go out in one write: in a reconnect storm that is one system call and
 * one wake-up of the agent fewer per agent (a write on loopback costs the writer the receiver's delivery too).
 * At most this long: whatever holds the list up, `hello` goes out (one timer, at the oldest held hello's deadline:
 * a bound on that operation, not a periodic job, so an instance with nothing held has no timer).
 */
const HELLO_HOLD_MS = 50;

/** Close codes the agent acts on (docs/agent-protocol.md; the codes: libs/protocol), with their reasons. */
export const CLOSE = {
  shuttingDown: { code: CLOSE_CODES.shuttingDown, reason: 'server shutting down' },
  invalid: { code: CLOSE_CODES.policy, reason: `too many invalid messages: more than ${MAX_INVALID_MESSAGES} in a minute` },
  flooding: { code: CLOSE_CODES.policy, reason: 'too many messages: over RMM_AGENT_MAX_MESSAGES_PER_SECOND' },
  notReading: { code: CLOSE_CODES.policy, reason: `not reading: more than ${MAX_BUFFERED_BYTES / 1024 / 1024} MiB waiting to be sent` },
  internal: { code: CLOSE_CODES.serverError, reason: 'server error' },
  tryAgainLater: { code: CLOSE_CODES.tryAgainLater, reason: 'try again later' },
  replaced: { code: CLOSE_CODES.replaced, reason: 'replaced by a newer connection of this agent' },
  secretReplaced: { code: CLOSE_CODES.reenrolled, reason: 'agent re-enrolled: this secret no longer works' },
} as const;

/**
 * The agent channel's server side: one WebSocket per agent at /agent/v1/ws, a Nest gateway served by
 * GatewayWsAdapter (common/ws), authenticated before the upgrade completes (`X-Agent-Id` and
 * `Authorization: Bearer <agent secret>`; 401 otherwise). Each message is held to the connection's rate and
 * validated against its type's schema (agent-protocol.ts) by the adapter, then handed to the
 * `@SubscribeMessage` handler of its type; a handler that throws closes that connection (1011). It attaches
 * the connection to the LocalAgentChannel (commands out, answers in) and tells AgentPresenceService, which owns
 * the agent's status and announces its changes: the connect, each heartbeat, the close, each with its connection.
 */
@WebSocketGateway({ path: AGENT_WS_PATH, maxPayload: MAX_MESSAGE_BYTES })
@Injectable()
export class AgentGateway implements OnGatewayInit<GatewayServer<number>>, OnGatewayConnection, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('agent-gateway');
  /** Agents' `error` messages, logged at warn: at most AGENT_ERRORS_LOGGED_PER_MINUTE a minute, all agents together. */
  private readonly agentErrors = new LogBudget((line) => this.logger.warn(line), {
    max: AGENT_ERRORS_LOGGED_PER_MINUTE,
    windowMs: 60_000,
    dropped: (count) => `agents refused ${count} more message(s) of the server within a minute (not logged one by one)`,
  });
  private readonly sockets = new Map<number, WebSocket>();
  private readonly pings = new PingRounds<WebSocket>(PING_SLICES);
  /** One listener for every socket's pongs (the socket is `this`): no closure per connection. */
  private readonly onPong = ((pings: PingRounds<WebSocket>) =>
    function (this: WebSocket): void {
      pings.answered(this);
    })(this.pings);
  private server?: Server;
  /** Its endpoint on the HTTP server (GatewayServer: path, authentication, upgrades); none in the CLI's context. */
  private endpoint?: GatewayServer<number>;
  /** Sockets whose `hello` is held for their first checks.sync (HELLO_HOLD_MS), with the time it was held. */
  private readonly held = new Map<WebSocket, number>();
  private readonly pinger: Job;
  /** Fires at the deadline of the oldest held `hello` (none while nothing is held). */
  private holdDeadline?: NodeJS.Timeout;
  private offRegistered?: () => void;
  private offConnected?: () => void;
  private offSilent?: () => void;
  /** Set at shutdown: the connections closing now are the server going away, not their agents (presence's release). */
  private stopping = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly channel: LocalAgentChannel,
    private readonly presence: AgentPresenceService,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
    private readonly config: RuntimeConfig,
    private readonly files: FdHeadroom,
    private readonly sessions: AgentSessions,
    jobs: Jobs,
  ) {
    // Every instance (its sockets). One slot of connections per tick (PingRounds): each pinged every PING_MS, dropped
    // at its next visit when its ping went unanswered, so a frozen agent's connection goes 30 to 60 s after its last
    // answer.
    this.pinger = jobs.every('agent-channel.ping', { seconds: PING_MS / PING_SLICES / 1000, mode: 'every-instance' }, () => {
      const { ping, drop } = this.pings.visit();
      for (const ws of drop) ws.terminate();
      for (const ws of ping) if (ws.readyState === WebSocket.OPEN) ws.ping();
    });
  }

  /**
   * The adapter's endpoint for /agent/v1/ws (on the server's one upgrade router, beside the events WebSocket):
   * who may connect (authenticate: 401 before any WebSocket exists; 503 while the database is down) and how
   * agents may talk (their messages' schemas, rate and limits).
   */
  afterInit(endpoint: GatewayServer<number>): void {
    this.endpoint = endpoint;
    endpoint.serve({
      name: 'agent',
      logger: this.logger,
      gateway: this,
      // Within the open-file head-room (FdHeadroom): refused before authentication costs a query.
      busy: () => (this.files.admits() ? undefined : CLOSE.tryAgainLater),
      admit: async (req) => {
        const agentId = await this.authenticate(req);
        return agentId === null ? { refuse: { status: 401, detail: 'Invalid agent credentials' } } : { accept: agentId };
      },
      unavailable: { status: 503, detail: 'the database is not available, retry shortly' },
      shuttingDown: CLOSE.shuttingDown,
      label: (agentId) => `agent ${agentId}`,
      messages: {
        parse: parseAgentMessage,
        binary: (ws, data) => refusal(this.sessions.agentFrame(contextOf<number>(ws), data)),
        rate: { perSecond: this.config.agentMaxMessagesPerSecond, burstSeconds: BURST_SECONDS },
        // An ack of a session frame this instance sent the agent: bounded by the server's own frames, not the rate.
        unmetered: (ws, text) => SESSION_ACK.test(text.slice(0, 40)) && this.sessions.takeOwedAck(contextOf<number>(ws)),
        invalid: { max: MAX_INVALID_MESSAGES, windowMs: INVALID_WINDOW_MS },
        reply: (conn, why) => this.trySend(conn.context, conn.ws, { type: 'error', message: why }),
        closes: { flooding: CLOSE.flooding, invalid: CLOSE.invalid, internal: CLOSE.internal },
      },
    });
  }

  /** An authenticated agent's connection (the adapter's `connection`: its id is what `admit` accepted). */
  handleConnection(ws: WebSocket, _req: IncomingMessage, agentId: number): void {
    this.accept(agentId, ws);
  }

  onApplicationBootstrap(): void {
    this.server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!this.server) return; // (the CLI's context serves no HTTP)
    this.offRegistered = this.events.on('agent.registered', ({ agentId, reenrolled }) => {
      const ws = reenrolled ? this.sockets.get(agentId) : undefined;
      if (ws) closeAgent(ws, CLOSE.secretReplaced);
    });
    // The agent connected again, here or on another instance (a later epoch): its connection held here is closed
    // as replaced, like a second connection on this instance (accept). Its close then changes nothing (stale epoch).
    this.offConnected = this.events.on('agent.connected', ({ agentId, epoch }) => {
      // (the socket held here for an agent and presence's current connection of it are made and dropped together)
      const ws = this.sockets.get(agentId);
      const conn = this.presence.connectionOf(agentId);
      if (ws && conn && superseded(conn, epoch)) closeAgent(ws, CLOSE.replaced);
    });
    // An agent this instance's silence sweep turned offline: a connection still held for it is dead (its close
    // changes nothing more).
    this.offSilent = this.presence.listen({ silent: (ids) => ids.forEach((agentId) => this.sockets.get(agentId)?.terminate()) });
  }

  /**
   * The silence sweep now (presence's job presence.silence-sweep): agents silent for RMM_AGENT_OFFLINE_AFTER_SECONDS
   * become offline (a connection this instance still holds for one is dropped: it is dead), silent for
   * RMM_AGENT_OVERDUE_AFTER_SECONDS overdue; each change announced (by AgentPresenceService, once).
   */
  sweepSilent(): Promise<{ offline: number[]; overdue: number[] }> {
    return this.presence.sweepSilent();
  }

  /**
   * SIGTERM (the listening socket is already closed): upgrades under way complete, then every agent is told the
   * server is going (1001: it reconnects after a random 1–5 s, to whichever instance listens), heartbeats are written.
   * Those closes are not agents going offline: presence writes when each was last heard and leaves its status
   * (AgentPresenceService.disconnect's release), so an agent back within RMM_AGENT_OFFLINE_AFTER_SECONDS pages nobody.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.pinger.stop();
    clearTimeout(this.holdDeadline);
    this.agentErrors.flush();
    this.releaseHeld(Infinity);
    this.offRegistered?.();
    this.offConnected?.();
    this.offSilent?.();
    // New upgrades are answered 503; those being authenticated complete (and hear 1001) before this goes on.
    await this.endpoint?.stopAccepting();
    for (const ws of this.sockets.values()) closeAgent(ws, CLOSE.shuttingDown);
  }

  isConnected(agentId: number): boolean {
    return this.sockets.has(agentId);
  }

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
    const detach = this.channel.attach(agentId, {
      send: (message) => this.send(agentId, ws, message),
      close: (code, reason) => closeAgent(ws, { code, reason }),
      sendBinary: (bytes) => this.sendBinary(agentId, ws, bytes),
    });
    // The status is written (batched with the other connects of this moment) before the agent is greeted: whoever
    // reads its status after `hello` or agent.online reads online. Presence announces the change, if it is one.
    // (The promise is held only until it is written, then the connection itself: 20,000 settled promises and a
    // socket→connection map would be memory for nothing.)
    let connecting: Promise<PresenceConnection> | undefined = this.presence.connect(agentId, this.clock.now());
    let held: PresenceConnection | undefined;
    this.pings.add(ws);
    ws.on('pong', this.onPong);
    ws.on('close', (code: number) => {
      this.held.delete(ws);
      detach();
      this.pings.remove(ws);
      if (this.sockets.get(agentId) === ws) this.sockets.delete(agentId);
      // Closed by this server going away: a release, with the agent heard now if it answered the close (1006: it
      // did not, the connection was dropped after CLOSE_GRACE_MS or had already failed).
      const released = this.stopping ? { heardAt: code === 1006 ? null : this.clock.now() } : undefined;
      // Written whatever happened: a superseded connection's close names an older epoch and changes nothing.
      const written = held ? Promise.resolve(held) : connecting; // (neither: the connect failed, nothing to undo)
      void written
        ?.then(
          (c) => this.presence.disconnect(c, released),
          () => undefined, // (never written: nothing to undo)
        )
        .catch((err: Error) => this.logger.warn(`agent ${agentId} offline not written: ${err.message}`));
    });
    void connecting.then(
      (conn) => {
        connecting = undefined;
        held = conn;
        if (ws.readyState !== WebSocket.OPEN) return; // gone meanwhile: never greeted
        this.hold(ws);
        this.trySend(agentId, ws, { type: 'hello', agent_id: String(agentId), heartbeat_seconds: this.config.agentHeartbeatSeconds, server_time: this.clock.now().toISOString() });
      },
      (err: Error) => {
        connecting = undefined;
        // Not written (the database): this connection would write nothing; the agent reconnects with back-off.
        this.logger.warn(`agent ${agentId} online not written (connection closed 1011): ${err.message}`);
        closeAgent(ws, CLOSE.internal);
      },
    );
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
    if (message.type !== 'hello' && this.held.delete(ws)) socketOf(ws)?.uncork();
  }

  /** A session's frame (AgentSessions): false when the connection is closing, or dropped for not reading. */
  private sendBinary(agentId: number, ws: WebSocket, bytes: Uint8Array): boolean {
    if (ws.readyState !== WebSocket.OPEN) return false;
    if (ws.bufferedAmount > MAX_BUFFERED_SESSION_BYTES) {
      this.logger.warn(`agent ${agentId}: connection dropped, not reading (${ws.bufferedAmount} bytes waiting)`);
      closeAgent(ws, CLOSE.notReading, 'now');
      return false;
    }
    ws.send(bytes, { binary: true });
    return true;
  }

  /** Corks the socket for `hello` and what follows it until the next message after it, HELLO_HOLD_MS at most. */
  private hold(ws: WebSocket): void {
    const socket = socketOf(ws);
    if (!socket || this.held.has(ws)) return;
    socket.cork();
    this.held.set(ws, Date.now());
    this.holdDeadline ??= setTimeout(() => this.releaseDue(), HELLO_HOLD_MS).unref();
  }

  /** The oldest held `hello`'s deadline: what is due goes out; the next deadline, if any is still held, is set. */
  private releaseDue(): void {
    this.holdDeadline = undefined;
    this.releaseHeld(HELLO_HOLD_MS);
    const oldest = this.held.values().next();
    if (!oldest.done) this.holdDeadline = setTimeout(() => this.releaseDue(), Math.max(1, oldest.value + HELLO_HOLD_MS - Date.now())).unref();
  }

  /** Sends what was held for HELLO_HOLD_MS or longer (all of it with Infinity). */
  private releaseHeld(olderThanMs: number): void {
    const now = Date.now();
    for (const [ws, since] of this.held) {
      if (now - since < olderThanMs) break; // (in the order they were held)
      this.held.delete(ws);
      socketOf(ws)?.uncork();
    }
  }

  /** send, for messages nobody waits on (hello, error): a failure only closes the connection. */
  private trySend(agentId: number, ws: WebSocket, message: Record<string, unknown>): void {
    try {
      this.send(agentId, ws, message);
    } catch {
      /* closed by send, or closing already */
    }
  }

  // The messages of the protocol, one handler per type: each gets its message already validated against its
  // type's schema (agent-protocol.ts) by the adapter, which answers an invalid one {type: "error"} itself.

  @SubscribeMessage('heartbeat')
  heartbeat(ws: WebSocket, message: HeartbeatMessage): void {
    const { facts } = message;
    const agentId = contextOf<number>(ws);
    this.presence.heartbeat(agentId, this.clock.now(), facts === undefined ? null : parseHeartbeatFacts(facts));
    // Features that act on what an agent reports (agent updates: its version), only when it reports something.
    if (facts !== undefined) this.channel.dispatch(agentId, 'heartbeat', message as unknown as Record<string, unknown>);
  }

  @SubscribeMessage('script.output')
  scriptOutput(ws: WebSocket, message: ScriptOutputMessage): void {
    // Published as it comes, never stored one by one (the result carries the whole, capped output); only
    // for a run this agent was sent and has not answered yet. Anything else is dropped without a word.
    const agentId = contextOf<number>(ws);
    const { runId, stream, chunk, seq } = message;
    if (!this.channel.isRunOf(agentId, runId)) return;
    this.events.emit('script.output', { agentId, runId, stream, chunk, seq });
  }

  @SubscribeMessage('result')
  result(ws: WebSocket, message: ResultMessage): void {
    // The answer is checked against its command's schema by the request it answers (LocalAgentChannel.deliver).
    const delivered = this.channel.deliver(contextOf<number>(ws), message.id, message);
    if ('invalid' in delivered) refuseMessage(ws, `invalid answer to request ${message.id}: ${delivered.invalid}`);
  }

  @SubscribeMessage('check.result')
  checkResult(ws: WebSocket, message: CheckResultMessage): void {
    // A feature's message (check.result: the checks module, through AgentChannel.handle).
    this.channel.dispatch(contextOf<number>(ws), 'check.result', message as unknown as Record<string, unknown>);
  }

  @SubscribeMessage('update.failed')
  updateFailed(ws: WebSocket, message: UpdateFailedMessage): void {
    // A feature's message (agent updates).
    this.channel.dispatch(contextOf<number>(ws), 'update.failed', message as unknown as Record<string, unknown>);
  }

  @SubscribeMessage('session.opened')
  sessionOpened(ws: WebSocket, message: SessionMessage): void {
    this.sessionMessage(ws, message);
  }

  @SubscribeMessage('session.ack')
  sessionAck(ws: WebSocket, message: SessionMessage): void {
    this.sessionMessage(ws, message);
  }

  @SubscribeMessage('session.close')
  sessionClose(ws: WebSocket, message: SessionMessage): void {
    this.sessionMessage(ws, message);
  }

  /** A session's message (AgentSessions): one about a session this agent does not have is refused as invalid. */
  private sessionMessage(ws: WebSocket, message: SessionMessage): void {
    const why = refusal(this.sessions.agentMessage(contextOf<number>(ws), message));
    if (why !== undefined) refuseMessage(ws, why);
  }

  @SubscribeMessage('error')
  agentError(ws: WebSocket, message: AgentErrorMessage): void {
    // The agent refused a message of ours (a bug at one end, or a type newer than the agent): a valid message, so
    // not counted as invalid; logged (rate-limited), never answered: an answer to an answer could ping-pong.
    const text = message.message.length > AGENT_ERROR_LOGGED_MAX ? `${message.message.slice(0, AGENT_ERROR_LOGGED_MAX - 1)}…` : message.message;
    this.agentErrors.line(`agent ${contextOf<number>(ws)} refused a message of the server: ${text}`);
  }
}

/**
 * Closes an agent's connection with a code and a reason. `now`: its buffers are freed at once (an agent that
 * does not read would otherwise hold them through the close handshake); else it has CLOSE_GRACE_MS
 * (common/ws/ws-connection.ts) to answer the close before it is dropped.
 */
const closeAgent = closeSocket;

/** What the adapter refuses of a session delivery (undefined: nothing). */
function refusal(delivery: SessionDelivery): string | undefined {
  return typeof delivery === 'object' ? delivery.refused : undefined;
}

/** The TCP socket under a `ws` WebSocket (ws keeps it as `_socket`; not part of its typed API). */
function socketOf(ws: WebSocket): Socket | undefined {
  return (ws as unknown as { _socket?: Socket })._socket;
}
