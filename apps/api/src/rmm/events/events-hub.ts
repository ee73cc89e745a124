import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server } from 'node:http';
import { WebSocket } from 'ws';
import { Clock } from '../../common/clock';
import { Job, Jobs } from '../../common/jobs/jobs';
import type { GatewayServer, UpgradeRefusal } from '../../common/ws/gateway-server';
import { QueueSocket, SendQueue } from '../../common/ws/send-queue';
import { RuntimeConfig } from '../../config/runtime-config';
import { toAgentDetailDto } from '../fleet/agents/agents.dto';
import type { AgentRow } from '../fleet/agents/agents.sql';
import { canSeeClient, Principal, principalKey } from '../common/principal';
import { KeyUses } from '../common/callers';
import { CallerDecision, UpgradeCallers } from '../common/upgrade-callers';
import { AgentClients } from './agent-clients';
import { BatchLoader } from './batch-loader';
import { EventsRepository } from './events.repository';
import { isFleetEvent, RELAYED_EVENTS, RelayedEvent, toWire, WireInput, WireMessage } from './events-wire';
import { RmmEventMap, RmmEvents } from '../common/bus/rmm-events';

/** What a subscriber may send (it has nothing to say: anything it sends is ignored). */
export const MAX_INBOUND_BYTES = 4 * 1024;
/** Ping interval: a subscriber that did not answer the previous ping is dropped. */
export const PING_MS = 30_000;
/** How often keys and sessions (ended on another instance, expired) and agents (deleted) are checked again. */
export const RECHECK_MS = 3_000;
/** The most a subscriber may have waiting to be sent: past it, nothing more is queued and it is closed with 1013. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * Open subscriptions per caller (an API key, or an operator across their sessions), both WebSockets together; one
 * more is refused with 429. A subscription counts until its socket is gone.
 */
export const MAX_SUBSCRIPTIONS_PER_KEY = 100;
/** How long shutdown waits for subscribers to answer the close before dropping them. */
const SHUTDOWN_GRACE_MS = 1_000;
/**
 * How long a closed subscriber has to answer the close frame before its socket is dropped (ws's default is 30 s).
 * What was waiting for it is dropped at the close already; its socket holds at most one message and the close frame.
 */
export const CLOSE_TIMEOUT_MS = 5_000;
/** Agents read per query for agent.updated (a heartbeat flush can announce thousands at once). */
const AGENT_READ_BATCH = 500;

/** Close codes a subscriber acts on (docs/events.md). */
export const EVENTS_CLOSE = {
  shuttingDown: { code: 1001, reason: 'server shutting down' },
  internal: { code: 1011, reason: 'server error' },
  tooSlow: { code: 1013, reason: `subscriber too slow: more than ${MAX_BUFFERED_BYTES / 1024 / 1024} MiB waiting to be sent` },
  keyRevoked: { code: 4401, reason: 'api key revoked' },
  keyExpired: { code: 4401, reason: 'api key expired' },
  sessionEnded: { code: 4401, reason: 'session ended' },
  agentDeleted: { code: 4404, reason: 'agent deleted' },
} as const;
export type CloseHow = { code: number; reason: string };

/** One subscriber of either events WebSocket. */
export interface Subscriber {
  ws: WebSocket;
  principal: Principal;
  /** principalKey(principal): what MAX_SUBSCRIPTIONS_PER_KEY counts. */
  caller: string;
  /** The agent of /rmm/{agent_id}/; null for /rmm/fleet/ (every agent the caller may see). */
  agentId: number | null;
  /**
   * Messages waiting for the socket (common/ws/send-queue.ts): the same Buffer for every subscriber an event goes
   * to, so what many slow subscribers wait for is held once; handed to the socket one at a time, none before hello.
   */
  queue: SendQueue;
  /** Told to close: it gets nothing more (its socket still counts against its caller until it is gone). */
  closing: boolean;
  alive: boolean;
}

export type { CallerDecision } from '../common/upgrade-callers';
export { queryKeyOf } from '../common/upgrade-callers';

