/**
 * The messages of the events WebSockets (docs/events.md, docs/asyncapi.yaml), which the OpenAPI document does not
 * describe: written here by hand. Payloads that are REST objects (the agent, an alert) are the generated schemas.
 */
import type { AgentDetail, Alert, Check, TaskRun } from './schemas';

/** What each event of /rmm/{agent_id}/ carries. */
export interface AgentEventData {
  /** Always first: the agent as GET /api/v3/agents/{id}/ shows it, and its open alerts. */
  hello: AgentDetail & { alerts: Alert[] };
  'agent.online': { status: 'online' };
  'agent.offline': { status: 'offline' };
  'agent.overdue': { status: 'overdue' };
  /** The agent as GET /api/v3/agents/{id}/ shows it now. */
  'agent.updated': AgentDetail;
  'agent.updating': { from_version: string; to_version: string };
  'agent.update_failed': { version: string; error: string };
  'script.queued': { run_id: number; script: number; expires_at: string };
  'script.started': { run_id: number; script: number };
  'script.output': { run_id: number; stream: 'stdout' | 'stderr'; chunk: string; seq: number };
  /** `execution_time` in seconds, a number here (REST writes a string). */
  'script.finished': { run_id: number; retcode: number | null; execution_time: number; timed_out: boolean };
  'check.status': { check_id: number; status: Check['status']; previous_status: Check['status']; more_info: string | null };
  /** The alert as the REST API answers it. */
  'alert.created': Alert;
  'alert.acknowledged': Alert;
  'alert.resolved': Alert;
  'task.run': { task_id: number; run_id: number; status: TaskRun['status']; retcode: number | null };
}

/** One message: `{event, agent_id, ts, data}`, `ts` when the server sent it. */
type Message<Data, K extends keyof Data> = { [E in K]: { event: E; agent_id: string; ts: string; data: Data[E] } }[K];

/** A message of one agent's WebSocket /rmm/{agent_id}/. */
export type AgentEvent = Message<AgentEventData, keyof AgentEventData>;

/** The events /rmm/fleet/ relays for every agent the caller may see: presence, the agent's record, alerts. */
type FleetEventName = 'agent.online' | 'agent.offline' | 'agent.overdue' | 'agent.updated' | 'agent.updating' | 'agent.update_failed' | 'alert.created' | 'alert.acknowledged' | 'alert.resolved';

/** A message of /rmm/fleet/: its own `hello` first (how many agents the caller may see; never the agents), then the agents' events. */
export type FleetEvent =
  | { event: 'hello'; agent_id: null; ts: string; data: { agents: number; clients: number[] | null } }
  | Message<AgentEventData, FleetEventName>;

/** A script run's events (the Run script panel follows its run through them). */
export type ScriptEvent = Extract<AgentEvent, { event: `script.${string}` }>;
