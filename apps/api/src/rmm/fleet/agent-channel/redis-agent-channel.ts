import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError, FieldError } from '../../../common/errors/domain-error';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { RedisPubSub, busUnavailable } from '../../../common/redis/redis-pubsub';
import { AgentsErrorCode } from './agent-channel.errors';
import { AgentChannel, AgentCommand, AgentCommands, AgentMessageHandler, LocalAgentChannel, notConnected } from './agent-channel';

/** How long an ownership record lives without being refreshed (a crashed instance's records expire after it). */
export const OWNER_TTL_MS = 90_000;
/** How often an instance refreshes the records of the agents it holds. */
export const OWNER_REFRESH_MS = 30_000;
/** Records refreshed per script call (bounds the time one call holds Redis). */
const REFRESH_BATCH = 500;

/** Refresh: for each key, extend it if this instance owns it, set it if nobody does (Redis lost it), else leave it. */
const REFRESH_SCRIPT = `
local n = 0
for _, k in ipairs(KEYS) do
  local v = redis.call('GET', k)
  if v == ARGV[1] then redis.call('PEXPIRE', k, ARGV[2]) n = n + 1
  elseif not v then redis.call('SET', k, ARGV[1], 'PX', ARGV[2]) n = n + 1 end
end
return n`;
/** Release: delete the key only while this instance still owns it (a newer connection elsewhere keeps its record). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** What instances say to each other on their command channels (`<prefix>instance:<id>`). */
type Message =
  | { k: 'request'; id: string; from: string; agentId: number; command: AgentCommand; body: unknown; timeoutMs: number }
  | { k: 'answer'; id: string; ok: true; result: unknown }
  | { k: 'answer'; id: string; ok: false; code: string; message: string; fields?: FieldError[] }
  | { k: 'notify'; agentId: number; message: { type: string } & Record<string, unknown> };

