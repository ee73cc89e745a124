import { useQuery } from '@tanstack/react-query';
import { api, ok } from './http';

/** Clients with their sites: the filters and forms of several pages. */
export function useClients(enabled = true) {
  return useQuery({ queryKey: ['clients'], queryFn: () => ok(api.GET('/api/v3/clients')), staleTime: 30_000, enabled });
}

export function useScripts(enabled = true) {
  return useQuery({ queryKey: ['scripts'], queryFn: () => ok(api.GET('/api/v3/scripts')), staleTime: 30_000, enabled });
}

/** The custom field definitions of one scope (those the operator may read). */
export function useCustomFields(scope?: 'agent' | 'site' | 'client') {
  return useQuery({
    queryKey: ['custom-fields', scope ?? 'all'],
    queryFn: () => ok(api.GET('/api/v3/custom-fields', { params: { query: scope ? { scope } : {} } })),
    staleTime: 30_000,
  });
}
