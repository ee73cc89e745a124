import type { AlertDto } from '../resources/alert.dto';

/*
 * The contract of the event bus: every event's name and payload, and nothing else (no service, no import but the
 * resources the payloads carry). Announcers and listeners in every area read it here; the bus (rmm-events.ts)
 * carries it.
 */

/**
 * Everything the backend announces, one map: the events WebSockets (/rmm/{agent_id}/ and /rmm/fleet/, events-hub.ts)
 * subscribe here and are the only writers to subscriber sockets. Names are the wire's event names (the wire's
 * data, in snake_case, is made in events-wire.ts).
 */
export interface RmmEventMap {
  'agent.online': { agentId: number };
  'agent.offline': { agentId: number };
  'agent.overdue': { agentId: number };
  'agent.updated': { agentId: number };
  /** The agent was offered the server's agent version (update.available sent; docs/agent-binaries.md). */
  'agent.updating': { agentId: number; fromVersion: string; toVersion: string };
  /** The agent refused the offered version (bad signature or hash, download failed) or rolled it back, or never came back on it. */
  'agent.update_failed': { agentId: number; version: string; error: string };
  /**
   * A channel of the agent connected and was given this connection_epoch (AgentPresenceService): any
   * instance holding an older connection of the agent closes it (4000). Not relayed to subscribers; a lost one is
   * harmless (the older connection's writes name an older epoch and change nothing; docs/decisions.md, "Who owns
   * each state").
   */
  'agent.connected': { agentId: number; epoch: number };
  /** A device registered (again, when `reenrolled`): any connection made with the agent's old secret must close. */
  'agent.registered': { agentId: number; reenrolled: boolean };
  /** A run was queued for the agent while it is not connected (runscript with queue: true, or a task's); expiresAt ISO 8601. */
  'script.queued': { agentId: number; runId: number; script: number; expiresAt: string };
  'script.started': { agentId: number; runId: number; script: number };
  'script.output': { agentId: number; runId: number; stream: 'stdout' | 'stderr'; chunk: string; seq: number };
  'script.finished': { agentId: number; runId: number; retcode: number | null; executionTime: number; timedOut: boolean };
  'check.status': { agentId: number; checkId: number; status: string; previousStatus: string; moreInfo: string | null };
  'alert.created': { agentId: number; alert: AlertDto };
  'alert.acknowledged': { agentId: number; alert: AlertDto };
  'alert.resolved': { agentId: number; alert: AlertDto };
  'task.run': { agentId: number; taskId: number; runId: number; status: string; retcode: number | null };
  /** A key stopped working: connections authenticated with it must close. */
  'apikey.revoked': { keyId: number };
  /**
   * A policy was created, changed or deleted (`policyId` null: several, or unknown): the policy engine works out
   * which agents gain or lose items (docs/policies.md, "Propagation"). Emitted after the commit. Not relayed.
   */
  'policies.changed': { policyId: number | null };
  /**
   * What policies match these agents may have changed: their tags, monitoring type, client or site changed, or they
   * enrolled. The policy engine recomputes their items. Emitted after the commit. Not relayed (each change also
   * emits agent.updated for subscribers).
   */
  'agents.regrouped': { agentIds: number[] };
  /**
   * A console session ended (logout: `sessionId`), or every session of an operator (disabled, password changed:
   * `sessionId` null): event WebSockets opened with it close (4401 'session ended'), on every instance.
   */
  'operator.sessions.ended': { operatorId: number; sessionId: string | null };
}
export type RmmEventName = keyof RmmEventMap;
export type RmmEventHandler<K extends RmmEventName> = (data: RmmEventMap[K]) => void;

/** How a handler subscribes. */
export interface RmmEventOptions {
  /**
   * Only the events this instance emitted itself. With several instances (REDIS_URL) every event reaches every
   * instance: a handler that does something once per event (open an alert, send an agent its checks) takes
   * only its own instance's, while one that acts on what this instance holds (close its sockets, drop a
   * cached key, relay to its subscribers) takes them all (the default). One instance: every event is local.
   */
  local?: boolean;
}
