import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { decodeSessionFrame, encodeSessionFrame, SessionKind } from '@app/protocol';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { RedisConnections } from '../../../common/redis/redis-connections';
import { busUnavailable, RedisPubSub } from '../../../common/redis/redis-pubsub';
import { LocalAgentChannel, notConnected } from './agent-channel';
import { AgentSession, SessionEnd, SessionEndpoint, SessionLink } from './session-endpoint';

export type { AgentSession, SessionEnd } from './session-endpoint';
export { SessionEndedError } from './session-endpoint';

/** How often an instance checks that the instances holding its sessions' agents still hold them (one dies: its sessions end). */
const OWNER_CHECK_SECONDS = 10;

/** Sessions remembered after they ended, so that frames still in flight are dropped quietly rather than refused. */
const RECENTLY_ENDED_MAX = 4_096;

/** What instances say to each other about a session (`<prefix>sessions:<instance>`); `b`: a frame's bytes, base64. */
type Relay =
  | { k: 'open'; s: string; from: string; agentId: number; kind: SessionKind; params: Record<string, unknown> }
  | { k: 'opened'; s: string; info: Record<string, unknown> }
  | { k: 'data'; s: string; seq: number; b: string }
  | { k: 'ack'; s: string; seq: number }
  | { k: 'ctl'; s: string; c: Record<string, unknown> }
  | { k: 'close'; s: string; end: SessionEnd }
  | { k: 'end'; s: string };

/** A session whose agent is held by this instance: its endpoint is here too, or on the instance `relay`. */
interface Route {
  agentId: number;
  endpoint?: SessionEndpoint;
  relay?: string;
}

/** What an agent's message about a session came to (the gateway refuses `unknown` as an invalid message). */
export type SessionDelivery = 'ok' | 'dropped' | { refused: string };

/**
 * Sessions (docs/agent-protocol.md, "Sessions"): ordered, two-way, flow-controlled byte streams between a feature
 * (the terminal, file transfers) and an agent, on the agent's own channel. `open` starts one on the agent whichever
 * instance holds its connection: here, straight over its socket; elsewhere (REDIS_URL), through the holding
 * instance, which relays the frames over Redis both ways (base64 in JSON). The window (256 KiB unacknowledged per
 * direction) is kept end to end by the sender, so no hop holds more than it. Every frame and message an agent
 * sends about a session is checked against the sessions this instance opened on that very agent.
 */
