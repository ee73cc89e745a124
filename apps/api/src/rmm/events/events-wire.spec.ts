import type { AgentDetailDto } from '../fleet/agents/agents.dto';
import type { AlertDto } from '../common/resources/alert.dto';
import { fleetHello, FLEET_EVENTS, isFleetEvent, RELAYED_EVENTS, toWire, WIRE_EVENTS } from './events-wire';

const NOW = new Date('2026-11-23T12:00:01.000Z');
const wire = (data: unknown, event: string) => ({ event, agent_id: '42', ts: '2026-11-23T12:00:01.000Z', data });

const alert: AlertDto = {
  id: 9,
  alert_type: 'check_failure',
  agent: '42',
  severity: 'error',
  message: 'Disk C: 3% free',
  created_at: '2026-11-23T11:00:00.000Z',
  snoozed: false,
  resolved: false,
  acknowledged: false,
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
  check: 5,
  task: null,
  flapping: false,
};
const agent = { agent_id: '42', hostname: 'ws-01', status: 'online' } as unknown as AgentDetailDto;

describe('events wire mapper (bus camelCase → wire snake_case)', () => {
  it('wraps every event as {event, agent_id (string), ts (ISO), data}', () => {
    expect(toWire('agent.online', { agentId: 42 }, NOW)).toEqual(wire({ status: 'online' }, 'agent.online'));
    expect(toWire('agent.offline', { agentId: 42 }, NOW)).toEqual(wire({ status: 'offline' }, 'agent.offline'));
    expect(toWire('agent.overdue', { agentId: 42 }, NOW)).toEqual(wire({ status: 'overdue' }, 'agent.overdue'));
  });

  it('maps each payload field by field', () => {
    expect(toWire('script.queued', { agentId: 42, runId: 17, script: 3, expiresAt: '2026-11-24T12:00:00.000Z' }, NOW)).toEqual(
      wire({ run_id: 17, script: 3, expires_at: '2026-11-24T12:00:00.000Z' }, 'script.queued'),
    );
    expect(toWire('script.started', { agentId: 42, runId: 17, script: 3 }, NOW)).toEqual(wire({ run_id: 17, script: 3 }, 'script.started'));
    expect(toWire('script.output', { agentId: 42, runId: 17, stream: 'stderr', chunk: 'hi\n', seq: 4 }, NOW)).toEqual(
      wire({ run_id: 17, stream: 'stderr', chunk: 'hi\n', seq: 4 }, 'script.output'),
    );
    expect(toWire('script.finished', { agentId: 42, runId: 17, retcode: null, executionTime: 1.25, timedOut: true }, NOW)).toEqual(
      wire({ run_id: 17, retcode: null, execution_time: 1.25, timed_out: true }, 'script.finished'),
    );
    expect(toWire('check.status', { agentId: 42, checkId: 5, status: 'failing', previousStatus: 'passing', moreInfo: '3% free' }, NOW)).toEqual(
      wire({ check_id: 5, status: 'failing', previous_status: 'passing', more_info: '3% free' }, 'check.status'),
    );
    expect(toWire('task.run', { agentId: 42, taskId: 4, runId: 12, status: 'failed', retcode: 2 }, NOW)).toEqual(
      wire({ task_id: 4, run_id: 12, status: 'failed', retcode: 2 }, 'task.run'),
    );
  });

  it('carries alerts and the agent as the REST API shows them, unchanged', () => {
    for (const event of ['alert.created', 'alert.acknowledged', 'alert.resolved'] as const) {
      expect(toWire(event, { agentId: 42, alert }, NOW)).toEqual(wire(alert, event));
    }
    expect(toWire('agent.updated', { agentId: 42, agent }, NOW)).toEqual(wire(agent, 'agent.updated'));
    expect(toWire('hello', { agentId: 42, hello: { ...agent, alerts: [alert] } }, NOW)).toEqual(wire({ ...agent, alerts: [alert] }, 'hello'));
  });

  it('knows hello and every relayed event, each once', () => {
    expect(WIRE_EVENTS).toEqual(['hello', ...RELAYED_EVENTS]);
    expect(new Set(WIRE_EVENTS).size).toBe(WIRE_EVENTS.length);
    expect(RELAYED_EVENTS).toHaveLength(15);
  });

  it("relays to the fleet presence, the agent's record and alerts, not the per-run traffic", () => {
    expect(RELAYED_EVENTS.filter(isFleetEvent)).toEqual([...FLEET_EVENTS]);
    expect(RELAYED_EVENTS.filter((e) => !isFleetEvent(e))).toEqual(['script.queued', 'script.started', 'script.output', 'script.finished', 'check.status', 'task.run']);
  });

  it("writes the fleet's hello in the same envelope, with no agent", () => {
    expect(fleetHello({ agents: 20_000, clients: [1, 3] }, NOW)).toEqual({ event: 'hello', agent_id: null, ts: '2026-11-23T12:00:01.000Z', data: { agents: 20_000, clients: [1, 3] } });
    expect(fleetHello({ agents: 0, clients: null }, NOW).data).toEqual({ agents: 0, clients: null });
  });
});
