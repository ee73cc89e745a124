import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Command, CommandResult, REFUSAL_MAX, ServerMessageOf } from '@app/protocol';
import { DomainError } from '../../../common/errors/domain-error';
import { pgText } from '../../../common/values';
import { AgentsErrorCode } from './agent-channel.errors';
import { parseAnswer } from './agent-protocol';

/**
 * The commands the server sends an agent, and the agent's answer to each, from the protocol's schemas
 * (libs/protocol: SERVER_MESSAGES and COMMAND_ANSWERS): `in` is the command's message without its envelope.
 */
export type AgentCommands = {
  [K in Command]: { in: Omit<ServerMessageOf<K>, 'type' | 'id'>; out: CommandResult<K> };
};
export type AgentCommand = keyof AgentCommands;

/**
 * The one way services talk to agents: is an agent online, and send it a command and await its answer
 * within a time limit. One instance: in-process (LocalAgentChannel). Several (REDIS_URL): RedisAgentChannel
 * reaches an agent whichever instance holds its connection, with the same answers and errors.
 */
export abstract class AgentChannel {
  abstract isOnline(agentId: number): Promise<boolean>;
  /**
   * Sends `command` and resolves to the agent's answer. Rejects with AgentsErrorCode.NotConnected at once
   * when no channel is open, Disconnected when it closes before the answer, NoAnswer after `timeoutMs`.
   */
  abstract request<K extends AgentCommand>(agentId: number, command: K, body: AgentCommands[K]['in'], timeoutMs: number): Promise<AgentCommands[K]['out']>;
  /** Sends a one-way message (no answer awaited, e.g. `checks.sync`); false when the agent is not connected. */
  abstract notify(agentId: number, message: { type: string } & Record<string, unknown>): Promise<boolean>;
  /**
   * Handles the agent messages of one `type` the gateway does not know itself (e.g. `check.result`): the
   * handler gets the agent's id and the parsed message, whatever it holds (validate it). One handler per type.
   */
  abstract handle(type: string, handler: AgentMessageHandler): () => void;
}

/** A feature's handler of one agent message type (see AgentChannel.handle). */
export type AgentMessageHandler = (agentId: number, message: Record<string, unknown>) => void;

/** What the agent gateway gives the channel for one open connection. */
export interface AgentConnection {
  /** Writes one message (the protocol's JSON envelope) to the agent; throws when it cannot (the connection is closing). */
  send(message: { type: string; id: string } & Record<string, unknown>): void;
  /** Closes the connection with this code and reason (a policy of a feature: docs/agent-protocol.md). */
  close?(code: number, reason: string): void;
  /** Writes one binary frame (a session's bytes: sessions.ts); false when it cannot (closing, or not reading). */
  sendBinary?(bytes: Uint8Array): boolean;
}

/** What became of an agent's `result` message (AgentChannel.deliver). */
export type Delivery = { to: 'request' } | { to: 'nothing' } | { to: 'request'; invalid: string };