@Injectable()
export class AgentSessions implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('agent-sessions');
  /** Sessions whose agent is held here. */
  private readonly routes = new Map<string, Route>();
  /** Sessions opened here whose agent is held by another instance. */
  private readonly remote = new Map<string, { endpoint: SessionEndpoint; owner: string }>();
  private readonly recentlyEnded = new Set<string>();
  /** Per agent held here: frames sent to it that it may still acknowledge outside the message rate (takeOwedAck). */
  private readonly owedAcks = new Map<number, number>();
  private unwatch?: () => void;
  private readonly ownerCheck?: Job;

  constructor(
    private readonly local: LocalAgentChannel,
    private readonly redis: RedisConnections,
    private readonly bus: RedisPubSub,
    // (the module gives it; a unit test without Redis needs none)
    jobs?: Jobs,
  ) {
    if (redis.enabled) this.ownerCheck = jobs?.every('agent-sessions.owner-check', { seconds: OWNER_CHECK_SECONDS, mode: 'every-instance' }, () => this.checkOwners());
  }

  /**
   * Sessions relayed through another instance end as `agent_offline` when that instance no longer holds their agent
   * (it died, or the agent moved): nothing else would tell this one.
   */
  async checkOwners(): Promise<number> {
    let ended = 0;
    for (const [id, { endpoint, owner }] of [...this.remote]) {
      const now = await this.bus.commands().get(this.bus.key(`agent-owner:${endpoint.agentId}`));
      if (now !== owner && this.remote.has(id)) {
        endpoint.receiveClose({ reason: 'agent_offline', error: true });
        ended++;
      }
    }
    return ended;
  }

  async onModuleInit(): Promise<void> {
    this.unwatch = this.local.watch({ attached: () => undefined, detached: (agentId) => this.agentGone(agentId) });
    if (this.redis.enabled) await this.bus.subscribe(this.inboxOf(this.bus.instanceId), (text) => this.receiveRelay(text));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.ownerCheck?.stop();
    this.unwatch?.();
    for (const [id, route] of [...this.routes]) this.endRoute(id, route, { reason: 'closed', error: true });
    for (const { endpoint } of [...this.remote.values()]) endpoint.close('closed');
  }

  /** Sessions open on this instance (either end), for the health of one process. */
  get size(): number {
    return this.routes.size + this.remote.size;
  }

  /**
   * Opens a session of `kind` on the agent: rejects at once with NotConnected when no instance holds its connection
   * (503 when Redis is unreachable). Resolves when `session.open` went; the agent's answer is `opened`.
   */
  async open(agentId: number, kind: SessionKind, params: Record<string, unknown>, options: { openTimeoutMs?: number } = {}): Promise<AgentSession> {
    const id = randomUUID();
    if (this.local.holds(agentId)) {
      const endpoint = new SessionEndpoint(id, agentId, kind, this.directLink(agentId, id), () => this.forget(id), options.openTimeoutMs);
      this.routes.set(id, { agentId, endpoint });
      if (!this.local.send(agentId, { type: 'session.open', session: id, kind, params })) {
        endpoint.finish({ reason: 'agent_offline', error: true });
        throw notConnected();
      }
      return endpoint;
    }
    if (!this.redis.enabled) throw notConnected();
    let owner: string | null;
    try {
      owner = await this.bus.commands().get(this.bus.key(`agent-owner:${agentId}`));
    } catch {
      throw busUnavailable();
    }
    if (owner === null || owner === this.bus.instanceId) throw notConnected();
    const endpoint = new SessionEndpoint(id, agentId, kind, this.relayLink(owner, id), () => this.forget(id), options.openTimeoutMs);
    this.remote.set(id, { endpoint, owner });
    let receivers: number;
    try {
      receivers = await this.publish(owner, { k: 'open', s: id, from: this.bus.instanceId, agentId, kind, params });
    } catch {
      endpoint.finish({ reason: 'agent_offline', error: true });
      throw busUnavailable();
    }
    if (receivers === 0) {
      endpoint.finish({ reason: 'agent_offline', error: true });
      throw notConnected();
    }
    return endpoint;
  }

  // ---- the agent's side (the gateway calls these for an agent held here) ----

  /** A binary frame from the agent. */
  agentFrame(agentId: number, bytes: Uint8Array): SessionDelivery {
    const decoded = decodeSessionFrame(bytes);
    if (!decoded.ok) return { refused: decoded.error };
    const { session, seq, payload } = decoded.frame;
    const route = this.routeOf(agentId, session);
    if (route === 'dropped' || 'refused' in route) return route;
    if (route.endpoint) {
      const wrong = route.endpoint.receiveFrame(seq, payload);
      if (wrong) this.logger.warn(`agent ${agentId}: session ${session} ended: ${wrong}`);
    } else if (route.relay) this.relay(route.relay, { k: 'data', s: session, seq, b: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64') });
    return 'ok';
  }

  /** A session message from the agent (session.opened, session.ack, session.close), already valid against its schema. */
  agentMessage(agentId: number, message: { type: string; session: string } & Record<string, unknown>): SessionDelivery {
    const route = this.routeOf(agentId, message.session);
    if (route === 'dropped' || 'refused' in route) return route;
    const s = message.session;
    switch (message.type) {
      case 'session.opened': {
        const info = (message.info ?? {}) as Record<string, unknown>;
        if (route.endpoint) route.endpoint.receiveOpened(info);
        else if (route.relay) this.relay(route.relay, { k: 'opened', s, info });
        return 'ok';
      }
      case 'session.ack':
        if (route.endpoint) route.endpoint.receiveAck(message.seq as number);
        else if (route.relay) this.relay(route.relay, { k: 'ack', s, seq: message.seq as number });
        return 'ok';
      case 'session.close': {
        const end: SessionEnd = { reason: message.reason as string };
        if (message.code !== undefined) end.code = message.code as number | null;
        if (message.error !== undefined) end.error = message.error as boolean;
        if (message.received !== undefined) end.received = message.received as number;
        this.endRoute(s, route, end);
        return 'ok';
      }
      default:
        return { refused: `${message.type} is not a session message` };
    }
  }

  private routeOf(agentId: number, session: string): Route | 'dropped' | { refused: string } {
    const route = this.routes.get(session);
    if (route && route.agentId === agentId) return route;
    if (!route && this.recentlyEnded.has(session)) return 'dropped';
    return { refused: `no session ${session} is open on this agent` };
  }

  /** The agent ended the session (or is gone): its endpoint here learns it, or the one on the relay's instance. */
  private endRoute(session: string, route: Route, end: SessionEnd): void {
    this.routes.delete(session);
    this.remember(session);
    if (route.endpoint) route.endpoint.receiveClose(end);
    else if (route.relay) this.relay(route.relay, { k: 'close', s: session, end });
  }

  /**
   * True (and one fewer owed) when the agent has frames from this instance it has not acknowledged one by one: its
   * session.ack is then not held to the message rate (the gateway), since the server's own frames bound them.
   */
  takeOwedAck(agentId: number): boolean {
    const owed = this.owedAcks.get(agentId) ?? 0;
    if (owed <= 0) return false;
    if (owed === 1) this.owedAcks.delete(agentId);
    else this.owedAcks.set(agentId, owed - 1);
    return true;
  }

  /** A frame to an agent held here: false when it did not go. */
  private sendFrame(agentId: number, session: string, seq: number, payload: Uint8Array): boolean {
    if (!this.local.sendBinary(agentId, encodeSessionFrame(session, seq, payload))) return false;
    this.owedAcks.set(agentId, (this.owedAcks.get(agentId) ?? 0) + 1);
    return true;
  }

  private agentGone(agentId: number): void {
    this.owedAcks.delete(agentId);
    for (const [id, route] of [...this.routes]) if (route.agentId === agentId) this.endRoute(id, route, { reason: 'agent_offline', error: true });
  }

  // ---- links ----

  /** The agent is held here: frames and messages go over its socket. */
  private directLink(agentId: number, session: string): SessionLink {
    return {
      frame: (seq, payload) => this.sendFrame(agentId, session, seq, payload),
      ack: (seq) => void this.local.send(agentId, { type: 'session.ack', session, seq }),
      control: (control) => void this.local.send(agentId, { type: 'session.control', session, control }),
      close: (end) => {
        this.routes.delete(session);
        this.remember(session);
        this.local.send(agentId, { type: 'session.close', session, reason: end.reason });
      },
      endWrites: () => void this.local.send(agentId, { type: 'session.close', session, reason: 'end' }),
    };
  }

  /** The agent is held by `owner`: everything goes through it. */
  private relayLink(owner: string, session: string): SessionLink {
    return {
      frame: (seq, payload) => {
        this.relay(owner, { k: 'data', s: session, seq, b: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64') });
        return true;
      },
      ack: (seq) => this.relay(owner, { k: 'ack', s: session, seq }),
      control: (c) => this.relay(owner, { k: 'ctl', s: session, c }),
      close: (end) => this.relay(owner, { k: 'close', s: session, end }),
      endWrites: () => this.relay(owner, { k: 'end', s: session }),
    };
  }

  private forget(session: string): void {
    this.remote.delete(session);
    const route = this.routes.get(session);
    if (route?.endpoint) this.routes.delete(session);
    this.remember(session);
  }

  private remember(session: string): void {
    this.recentlyEnded.add(session);
    if (this.recentlyEnded.size > RECENTLY_ENDED_MAX) this.recentlyEnded.delete(this.recentlyEnded.values().next().value!);
  }

  // ---- between instances ----

  private inboxOf(instanceId: string): string {
    return this.bus.key(`sessions:${instanceId}`);
  }

  private publish(instanceId: string, message: Relay): Promise<number> {
    return this.bus.publish(this.inboxOf(instanceId), JSON.stringify(message));
  }

  /** Fire and forget: a lost relay message ends in the session's idle end, never in a hang of the process. */
  private relay(instanceId: string, message: Relay): void {
    this.publish(instanceId, message).catch((err: Error) => this.logger.warn(`session ${message.s}: relay to ${instanceId} failed: ${err.message}`));
  }

  private receiveRelay(text: string): void {
    let m: Relay;
    try {
      m = JSON.parse(text) as Relay;
    } catch {
      return;
    }
    if (typeof m?.s !== 'string') return;
    const here = this.remote.get(m.s)?.endpoint;
    switch (m.k) {
      // To the instance holding the agent:
      case 'open': {
        if (!this.local.holds(m.agentId)) return this.relay(m.from, { k: 'close', s: m.s, end: { reason: 'agent_offline', error: true } });
        this.routes.set(m.s, { agentId: m.agentId, relay: m.from });
        if (!this.local.send(m.agentId, { type: 'session.open', session: m.s, kind: m.kind, params: m.params })) {
          this.routes.delete(m.s);
          this.relay(m.from, { k: 'close', s: m.s, end: { reason: 'agent_offline', error: true } });
        }
        return;
      }
      case 'ctl': {
        const route = this.routes.get(m.s);
        if (route?.relay) this.local.send(route.agentId, { type: 'session.control', session: m.s, control: m.c });
        return;
      }
      // Either way:
      case 'data': {
        const route = this.routes.get(m.s);
        if (route?.relay) {
          if (!this.sendFrame(route.agentId, m.s, m.seq, Buffer.from(m.b, 'base64'))) this.endRoute(m.s, route, { reason: 'agent_offline', error: true });
        } else if (here) here.receiveFrame(m.seq, Buffer.from(m.b, 'base64'));
        return;
      }
      case 'ack': {
        const route = this.routes.get(m.s);
        if (route?.relay) this.local.send(route.agentId, { type: 'session.ack', session: m.s, seq: m.seq });
        else here?.receiveAck(m.seq);
        return;
      }
      case 'close': {
        const route = this.routes.get(m.s);
        if (route?.relay) {
          this.routes.delete(m.s);
          this.remember(m.s);
          this.local.send(route.agentId, { type: 'session.close', session: m.s, reason: m.end.reason });
        } else here?.receiveClose(m.end);
        return;
      }
      case 'end': {
        const route = this.routes.get(m.s);
        if (route?.relay) this.local.send(route.agentId, { type: 'session.close', session: m.s, reason: 'end' });
        return;
      }
      case 'opened':
        here?.receiveOpened(m.info);
        return;
    }
  }
}
