import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AgentEvent } from './events';
import { openLive, type LiveState } from './live';
import type { AgentDetail } from './schemas';

export type AgentEventListener = (e: AgentEvent) => void;

export interface AgentLive {
  state: LiveState;
  /** Listens to this agent's events (script output); returns the function that stops listening. */
  listen(fn: AgentEventListener): () => void;
}

/**
 * The agent page's WebSocket /rmm/{agent_id}/: `hello` and agent.* refresh the facts shown, check, alert, task and
 * script events refresh their sections; the Run script panel listens for its run's output through `listen`.
 */
export function useAgentLive(agentId: string): AgentLive {
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  const listeners = useRef(new Set<AgentEventListener>());
  const api = useRef<AgentLive>({
    state: 'connecting',
    listen: (fn) => {
      listeners.current.add(fn);
      return () => listeners.current.delete(fn);
    },
  });

  useEffect(() => {
    const refresh = (...keys: string[]) => {
      for (const k of keys) void qc.invalidateQueries({ queryKey: [k, agentId] });
    };
    const stop = openLive<AgentEvent>(`/rmm/${encodeURIComponent(agentId)}/`, {
      onEvent: (e) => {
        for (const fn of listeners.current) fn(e);
        switch (e.event) {
          case 'hello': {
            const { alerts: _alerts, ...agent } = e.data;
            qc.setQueryData<AgentDetail>(['agent', agentId], (old) => ({ ...old, ...agent }));
            refresh('agent-alerts');
            break;
          }
          case 'agent.online':
          case 'agent.offline':
          case 'agent.overdue':
            qc.setQueryData<AgentDetail>(['agent', agentId], (old) =>
              old ? { ...old, status: e.data.status, last_seen: e.data.status === 'online' ? e.ts : old.last_seen } : old,
            );
            break;
          case 'agent.updated':
            qc.setQueryData<AgentDetail>(['agent', agentId], (old) => ({ ...old, ...e.data }));
            break;
          case 'check.status':
            refresh('agent-checks', 'check-history');
            break;
          case 'alert.created':
          case 'alert.acknowledged':
          case 'alert.resolved':
            refresh('agent-alerts');
            break;
          case 'task.run':
            refresh('agent-tasks', 'task-runs');
            break;
          case 'script.queued':
          case 'script.started':
          case 'script.finished':
            refresh('agent-runs');
            break;
          default:
            break;
        }
      },
      onOpen: (again) => {
        if (again) refresh('agent', 'agent-checks', 'agent-alerts', 'agent-tasks', 'agent-runs');
      },
      onState: (s) => {
        api.current.state = s;
        setState(s);
      },
    });
    return stop;
  }, [agentId, qc]);

  return { ...api.current, state };
}