interface Pending {
  agentId: number;
  command: AgentCommand;
  resolve(answer: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export const notConnected = (): DomainError => new DomainError(AgentsErrorCode.NotConnected, 'agent is not connected');

/** The agent answered `ok: false`: it would not or could not (an interpreter it lacks, a shell it does not know). */
export const refused = (reason: string): DomainError =>
  new DomainError(AgentsErrorCode.Refused, `agent refused: ${pgText(reason.length > REFUSAL_MAX ? `${reason.slice(0, REFUSAL_MAX - 1)}…` : reason)}`);

/** The agent's answer is not one the protocol allows; `fields` carries what was wrong (stored with the run). */
export const invalidAnswer = (why: string): DomainError =>
  new DomainError(AgentsErrorCode.InvalidAnswer, 'agent sent an invalid answer', [{ field: 'answer', message: pgText(why.slice(0, 500)) }]);

/** One instance: the connections this process holds, and the requests awaiting their answers. */
@Injectable()
export class LocalAgentChannel extends AgentChannel implements OnApplicationShutdown {
  private readonly connections = new Map<number, AgentConnection>();
  private readonly pending = new Map<string, Pending>();
  /** Script runs sent and not yet answered: runId → the agent running it (so output chunks are checked cheaply). */
  private readonly runs = new Map<number, number>();

  /** True while `runId` was sent to `agentId` and awaits its answer. */
  isRunOf(agentId: number, runId: number): boolean {
    return this.runs.get(runId) === agentId;
  }

  private readonly handlers = new Map<string, AgentMessageHandler>();

  handle(type: string, handler: AgentMessageHandler): () => void {
    if (this.handlers.has(type)) throw new Error(`agent message ${type} already has a handler`);
    this.handlers.set(type, handler);
    return () => {
      if (this.handlers.get(type) === handler) this.handlers.delete(type);
    };
  }

  /** Called by the gateway with a message of a type it does not handle; false when no feature handles it. */
  dispatch(agentId: number, type: string, message: Record<string, unknown>): boolean {
    const handler = this.handlers.get(type);
    if (!handler) return false;
    handler(agentId, message);
    return true;
  }

  async notify(agentId: number, message: { type: string } & Record<string, unknown>): Promise<boolean> {
    return this.send(agentId, message);
  }

  /** notify's work, at once: false when this instance holds no connection of the agent. */
  send(agentId: number, message: { type: string } & Record<string, unknown>): boolean {
    const connection = this.connections.get(agentId);
    if (!connection) return false;
    try {
      connection.send({ id: randomUUID(), ...message });
    } catch {
      return false;
    }
    for (const tap of this.taps.get(message.type) ?? []) tap(agentId, message);
    return true;
  }

  /** A session's binary frame to an agent held here (AgentSessions); false when it did not go. */
  sendBinary(agentId: number, bytes: Uint8Array): boolean {
    const connection = this.connections.get(agentId);
    return connection?.sendBinary?.(bytes) ?? false;
  }

  private readonly taps = new Map<string, Set<(agentId: number, message: Record<string, unknown>) => void>>();

  /**
   * Told of every one-way message of `type` sent to an agent held here, after it went (CheckResults learns from
   * `checks.sync` which checks each agent was given, so a result for any other check costs nothing).
   */
  onSent(type: string, tap: (agentId: number, message: Record<string, unknown>) => void): () => void {
    let set = this.taps.get(type);
    if (!set) this.taps.set(type, (set = new Set()));
    set.add(tap);
    return () => set.delete(tap);
  }

  private readonly watchers: Array<{ attached(agentId: number): void; detached(agentId: number): void }> = [];

  /** Told when an agent's connection starts being held here, and when none is held any more (RedisAgentChannel's ownership). */
  watch(watcher: { attached(agentId: number): void; detached(agentId: number): void }): () => void {
    this.watchers.push(watcher);
    return () => {
      const i = this.watchers.indexOf(watcher);
      if (i >= 0) this.watchers.splice(i, 1);
    };
  }

  /** True when this instance holds a connection of the agent. */
  holds(agentId: number): boolean {
    return this.connections.has(agentId);
  }

  /** The agents this instance holds a connection of. */
  held(): IterableIterator<number> {
    return this.connections.keys();
  }

  /** Closes the agent's connection held here (a feature's policy, e.g. 1008); false when none is held. */
  close(agentId: number, code: number, reason: string): boolean {
    const connection = this.connections.get(agentId);
    if (!connection?.close) return false;
    connection.close(code, reason);
    return true;
  }

  /** Registers an agent's open connection (replacing an older one); returns the function that detaches it. */
  attach(agentId: number, connection: AgentConnection): () => void {
    const previous = this.connections.get(agentId);
    if (previous) this.failPending(agentId, 'agent disconnected');
    this.connections.set(agentId, connection);
    for (const w of this.watchers) w.attached(agentId);
    return () => {
      if (this.connections.get(agentId) !== connection) return;
      this.connections.delete(agentId);
      this.failPending(agentId, 'agent disconnected');
      for (const w of this.watchers) w.detached(agentId);
    };
  }

  /**
   * The agent's `result` message for request `id` (called by the gateway, the envelope already validated): checked
   * against the command's answer schema, then the request resolves (the result), or rejects (Refused with the
   * agent's reason; InvalidAnswer with what was wrong). `nothing`: no request of this agent awaits that id (an
   * answer after its time-out, or another agent's id): ignored.
   */
  deliver(agentId: number, id: string, message: unknown): Delivery {
    const p = this.pending.get(id);
    if (!p || p.agentId !== agentId) return { to: 'nothing' };
    this.pending.delete(id);
    clearTimeout(p.timer);
    const answer = parseAnswer(p.command, message);
    if (answer.ok) p.resolve(answer.result);
    else if ('refused' in answer) p.reject(refused(answer.refused));
    else {
      p.reject(invalidAnswer(answer.invalid));
      return { to: 'request', invalid: answer.invalid };
    }
    return { to: 'request' };
  }

  async isOnline(agentId: number): Promise<boolean> {
    return this.connections.has(agentId);
  }

  request<K extends AgentCommand>(agentId: number, command: K, body: AgentCommands[K]['in'], timeoutMs: number): Promise<AgentCommands[K]['out']> {
    const connection = this.connections.get(agentId);
    if (!connection) return Promise.reject(notConnected());
    const id = randomUUID();
    const answer = new Promise<AgentCommands[K]['out']>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new DomainError(AgentsErrorCode.NoAnswer, `agent did not answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { agentId, command, resolve: resolve as (a: unknown) => void, reject, timer });
      try {
        connection.send({ type: command, id, ...body });
      } catch {
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new DomainError(AgentsErrorCode.Disconnected, 'agent disconnected'));
      }
    });
    if (command === 'script.run') {
      const runId = (body as AgentCommands['script.run']['in']).runId;
      this.runs.set(runId, agentId);
      answer.then(
        () => this.runs.delete(runId),
        () => this.runs.delete(runId),
      );
    }
    return answer;
  }

  onApplicationShutdown(): void {
    for (const agentId of [...this.connections.keys()]) this.failPending(agentId, 'server shutting down');
    this.connections.clear();
    this.runs.clear();
  }

  private failPending(agentId: number, reason: string): void {
    for (const [id, p] of this.pending) {
      if (p.agentId !== agentId) continue;
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new DomainError(AgentsErrorCode.Disconnected, reason));
    }
  }
}
