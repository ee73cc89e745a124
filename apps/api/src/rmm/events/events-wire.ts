import type { AgentDetailDto } from '../fleet/agents/agents.dto';
import type { AlertDto } from '../common/resources/alert.dto';
import type { RmmEventMap } from '../common/bus/rmm-events';

/**
 * The events WebSocket's wire format (docs/events.md, docs/asyncapi.yaml): every message is
 * `{event, agent_id, ts, data}`; the bus's camelCase becomes snake_case here and nowhere else.
 */
export interface WireMessage {
  event: WireEventName;
  /** The agent's id as the REST API writes it (a string); null only in the fleet WebSocket's `hello`. */
  agent_id: string | null;
  /** When the server sent it (ISO 8601, UTC). */
  ts: string;
  data: unknown;
}

/** The bus events relayed to an agent's subscribers, as they are named on the wire. */
export const RELAYED_EVENTS = [
  'agent.online',
  'agent.offline',
  'agent.overdue',
  'agent.updated',
  'agent.updating',
  'agent.update_failed',
  'script.queued',
  'script.started',
  'script.output',
  'script.finished',
  'check.status',
  'alert.created',
  'alert.acknowledged',
  'alert.resolved',
  'task.run',
] as const satisfies ReadonlyArray<keyof RmmEventMap>;
export type RelayedEvent = (typeof RELAYED_EVENTS)[number];

/**
 * The events of every agent the caller may see that the fleet WebSocket (/rmm/fleet/) relays: presence, the
 * agent's record, and alerts. Not the per-run traffic (script output, check results, task runs): that is the
 * per-agent WebSocket's.
 */
export const FLEET_EVENTS = [
  'agent.online',
  'agent.offline',
  'agent.overdue',
  'agent.updated',
  'agent.updating',
  'agent.update_failed',
  'alert.created',
  'alert.acknowledged',
  'alert.resolved',
] as const satisfies ReadonlyArray<RelayedEvent>;
export type FleetEvent = (typeof FLEET_EVENTS)[number];
const FLEET_EVENT_SET: ReadonlySet<string> = new Set(FLEET_EVENTS);
export const isFleetEvent = (event: RelayedEvent): event is FleetEvent => FLEET_EVENT_SET.has(event);

/** Every event a subscriber can receive: `hello` first, then the relayed ones. */
export const WIRE_EVENTS = ['hello', ...RELAYED_EVENTS] as const;
export type WireEventName = (typeof WIRE_EVENTS)[number];

/** hello's data: the agent as GET /api/v3/agents/{id}/ shows it, and its open alerts as GET /api/v3/alerts/ shows them. */
export type HelloData = AgentDetailDto & { alerts: AlertDto[] };

/**
 * What the mapper needs for each event: the bus's data, except agent.updated, which carries the agent as
 * GET /api/v3/agents/{id}/ shows it (read once per event by the gateway and shared by all its subscribers).
 */
export type WireInput = { [K in RelayedEvent]: K extends 'agent.updated' ? { agentId: number; agent: AgentDetailDto } : RmmEventMap[K] } & {
  hello: { agentId: number; hello: HelloData };
};

/**
 * The fleet WebSocket's hello: how many agents the caller may see now, and the clients it is limited to (null:
 * every client). Not the agents themselves: the console reads the list over HTTP (GET /api/v3/agents/).
 */
export interface FleetHelloData {
  agents: number;
  clients: number[] | null;
}

/** The fleet WebSocket's first message (its only message without an agent: `agent_id` is null). */
export function fleetHello(data: FleetHelloData, now: Date): WireMessage {
  return { event: 'hello', agent_id: null, ts: now.toISOString(), data };
}

/** The one mapper from the bus to the wire. */
export function toWire<K extends WireEventName>(event: K, input: WireInput[K], now: Date): WireMessage {
  return { event, agent_id: String(input.agentId), ts: now.toISOString(), data: wireData(event, input) };
}

function wireData<K extends WireEventName>(event: K, input: WireInput[K]): unknown {
  const e = { event, input } as { [E in WireEventName]: { event: E; input: WireInput[E] } }[WireEventName];
  switch (e.event) {
    case 'hello':
      return e.input.hello;
    case 'agent.online':
      return { status: 'online' };
    case 'agent.offline':
      return { status: 'offline' };
    case 'agent.overdue':
      return { status: 'overdue' };
    case 'agent.updated':
      return e.input.agent;
    case 'agent.updating':
      return { from_version: e.input.fromVersion, to_version: e.input.toVersion };
    case 'agent.update_failed':
      return { version: e.input.version, error: e.input.error };
    case 'script.queued':
      return { run_id: e.input.runId, script: e.input.script, expires_at: e.input.expiresAt };
    case 'script.started':
      return { run_id: e.input.runId, script: e.input.script };
    case 'script.output':
      return { run_id: e.input.runId, stream: e.input.stream, chunk: e.input.chunk, seq: e.input.seq };
    case 'script.finished':
      return { run_id: e.input.runId, retcode: e.input.retcode, execution_time: e.input.executionTime, timed_out: e.input.timedOut };
    case 'check.status':
      return { check_id: e.input.checkId, status: e.input.status, previous_status: e.input.previousStatus, more_info: e.input.moreInfo };
    case 'alert.created':
    case 'alert.acknowledged':
    case 'alert.resolved':
      return e.input.alert;
    case 'task.run':
      return { task_id: e.input.taskId, run_id: e.input.runId, status: e.input.status, retcode: e.input.retcode };
  }
}
