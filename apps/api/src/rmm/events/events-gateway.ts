import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { OnGatewayConnection, OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage, Server } from 'node:http';
import { WebSocket } from 'ws';
import type { ApiKeyEntity } from '@app/entities';
import { Clock } from '../../common/clock';
import { CommonErrorCode, DomainError } from '../../common/errors/domain-error';
import { parseId } from '../../common/values';
import { GatewayServer, UpgradeDecision } from '../../common/ws/gateway-server';
import { QueueSocket, SendQueue } from '../../common/ws/send-queue';
import { toAgentDetailDto } from '../agents/agents.dto';
import { AgentsService } from '../agents/agents.service';
import { toAlertDto } from '../alerts/alerts.dto';
import { AlertsService } from '../alerts/alerts.service';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { ApiKeyUsage } from '../api-keys/api-key-usage';
import { EventsRepository } from './events.repository';
import { RELAYED_EVENTS, RelayedEvent, toWire, WireInput } from './events-wire';
import { RmmEventMap, RmmEvents } from './rmm-events';

/** The events WebSocket's path, as the docs write it. */
export const EVENTS_WS_PATH = '/rmm/{agent_id}/';
/** What a subscriber may send (it has nothing to say: anything it sends is ignored). */
const MAX_INBOUND_BYTES = 4 * 1024;
/** Ping interval: a subscriber that did not answer the previous ping is dropped. */
export const PING_MS = 30_000;
/** How often keys (revoked on another instance, expired) and agents (deleted) are checked again. */
export const RECHECK_MS = 3_000;
/** The most a subscriber may have waiting to be sent: past it, nothing more is queued and it is closed with 1013. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Open subscriptions per API key (one more is refused with 429); a subscription counts until its socket is gone. */
export const MAX_SUBSCRIPTIONS_PER_KEY = 100;
/** How long shutdown waits for subscribers to answer the close before dropping them. */
const SHUTDOWN_GRACE_MS = 1_000;
/**
 * How long a closed subscriber has to answer the close frame before its socket is dropped (ws's default is 30 s).
 * What was waiting for it is dropped at the close already; its socket holds at most one message and the close frame.
 */
export const CLOSE_TIMEOUT_MS = 5_000;

/** Close codes a subscriber acts on (docs/events.md). */
export const EVENTS_CLOSE = {
  shuttingDown: { code: 1001, reason: 'server shutting down' },
  internal: { code: 1011, reason: 'server error' },
  tooSlow: { code: 1013, reason: `subscriber too slow: more than ${MAX_BUFFERED_BYTES / 1024 / 1024} MiB waiting to be sent` },
  keyRevoked: { code: 4401, reason: 'api key revoked' },
  keyExpired: { code: 4401, reason: 'api key expired' },
  agentDeleted: { code: 4404, reason: 'agent deleted' },
} as const;

interface Subscriber {
  ws: WebSocket;
  agentId: number;
  keyId: number;
  keyExpiresAt: Date | null;
  /**
   * Messages waiting for the socket (common/ws/send-queue.ts): the same Buffer for every subscriber of the agent,
   * so what many slow subscribers wait for is held once; handed to the socket one at a time, none before hello.
   */
  queue: SendQueue;
  /** Told to close: it gets nothing more (its socket still counts against its key until it is gone). */
  closing: boolean;
  alive: boolean;
}

/** An admitted subscriber: its key and its agent. */
interface Admitted {
  key: ApiKeyEntity;
  agentId: number;
}

/**
 * The events WebSocket `/rmm/{agent_id}/` (docs/events.md, docs/asyncapi.yaml): subscribers authenticate with
 * the management API's keys (X-API-KEY or ?api_key=, scope agents:read) before the upgrade completes, get
 * `hello`, then every event of that agent as it happens. The bus is subscribed to once; each event is mapped
 * once (events-wire.ts) and written to that agent's subscribers only. This gateway is the only writer to them.
 * A Nest gateway served by GatewayWsAdapter (common/ws) at the parameterised path `/rmm/{agent_id}/` (and
 * `/rmm/{agent_id}`; a malformed id is the gateway's 404, after the key is checked); it has no message handlers.
 */