interface RemotePending {
  resolve(answer: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

const AGENT_CODES = new Set<string>(Object.values(AgentsErrorCode));

/**
 * Several instances (REDIS_URL): an agent is reached whichever instance holds its connection. Each instance
 * keeps, per agent it holds, an ownership record `<prefix>agent-owner:<id>` = its instance id (set at connect,
 * refreshed every OWNER_REFRESH_MS, expiring after OWNER_TTL_MS, deleted at disconnect only while still its
 * own), and listens on its own command channel. A command for an agent held elsewhere is published to the
 * owner's channel; the owner sends it over the agent's socket through its LocalAgentChannel (which then
 * accepts that run's output chunks) and publishes the answer, or the error, back to the asking instance.
 * The errors are the one-instance ones: NotConnected at once when no live instance owns the agent,
 * Disconnected when the owner loses it mid-request, NoAnswer at the time-out; Redis unreachable: 503.
 */
@Injectable()
export class RedisAgentChannel extends AgentChannel implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('agent-channel');
  private readonly pending = new Map<string, RemotePending>();
  private readonly inbox: string;
  private readonly refresher?: Job;
  private unwatch?: () => void;

  constructor(
    private readonly local: LocalAgentChannel,
    private readonly bus: RedisPubSub,
    // (the module gives it; a unit test that builds one by hand refreshes by calling refresh())
    jobs?: Jobs,
  ) {
    super();
    this.inbox = this.channelOf(bus.instanceId);
    // Every instance: the records of the agents it holds.
    this.refresher = jobs?.every('agent-channel.owner-refresh', { seconds: OWNER_REFRESH_MS / 1000, mode: 'every-instance' }, () => this.refresh());
  }

  async onModuleInit(): Promise<void> {
    this.unwatch = this.local.watch({ attached: (agentId) => this.claim(agentId), detached: (agentId) => void this.release(agentId) });
    await this.bus.subscribe(this.inbox, (text) => this.receive(text));
  }

  /** Stopping: the records of the agents held here go (other instances answer NotConnected until they reconnect elsewhere). */
  async beforeApplicationShutdown(): Promise<void> {
    // (first: a refresh after the release would write the records again)
    await this.refresher?.stop();
    const held = [...this.local.held()];
    await Promise.all(held.map((agentId) => this.release(agentId)));
  }

  onApplicationShutdown(): void {
    this.unwatch?.();
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new DomainError(AgentsErrorCode.Disconnected, 'server shutting down'));
    }
  }

  handle(type: string, handler: AgentMessageHandler): () => void {
    // An agent's messages arrive at the instance holding it: each instance handles its own agents' messages.
    return this.local.handle(type, handler);
  }

  async isOnline(agentId: number): Promise<boolean> {
    if (this.local.holds(agentId)) return true;
    const owner = await this.owner(agentId);
    return owner !== null && owner !== this.bus.instanceId;
  }

  async notify(agentId: number, message: { type: string } & Record<string, unknown>): Promise<boolean> {
    if (this.local.holds(agentId)) return this.local.send(agentId, message);
    const owner = await this.owner(agentId);
    if (owner === null || owner === this.bus.instanceId) return false;
    return (await this.publish(owner, { k: 'notify', agentId, message })) > 0;
  }

  async request<K extends AgentCommand>(agentId: number, command: K, body: AgentCommands[K]['in'], timeoutMs: number): Promise<AgentCommands[K]['out']> {
    if (this.local.holds(agentId)) return this.local.request(agentId, command, body, timeoutMs);
    const owner = await this.owner(agentId);
    if (owner === null || owner === this.bus.instanceId) throw notConnected();
    const id = randomUUID();
    return new Promise<AgentCommands[K]['out']>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new DomainError(AgentsErrorCode.NoAnswer, `agent did not answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (a: unknown) => void, reject, timer });
      const fail = (err: Error): void => {
        const p = this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        clearTimeout(p.timer);
        p.reject(err);
      };
      this.publish(owner, { k: 'request', id, from: this.bus.instanceId, agentId, command, body, timeoutMs }).then(
        // Nobody listens on the owner's channel: it died and its record has not expired yet.
        (receivers) => receivers === 0 && fail(notConnected()),
        () => fail(busUnavailable()),
      );
    });
  }

  /** The instance holding the agent's connection, per its ownership record (null: none). */
  private async owner(agentId: number): Promise<string | null> {
    try {
      return await this.bus.commands().get(this.ownerKey(agentId));
    } catch {
      throw busUnavailable();
    }
  }

  private ownerKey(agentId: number): string {
    return this.bus.key(`agent-owner:${agentId}`);
  }

  private channelOf(instanceId: string): string {
    return this.bus.key(`instance:${instanceId}`);
  }

  private publish(instanceId: string, message: Message): Promise<number> {
    return this.bus.publish(this.channelOf(instanceId), JSON.stringify(message));
  }

  private claim(agentId: number): void {
    // (the periodic refresh sets it if this fails)
    this.bus
      .commands()
      .set(this.ownerKey(agentId), this.bus.instanceId, 'PX', OWNER_TTL_MS)
      .catch((err: Error) => this.logger.warn(`agent ${agentId} ownership not recorded: ${err.message}`));
  }

  private release(agentId: number): Promise<void> {
    return this.bus
      .commands()
      .eval(RELEASE_SCRIPT, 1, this.ownerKey(agentId), this.bus.instanceId)
      .then(
        () => undefined,
        (err: Error) => this.logger.warn(`agent ${agentId} ownership not cleared (it expires): ${err.message}`),
      );
  }

  /** Extends the records of every agent held here (and sets those Redis lost); returns how many are this instance's. */
  async refresh(): Promise<number> {
    const held = [...this.local.held()];
    let n = 0;
    for (let i = 0; i < held.length; i += REFRESH_BATCH) {
      const keys = held.slice(i, i + REFRESH_BATCH).map((agentId) => this.ownerKey(agentId));
      n += Number(await this.bus.commands().eval(REFRESH_SCRIPT, keys.length, ...keys, this.bus.instanceId, OWNER_TTL_MS));
    }
    return n;
  }

  private receive(text: string): void {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    switch (message?.k) {
      case 'request':
        return this.serve(message);
      case 'answer': {
        const p = this.pending.get(message.id);
        if (!p) return; // timed out meanwhile
        this.pending.delete(message.id);
        clearTimeout(p.timer);
        if (message.ok) p.resolve(message.result);
        else p.reject(new DomainError(AGENT_CODES.has(message.code) ? message.code : AgentsErrorCode.Disconnected, message.message, Array.isArray(message.fields) ? message.fields : []));
        return;
      }
      case 'notify':
        this.local.send(message.agentId, message.message);
        return;
    }
  }

  /** Another instance's command for an agent held here: sent over its socket, the answer (or error) published back. */
  private serve(m: Extract<Message, { k: 'request' }>): void {
    const answer = (reply: Message): void =>
      void this.publish(m.from, reply).catch((err: Error) => this.logger.warn(`answer to ${m.from} not sent: ${err.message}`));
    this.local.request(m.agentId, m.command, m.body as AgentCommands[typeof m.command]['in'], m.timeoutMs).then(
      (result) => answer({ k: 'answer', id: m.id, ok: true, result }),
      (err: Error) =>
        answer({ k: 'answer', id: m.id, ok: false, code: err instanceof DomainError ? err.code : AgentsErrorCode.Disconnected, message: err.message, fields: err instanceof DomainError ? err.fields : [] }),
    );
  }
}
