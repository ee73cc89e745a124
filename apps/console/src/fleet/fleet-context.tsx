import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ME_KEY } from '../api/session';
import { FleetStore } from './fleet-store';

const FleetContext = createContext<FleetStore | null>(null);

/** One fleet store per signed-in operator: its socket opens at sign-in and closes at sign-out. */
export function FleetProvider({ operatorId, children }: { operatorId: number; children: ReactNode }) {
  const qc = useQueryClient();
  // A session ended on the server (sign-out elsewhere, disabled, new password): ask who is signed in, which shows
  // the sign-in page.
  const store = useMemo(() => new FleetStore(() => void qc.invalidateQueries({ queryKey: ME_KEY })), [operatorId, qc]);
  useEffect(() => {
    store.start();
    return () => store.stop();
  }, [store]);
  return <FleetContext.Provider value={store}>{children}</FleetContext.Provider>;
}

/** The fleet store, re-rendering the caller when it changes; `load` reads the list if not read yet. */
export function useFleet(load = true): FleetStore {
  const store = useContext(FleetContext);
  if (!store) throw new Error('useFleet outside FleetProvider');
  useSyncExternalStore(store.subscribe, store.getVersion);
  useEffect(() => {
    if (load) store.load();
  }, [store, load]);
  return store;
}
