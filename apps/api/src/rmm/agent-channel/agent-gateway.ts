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
import { parseHeartbeatFacts } from './heartbeat-facts';

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

/** Close codes the agent acts on (docs/agent-protocol.md). */
export const CLOSE = {
  shuttingDown: { code: 1001, reason: 'server shutting down' },
  replaced: { code: 4000, reason: 'replaced by a newer connection of this agent' },
  secretReplaced: { code: 4001, reason: 'agent re-enrolled: this secret no longer works' },
} as const;

/**
 * The agent channel's server side: one WebSocket per agent at /agent/v1/ws, authenticated before the
 * upgrade completes (`X-Agent-Id` and `Authorization: Bearer <agent secret>`; 401 otherwise). It attaches
 * the connection to the LocalAgentChannel (commands out, answers in), keeps presence (online at connect,
 * offline at close, heartbeats written behind in batches) and announces agent.online / agent.offline.
 */
@Injectable()
export class AgentGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('agent-gateway');
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly sockets = new Map<number, WebSocket>();
  private server?: Server;
  private pinger?: NodeJS.Timeout;
  private sweeper?: NodeJS.Timeout;
  private offRegistered?: () => void;
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
      if (reenrolled) this.sockets.get(agentId)?.close(CLOSE.secretReplaced.code, CLOSE.secretReplaced.reason);
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
   * for one is dropped: it is dead), silent for RMM_AGENT_OVERDUE_AFTER_SECONDS overdue; each change announced.
   */
  async sweepSilent(): Promise<{ offline: number[]; overdue: number[] }> {
    const changed = await this.presence.markSilent(this.clock.now(), this.config.agentOfflineAfterSeconds, this.config.agentOverdueAfterSeconds);
    for (const agentId of changed.offline) {
      const ws = this.sockets.get(agentId);
      if (ws) ws.terminate(); // its close announces agent.offline
      else this.events.emit('agent.offline', { agentId });
    }
    for (const agentId of changed.overdue) this.events.emit('agent.overdue', { agentId });
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
    this.closing = true;
    await Promise.allSettled([...this.upgrading]);
    for (const ws of this.sockets.values()) ws.close(CLOSE.shuttingDown.code, CLOSE.shuttingDown.reason);
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
    this.sockets.get(agentId)?.close(CLOSE.replaced.code, CLOSE.replaced.reason);
    this.sockets.set(agentId, ws);
    const detach = this.channel.attach(agentId, { send: (message) => ws.send(JSON.stringify(message)) });
    let announced = false;
    ws.on('message', (data, isBinary) => this.onMessage(agentId, ws, isBinary ? null : data.toString()));
    ws.on('close', () => {
      detach();
      if (this.sockets.get(agentId) !== ws) return; // a newer connection of this agent took over
      this.sockets.delete(agentId);
      void this.presence.offline(agentId).catch((err: Error) => this.logger.warn(`agent ${agentId} offline not written: ${err.message}`));
      if (announced) this.events.emit('agent.offline', { agentId });
    });
    // The status is written (batched with the other connects of this moment) before the agent is greeted and
    // announced: whoever reads its status after `hello` or agent.online reads online.
    void this.presence
      .online(agentId, this.clock.now())
      .catch((err: Error) => this.logger.warn(`agent ${agentId} online not written: ${err.message}`))
      .then(() => {
        if (ws.readyState !== WebSocket.OPEN) return; // gone meanwhile: never greeted, never announced
        announced = true;
        this.events.emit('agent.online', { agentId });
        ws.send(JSON.stringify({ type: 'hello', agent_id: String(agentId), heartbeat_seconds: this.config.agentHeartbeatSeconds, server_time: this.clock.now().toISOString() }));
      });
    ws.on('error', () => ws.terminate());
  }

  /** One message of the protocol's envelope `{type, id?, …}` (docs/agent-protocol.md). */
  private onMessage(agentId: number, ws: WebSocket, text: string | null): void {
    let message: { type?: unknown; id?: unknown; ok?: unknown; result?: unknown; error?: unknown; facts?: unknown; runId?: unknown; stream?: unknown; chunk?: unknown; seq?: unknown };
    try {
      message = text === null ? {} : (JSON.parse(text) as typeof message);
    } catch {
      message = {};
    }
    switch (message?.type) {
      case 'heartbeat':
        this.presence.heartbeat(agentId, this.clock.now(), message.facts === undefined ? null : parseHeartbeatFacts(message.facts));
        return;
      case 'script.output': {
        // Published as it comes, never stored one by one (the result carries the whole, capped output); only
        // for a run this agent was sent and has not answered yet. Anything else is dropped without a word.
        const { runId, stream, chunk, seq } = message;
        if (typeof runId !== 'number' || !Number.isInteger(runId) || (stream !== 'stdout' && stream !== 'stderr') || typeof chunk !== 'string') return;
        if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) return;
        if (!this.channel.isRunOf(agentId, runId)) return;
        this.events.emit('script.output', { agentId, runId, stream, chunk, seq });
        return;
      }
      case 'result':
        if (typeof message.id === 'string') {
          this.channel.deliver(agentId, message.id, message.ok === true ? { ok: true, result: message.result } : { ok: false, error: String(message.error ?? 'refused') });
        }
        return;
      default:
        // A feature's message (e.g. check.result, handled by the checks module through AgentChannel.handle).
        if (typeof message?.type === 'string' && this.channel.dispatch(agentId, message.type, message as Record<string, unknown>)) return;
        ws.send(JSON.stringify({ type: 'error', message: 'unknown message: send {type: "heartbeat", facts?}, {type: "script.output", runId, stream, chunk, seq}, {type: "check.result", …} or {type: "result", id, ok, result|error}' }));
    }
  }
}
