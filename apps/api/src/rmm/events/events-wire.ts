import type { AgentDetailDto } from '../agents/agents.dto';
import type { AlertDto } from '../alerts/alerts.dto';
import type { RmmEventMap } from './rmm-events';

/**
 * The events WebSocket's wire format (docs/events.md, docs/asyncapi.yaml): every message is
 * `{event, agent_id, ts, data}`; the bus's camelCase becomes snake_case here and nowhere else.
 */
export interface WireMessage {
  event: WireEventName;
  /** The agent's id as the REST API writes it (a string). */
  agent_id: string;
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