// closeTimeout: ws 8.23 takes it (@types/ws 8.18 does not declare it yet; GatewayOptions does).
@WebSocketGateway({ path: EVENTS_WS_PATH, maxPayload: MAX_INBOUND_BYTES, perMessageDeflate: false, closeTimeout: CLOSE_TIMEOUT_MS })
@Injectable()
export class EventsGateway implements OnGatewayInit<GatewayServer<Admitted>>, OnGatewayConnection, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('events-ws');
  /** Its endpoint on the HTTP server (GatewayServer: path, authentication, upgrades); none in the CLI's context. */
  private endpoint?: GatewayServer<Admitted>;
  /** The subscribers events go to (one leaves when it is told to close). */
  private readonly byAgent = new Map<number, Set<Subscriber>>();
  /** Every subscriber socket of a key, until the socket is gone: what MAX_SUBSCRIPTIONS_PER_KEY counts. */
  private readonly byKey = new Map<number, Set<Subscriber>>();
  /** Per agent, the events waiting behind a read (agent.updated): later events of that agent wait too, so order holds. */
  private readonly queues = new Map<number, Promise<void>>();
  private readonly off: Array<() => void> = [];
  private pinger?: NodeJS.Timeout;
  private rechecker?: NodeJS.Timeout;
  private rechecking = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly events: RmmEvents,
    private readonly keys: ApiKeysService,
    private readonly usage: ApiKeyUsage,
    private readonly agents: AgentsService,
    private readonly alerts: AlertsService,
    private readonly repo: EventsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The adapter's endpoint for /rmm/{agent_id}/ (on the server's one upgrade router, beside the agent channel):
   * subscribers are admitted (401, 403, 404, then 429) before any WebSocket exists; what they send is ignored.
   */
  afterInit(endpoint: GatewayServer<Admitted>): void {
    this.endpoint = endpoint;
    endpoint.serve({
      name: 'events',
      logger: this.logger,
      admit: (req, params) => this.admit(req, params.agent_id),
      // Counted here, in the same turn as the upgrade (the adapter hands the connection to handleConnection
      // synchronously), so that upgrades of one key in flight together cannot all pass the count.
      confirm: (admitted) => {
        if ((this.byKey.get(admitted.key.id)?.size ?? 0) >= MAX_SUBSCRIPTIONS_PER_KEY) {
          return { status: 429, detail: `too many open event subscriptions for this key (at most ${MAX_SUBSCRIPTIONS_PER_KEY})`, headers: { 'Retry-After': '30' } };
        }
        this.usage.touch(admitted.key.id, this.clock.now());
        return undefined;
      },
      unavailable: { status: 503, detail: 'the database is not available, retry shortly', headers: { 'Retry-After': '5' } },
      shuttingDown: EVENTS_CLOSE.shuttingDown,
      label: ({ agentId, key }) => `subscriber of agent ${agentId} (key ${key.id})`,
    });
  }

  /** An admitted subscriber's connection (the adapter's `connection`: its key and agent are what `admit` accepted). */
  handleConnection(ws: WebSocket, _req: IncomingMessage, admitted: Admitted): void {
    this.accept(ws, admitted.key, admitted.agentId);
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return; // (the CLI's context serves no HTTP)
    for (const event of RELAYED_EVENTS) {
      if (event === 'agent.updated') this.off.push(this.events.on('agent.updated', ({ agentId }) => this.updated(agentId)));
      else this.off.push(this.events.on(event, (data: RmmEventMap[typeof event]) => this.relay(event, data)));
    }
    this.off.push(this.events.on('apikey.revoked', ({ keyId }) => this.closeKey(keyId, EVENTS_CLOSE.keyRevoked)));
    this.pinger = setInterval(() => this.ping(), PING_MS).unref();
    this.rechecker = setInterval(() => void this.recheck(), RECHECK_MS).unref();
  }

  /** SIGTERM: every subscriber is told the server is going (1001), and dropped if it does not answer soon. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pinger);
    clearInterval(this.rechecker);
    for (const off of this.off.splice(0)) off();
    // New upgrades are answered 503; those being admitted complete (and hear 1001) before this goes on.
    await this.endpoint?.stopAccepting();
    const all = [...this.byKey.values()].flatMap((set) => [...set]);
    const closed = all.map((s) => new Promise<void>((resolve) => (s.ws.readyState === WebSocket.CLOSED ? resolve() : s.ws.once('close', () => resolve()))));
    for (const s of all) this.close(s, EVENTS_CLOSE.shuttingDown);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closed), new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)))]);
    clearTimeout(timer);
    for (const s of all) s.ws.terminate();
  }

  /** How many subscribers this instance holds for an agent (tests, metrics). */
  subscribers(agentId: number): number {
    return this.byAgent.get(agentId)?.size ?? 0;
  }

  /** In this order: the key (401, 403), the agent (404); then (confirm) the key's open subscriptions (429). */
  private async admit(req: IncomingMessage, rawAgentId: string | undefined): Promise<UpgradeDecision<Admitted>> {
    let key: ApiKeyEntity;
    try {
      key = await this.keys.authenticate(apiKeyOf(req), 'agents:read');
    } catch (err) {
      if (err instanceof DomainError && err.code === CommonErrorCode.Unauthorized) return { refuse: { status: 401, detail: err.message } };
      if (err instanceof DomainError && err.code === CommonErrorCode.Forbidden) return { refuse: { status: 403, detail: err.message } };
      throw err;
    }
    const agentId = parseId(rawAgentId);
    if (agentId === null || !(await this.agentExists(agentId))) return { refuse: { status: 404, detail: 'Not found' } };
    return { accept: { key, agentId } };
  }

  private async agentExists(agentId: number): Promise<boolean> {
    try {
      await this.agents.get(agentId);
      return true;
    } catch (err) {
      if (err instanceof DomainError && err.code === CommonErrorCode.NotFound) return false;
      throw err;
    }
  }

  private accept(ws: WebSocket, key: ApiKeyEntity, agentId: number): void {
    const sub: Subscriber = {
      ws,
      agentId,
      keyId: key.id,
      keyExpiresAt: key.expiresAt,
      queue: new SendQueue(socketOf(ws), MAX_BUFFERED_BYTES),
      closing: false,
      alive: true,
    };
    add(this.byAgent, agentId, sub);
    add(this.byKey, key.id, sub);
    this.logger.log(`subscriber of agent ${agentId} connected (key ${key.id})`);
    // Only now is the socket gone: the key's count drops here, not when the subscriber is told to close.
    ws.on('close', () => {
      remove(this.byAgent, sub.agentId, sub);
      remove(this.byKey, sub.keyId, sub);
      sub.queue.stop();
    });
    ws.on('pong', () => (sub.alive = true));
    // (Subscribers have nothing to say: what they send is read and ignored, by the adapter.)
    void this.hello(sub).catch((err: Error) => {
      this.logger.warn(`hello for agent ${agentId} failed: ${err.message}`);
      this.close(sub, EVENTS_CLOSE.internal);
    });
  }

  /** The first message: the agent as GET /api/v3/agents/{id}/ shows it and its open alerts; then what came meanwhile. */
  private async hello(sub: Subscriber): Promise<void> {
    const { agentId } = sub;
    let agent;
    try {
      agent = await this.agents.get(agentId);
    } catch (err) {
      if (err instanceof DomainError && err.code === CommonErrorCode.NotFound) return this.close(sub, EVENTS_CLOSE.agentDeleted);
      throw err;
    }
    const alerts = await this.alerts.openFor(agentId);
    if (sub.closing || sub.ws.readyState !== WebSocket.OPEN) return;
    sub.ws.send(JSON.stringify(toWire('hello', { agentId, hello: { ...toAgentDetailDto(agent), alerts: alerts.map(toAlertDto) } }, this.clock.now())), sub.queue.pump);
    sub.queue.start();
  }

  /** Every relayed event but agent.updated: mapped once, written to the agent's subscribers (in order behind a pending read). */
  private relay<K extends Exclude<RelayedEvent, 'agent.updated'>>(event: K, data: RmmEventMap[K]): void {
    const { agentId } = data;
    if (!this.byAgent.has(agentId)) return; // nobody listens: no work at all
    const text = JSON.stringify(toWire(event, data as WireInput[K], this.clock.now()));
    if (this.queues.has(agentId)) this.enqueue(agentId, () => this.broadcast(agentId, text));
    else this.broadcast(agentId, text);
  }

  /** agent.updated carries the agent as GET shows it: read once per event, shared by all its subscribers. */
  private updated(agentId: number): void {
    if (!this.byAgent.has(agentId)) return;
    this.enqueue(agentId, async () => {
      let agent;
      try {
        agent = await this.agents.get(agentId);
      } catch (err) {
        if (err instanceof DomainError && err.code === CommonErrorCode.NotFound) return; // deleted meanwhile: the recheck closes its subscribers
        throw err;
      }
      this.broadcast(agentId, JSON.stringify(toWire('agent.updated', { agentId, agent: toAgentDetailDto(agent) }, this.clock.now())));
    });
  }

  private enqueue(agentId: number, step: () => void | Promise<void>): void {
    const next = (this.queues.get(agentId) ?? Promise.resolve()).then(step).catch((err: Error) => this.logger.warn(`event for agent ${agentId} not sent: ${err.message}`));
    this.queues.set(agentId, next);
    void next.finally(() => {
      if (this.queues.get(agentId) === next) this.queues.delete(agentId);
    });
  }

  /** One message, encoded once, queued for each subscriber of the agent (the same Buffer for all of them). */
  private broadcast(agentId: number, text: string): void {
    const subs = this.byAgent.get(agentId);
    if (!subs) return;
    const data = Buffer.from(text);
    for (const sub of subs) this.write(sub, data);
  }

  /**
   * Queues a message, unless more than MAX_BUFFERED_BYTES is waiting for this subscriber already (queued here or
   * in its socket): then nothing more is queued, and it is closed (1013).
   */
  private write(sub: Subscriber, data: Buffer): void {
    if (sub.closing) return;
    if (!sub.queue.push(data)) {
      this.logger.warn(`subscriber of agent ${sub.agentId} closed: too slow (${sub.queue.waiting} bytes waiting)`);
      this.close(sub, EVENTS_CLOSE.tooSlow);
    }
  }

  /**
   * Closes with a code and a reason; the subscriber gets nothing more from this moment, and what was waiting for
   * it is dropped at once. The close frame follows at most one message already in the socket: a subscriber that
   * reads gets it; one that does not answer within CLOSE_TIMEOUT_MS is dropped (the count of its key drops then).
   */
  private close(sub: Subscriber, how: { code: number; reason: string }): void {
    if (sub.closing) return;
    sub.closing = true;
    remove(this.byAgent, sub.agentId, sub);
    sub.queue.stop();
    if (sub.ws.readyState === WebSocket.OPEN || sub.ws.readyState === WebSocket.CONNECTING) sub.ws.close(how.code, how.reason);
  }

  private closeKey(keyId: number, how: { code: number; reason: string }): void {
    for (const sub of [...(this.byKey.get(keyId) ?? [])]) this.close(sub, how);
  }

  private ping(): void {
    for (const set of this.byAgent.values()) {
      for (const sub of set) {
        if (!sub.alive) {
          sub.closing = true;
          remove(this.byAgent, sub.agentId, sub);
          sub.queue.stop();
          sub.ws.terminate();
          continue;
        }
        sub.alive = false;
        sub.ws.ping();
      }
    }
  }

  /**
   * Every RECHECK_MS: keys past their expiry (by the clock), keys revoked or deleted (also on another instance,
   * whose apikey.revoked this one does not hear) and agents deleted close their subscribers.
   */
  async recheck(): Promise<void> {
    if (this.rechecking || this.byKey.size === 0) return;
    this.rechecking = true;
    try {
      const now = this.clock.now();
      for (const set of [...this.byKey.values()]) {
        for (const sub of [...set]) if (sub.keyExpiresAt && sub.keyExpiresAt.getTime() <= now.getTime()) this.close(sub, EVENTS_CLOSE.keyExpired);
      }
      for (const keyId of await this.repo.unusableKeys([...this.byKey.keys()], now)) this.closeKey(keyId, EVENTS_CLOSE.keyRevoked);
      for (const agentId of await this.repo.missingAgents([...this.byAgent.keys()])) {
        for (const sub of [...(this.byAgent.get(agentId) ?? [])]) this.close(sub, EVENTS_CLOSE.agentDeleted);
      }
    } catch (err) {
      this.logger.warn(`events recheck failed: ${(err as Error).message}`);
    } finally {
      this.rechecking = false;
    }
  }
}

/** The key of an upgrade request: the X-API-KEY header, else ?api_key= (browsers cannot set headers on a WebSocket). */
export function apiKeyOf(req: IncomingMessage): string | undefined {
  const header = req.headers['x-api-key'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader) return fromHeader;
  const q = (req.url ?? '').indexOf('?');
  if (q < 0) return undefined;
  try {
    return new URLSearchParams((req.url ?? '').slice(q + 1)).get('api_key') ?? undefined;
  } catch {
    return undefined;
  }
}

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
