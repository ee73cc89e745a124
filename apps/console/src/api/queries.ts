import { useQuery } from '@tanstack/react-query';
import { get } from './http';
import type { Client, ScriptSummary } from './types';

/** Clients with their sites: the filters and forms of several pages. */
export function useClients(enabled = true) {
  return useQuery({ queryKey: ['clients'], queryFn: () => get<Client[]>('/clients/'), staleTime: 30_000, enabled });
}

export function useScripts(enabled = true) {
  return useQuery({ queryKey: ['scripts'], queryFn: () => get<ScriptSummary[]>('/scripts/'), staleTime: 30_000, enabled });
}