/**
 * The subscribers of both events WebSockets, `/rmm/{agent_id}/` (EventsGateway) and `/rmm/fleet/` (FleetGateway),
 * and the only writer to them (docs/events.md). The gateways admit and greet; this holds who is subscribed, relays
 * the bus to them, and closes them (too slow, key revoked, session ended, agent deleted, shutdown).
 *
 * The bus is subscribed to once; each event is encoded once and the same Buffer queued for every subscriber it goes
 * to: the agent's own subscribers, and the fleet subscribers that may see the agent's client (FLEET_EVENTS only).
 * Which client an agent belongs to is remembered (AgentClients), so filtering costs a lookup only the first time an
 * agent is heard of, and none while every fleet subscriber sees every client. agent.updated carries the agent as
 * GET shows it: read once per event for all subscribers, in batches (BatchLoader), so that a heartbeat flush that
 * changes 20,000 agents' facts costs 40 queries, not 20,000.
 */
@Injectable()
export class EventsHub implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('events-ws');
  /** The gateways' endpoints on the HTTP server (stopped first at shutdown). */
  private readonly endpoints: Array<Pick<GatewayServer, 'stopAccepting'>> = [];
  /** The per-agent subscribers events go to (one leaves when it is told to close). */
  private readonly byAgent = new Map<number, Set<Subscriber>>();
  /** The fleet subscribers events go to (one leaves when it is told to close). */
  private readonly fleet = new Set<Subscriber>();
  /** How many of them are limited to some clients: while none is, no event needs its agent's client. */
  private limitedFleet = 0;
  /** Every subscriber socket of a caller, until the socket is gone: what MAX_SUBSCRIPTIONS_PER_KEY counts. */
  private readonly byCaller = new Map<string, Set<Subscriber>>();
  /** Per agent, the events waiting behind a read (agent.updated, a client lookup): later events of that agent wait too, so order holds. */
  private readonly queues = new Map<number, Promise<void>>();
  /** Agents with an agent.updated queued whose read has not started: another agent.updated meanwhile adds nothing. */
  private readonly updatePending = new Set<number>();
  readonly clients: AgentClients;
  private readonly agentRows: BatchLoader<number, AgentRow>;
  private readonly off: Array<() => void> = [];
  private readonly pinger: Job;
  private readonly rechecker: Job;
  private rechecking = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly events: RmmEvents,
    private readonly upgrades: UpgradeCallers,
    private readonly usage: KeyUses,
    private readonly repo: EventsRepository,
    private readonly config: RuntimeConfig,
    private readonly clock: Clock,
    jobs: Jobs,
  ) {
    this.clients = new AgentClients((ids) => this.repo.clientsOf(ids));
    this.agentRows = new BatchLoader((ids) => this.repo.agentRows(ids), AGENT_READ_BATCH);
    // Both on every instance: they act on the subscribers this instance holds.
    this.pinger = jobs.every('events.ping', { seconds: PING_MS / 1000, mode: 'every-instance' }, () => this.ping());
    this.rechecker = jobs.every('events.recheck', { seconds: RECHECK_MS / 1000, mode: 'every-instance' }, () => this.recheck());
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return; // (the CLI's context serves no HTTP)
    for (const event of RELAYED_EVENTS) {
      if (event === 'agent.updated') this.off.push(this.events.on('agent.updated', ({ agentId }) => this.updated(agentId)));
      else this.off.push(this.events.on(event, (data: RmmEventMap[typeof event]) => this.relay(event, data)));
    }
    this.off.push(this.events.on('apikey.revoked', ({ keyId }) => this.closePrincipal(principalKey({ kind: 'api_key', id: keyId }), EVENTS_CLOSE.keyRevoked)));
    this.off.push(
      this.events.on('operator.sessions.ended', ({ operatorId, sessionId }) =>
        sessionId === null ? this.closePrincipal(principalKey({ kind: 'operator', id: operatorId })) : this.closeSession(sessionId),
      ),
    );
  }

  /** A gateway's endpoint: at shutdown it stops accepting before the subscribers are closed. */
  addEndpoint(endpoint: Pick<GatewayServer, 'stopAccepting'>): void {
    this.endpoints.push(endpoint);
  }

  /** SIGTERM: every subscriber is told the server is going (1001), and dropped if it does not answer soon. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.pinger.stop(), this.rechecker.stop()]);
    for (const off of this.off.splice(0)) off();
    // New upgrades are answered 503; those being admitted complete (and hear 1001) before this goes on.
    await Promise.all(this.endpoints.map((e) => e.stopAccepting()));
    const all = this.all();
    const closed = all.map((s) => new Promise<void>((resolve) => (s.ws.readyState === WebSocket.CLOSED ? resolve() : s.ws.once('close', () => resolve()))));
    for (const s of all) this.close(s, EVENTS_CLOSE.shuttingDown);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closed), new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)))]);
    clearTimeout(timer);
    for (const s of all) s.ws.terminate();
  }

  /** Who an upgrade comes from (both WebSockets): UpgradeCallers' rules, with the agents:read scope. */
  authenticate(req: IncomingMessage): Promise<CallerDecision> {
    return this.upgrades.authenticate(req, 'agents:read', 'events');
  }

  /**
   * The last check before the upgrade, in the same turn as it (the adapter hands the connection to the gateway
   * synchronously), so that upgrades of one caller in flight together cannot all pass the count.
   */
  confirm(principal: Principal): UpgradeRefusal | undefined {
    if ((this.byCaller.get(principalKey(principal))?.size ?? 0) >= MAX_SUBSCRIPTIONS_PER_KEY) {
      const whose = principal.kind === 'api_key' ? 'key' : 'operator';
      return { status: 429, detail: `too many open event subscriptions for this ${whose} (at most ${MAX_SUBSCRIPTIONS_PER_KEY})`, headers: { 'Retry-After': '30' } };
    }
    if (principal.kind === 'api_key') this.usage.touch(principal.id, this.clock.now());
    return undefined;
  }

  /**
   * Subscribes an accepted socket: events are queued for it from now on and go out once its gateway has greeted it
   * (greet). `agentId` null: the fleet.
   */
  subscribe(ws: WebSocket, principal: Principal, agentId: number | null): Subscriber {
    const sub: Subscriber = {
      ws,
      principal,
      caller: principalKey(principal),
      agentId,
      queue: new SendQueue(socketOf(ws), MAX_BUFFERED_BYTES),
      closing: false,
      alive: true,
    };
    if (agentId === null) this.addFleet(sub);
    else add(this.byAgent, agentId, sub);
    add(this.byCaller, sub.caller, sub);
    this.logger.log(`${labelOf(sub)} connected`);
    // Only now is the socket gone: the caller's count drops here, not when the subscriber is told to close.
    ws.on('close', () => {
      this.leave(sub);
      remove(this.byCaller, sub.caller, sub);
      sub.queue.stop();
    });
    ws.on('pong', () => (sub.alive = true));
    // (Subscribers have nothing to say: what they send is read and ignored, by the adapter.)
    return sub;
  }

  /** The first message; then what was queued meanwhile. Nothing when the subscriber is already going. */
  greet(sub: Subscriber, hello: WireMessage): void {
    if (sub.closing || sub.ws.readyState !== WebSocket.OPEN) return;
    sub.ws.send(JSON.stringify(hello), sub.queue.pump);
    sub.queue.start();
  }

  /** How many subscribers this instance holds for an agent (tests, metrics). */
  subscribers(agentId: number): number {
    return this.byAgent.get(agentId)?.size ?? 0;
  }

  /** How many fleet subscribers this instance holds (tests, metrics). */
  fleetSubscribers(): number {
    return this.fleet.size;
  }

  /**
   * Closes every subscription of a caller (principalKey: `operator:7`, `api_key:3`), on this instance: an operator
   * disabled or whose password changed (4401 'session ended' by default).
   */
  closePrincipal(caller: string, how: CloseHow = EVENTS_CLOSE.sessionEnded): void {
    for (const sub of [...(this.byCaller.get(caller) ?? [])]) this.close(sub, how);
  }

  /** Closes the subscriptions opened with one console session (logout), on this instance. */
  closeSession(sessionId: string, how: CloseHow = EVENTS_CLOSE.sessionEnded): void {
    for (const sub of this.all()) if (sub.principal.sessionId === sessionId) this.close(sub, how);
  }

  /**
   * Closes with a code and a reason; the subscriber gets nothing more from this moment, and what was waiting for
   * it is dropped at once. The close frame follows at most one message already in the socket: a subscriber that
   * reads gets it; one that does not answer within CLOSE_TIMEOUT_MS is dropped (the count of its caller drops then).
   */
  close(sub: Subscriber, how: CloseHow): void {
    if (sub.closing) return;
    sub.closing = true;
    this.leave(sub);
    sub.queue.stop();
    if (sub.ws.readyState === WebSocket.OPEN || sub.ws.readyState === WebSocket.CONNECTING) sub.ws.close(how.code, how.reason);
  }

  /** Every relayed event but agent.updated: encoded once, written to its subscribers (in order behind a pending read). */
  private relay<K extends Exclude<RelayedEvent, 'agent.updated'>>(event: K, data: RmmEventMap[K]): void {
    const { agentId } = data;
    const toFleet = this.fleet.size > 0 && isFleetEvent(event);
    if (!toFleet && !this.byAgent.has(agentId)) return; // nobody listens: no work at all
    const text = JSON.stringify(toWire(event, data as WireInput[K], this.clock.now()));
    if (toFleet && this.limitedFleet > 0 && this.clients.peek(agentId) === undefined) {
      // A fleet subscriber sees only some clients, and this agent's is not known yet: read it (batched), in order.
      this.enqueue(agentId, async () => this.deliver(agentId, text, isFleetEvent(event), await this.clients.of(agentId)));
    } else if (this.queues.has(agentId)) {
      this.enqueue(agentId, () => this.deliver(agentId, text, isFleetEvent(event), this.clients.peek(agentId)));
    } else {
      this.deliver(agentId, text, toFleet, this.clients.peek(agentId));
    }
  }

  /** agent.updated carries the agent as GET shows it: read once per event (in batches), shared by all its subscribers. */
  private updated(agentId: number): void {
    if (this.fleet.size === 0 && !this.byAgent.has(agentId)) return;
    // A read queued and not started yet will see this change too.
    if (this.updatePending.has(agentId)) return;
    this.updatePending.add(agentId);
    this.enqueue(agentId, async () => {
      this.updatePending.delete(agentId);
      const row = await this.agentRows.load(agentId);
      if (!row) return; // deleted meanwhile: the recheck closes its subscribers
      const clientId = row.client_id === null ? null : Number(row.client_id);
      this.clients.remember(agentId, clientId);
      this.deliver(agentId, JSON.stringify(toWire('agent.updated', { agentId, agent: toAgentDetailDto(row) }, this.clock.now())), true, clientId);
    });
  }

  private enqueue(agentId: number, step: () => void | Promise<void>): void {
    const next = (this.queues.get(agentId) ?? Promise.resolve()).then(step).catch((err: Error) => this.logger.warn(`event for agent ${agentId} not sent: ${err.message}`));
    this.queues.set(agentId, next);
    void next.finally(() => {
      if (this.queues.get(agentId) === next) this.queues.delete(agentId);
    });
  }

  /**
   * One message, encoded once, queued for each subscriber of the agent and, when `toFleet`, for each fleet
   * subscriber that may see its client (`clientId` undefined: not known, e.g. a deleted agent: only fleet
   * subscribers that see every client get it). The same Buffer for all of them.
   */
  private deliver(agentId: number, text: string, toFleet: boolean, clientId: number | null | undefined): void {
    const subs = this.byAgent.get(agentId);
    const fleet = toFleet && this.fleet.size > 0;
    if (!subs && !fleet) return;
    const data = Buffer.from(text);
    if (subs) for (const sub of subs) this.write(sub, data);
    if (!fleet) return;
    for (const sub of this.fleet) {
      if (sub.principal.clients === null || (clientId !== undefined && canSeeClient(sub.principal, clientId))) this.write(sub, data);
    }
  }

  /**
   * Queues a message, unless more than MAX_BUFFERED_BYTES is waiting for this subscriber already (queued here or
   * in its socket): then nothing more is queued, and it is closed (1013).
   */
  private write(sub: Subscriber, data: Buffer): void {
    if (sub.closing) return;
    if (!sub.queue.push(data)) {
      this.logger.warn(`${labelOf(sub)} closed: too slow (${sub.queue.waiting} bytes waiting)`);
      this.close(sub, EVENTS_CLOSE.tooSlow);
    }
  }

  private addFleet(sub: Subscriber): void {
    this.fleet.add(sub);
    if (sub.principal.clients !== null) this.limitedFleet++;
  }

  /** Out of the sets events go to (its caller's count keeps it until the socket is gone). */
  private leave(sub: Subscriber): void {
    if (sub.agentId !== null) return remove(this.byAgent, sub.agentId, sub);
    if (this.fleet.delete(sub) && sub.principal.clients !== null) this.limitedFleet--;
  }

  private all(): Subscriber[] {
    return [...this.byCaller.values()].flatMap((set) => [...set]);
  }

  private ping(): void {
    for (const sub of this.all()) {
      if (sub.closing) continue;
      if (!sub.alive) {
        sub.closing = true;
        this.leave(sub);
        sub.queue.stop();
        sub.ws.terminate();
        continue;
      }
      sub.alive = false;
      sub.ws.ping();
    }
  }

  /**
   * Every RECHECK_MS: keys past their expiry (by the clock), keys revoked or deleted, console sessions ended (also
   * on another instance, whose apikey.revoked or operator.sessions.ended this one may not hear), past their end or
   * idle past RMM_SESSION_IDLE_MINUTES, and agents deleted close their subscribers. A failure (the database) is
   * the job's to count and log: the next recheck asks again.
   */
  async recheck(): Promise<void> {
    if (this.rechecking || this.byCaller.size === 0) return;
    this.rechecking = true;
    try {
      const now = this.clock.now();
      const subs = this.all().filter((s) => !s.closing);
      for (const sub of subs) {
        const expiresAt = sub.principal.expiresAt;
        if (expiresAt && expiresAt.getTime() <= now.getTime()) this.close(sub, sub.principal.kind === 'api_key' ? EVENTS_CLOSE.keyExpired : EVENTS_CLOSE.sessionEnded);
      }
      const keyIds = new Set<number>();
      const sessionIds = new Set<string>();
      for (const { principal } of subs) {
        if (principal.kind === 'api_key') keyIds.add(principal.id);
        else if (principal.sessionId) sessionIds.add(principal.sessionId);
      }
      for (const keyId of await this.repo.unusableKeys([...keyIds], now)) this.closePrincipal(principalKey({ kind: 'api_key', id: keyId }), EVENTS_CLOSE.keyRevoked);
      for (const sessionId of await this.repo.endedSessions([...sessionIds], now, this.config.sessionIdleMinutes * 60_000)) this.closeSession(sessionId);
      for (const agentId of await this.repo.missingAgents([...this.byAgent.keys()])) {
        for (const sub of [...(this.byAgent.get(agentId) ?? [])]) this.close(sub, EVENTS_CLOSE.agentDeleted);
      }
    } finally {
      this.rechecking = false;
    }
  }
}

/** A subscriber in log lines: its agent (or the fleet) and its caller, never a secret nor an e-mail. */
export function labelOf(sub: Pick<Subscriber, 'agentId' | 'caller'>): string {
  return `${sub.agentId === null ? 'fleet subscriber' : `subscriber of agent ${sub.agentId}`} (${sub.caller.replace(':', ' ')})`;
}

/** The ?api_key= of an upgrade request (browsers cannot set headers on a WebSocket); the header wins (PrincipalResolver). */

/** A subscriber's socket as its SendQueue uses it. */
function socketOf(ws: WebSocket): QueueSocket {
  return {
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    get open() {
      return ws.readyState === WebSocket.OPEN;
    },
    send: (data, done) => ws.send(data, { binary: false }, done),
  };
}

function add<K>(map: Map<K, Set<Subscriber>>, k: K, sub: Subscriber): void {
  let set = map.get(k);
  if (!set) map.set(k, (set = new Set()));
  set.add(sub);
}

function remove<K>(map: Map<K, Set<Subscriber>>, k: K, sub: Subscriber): void {
  const set = map.get(k);
  if (!set) return;
  set.delete(sub);
  if (set.size === 0) map.delete(k);
}
