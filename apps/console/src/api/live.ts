import { useSyncExternalStore } from 'react';
import { api, ApiError, ok } from './http';

/** `refused`: the server does not take this page's live updates (liveRefusal says why); no reconnect. */
export type LiveState = 'connecting' | 'open' | 'closed' | 'refused';

/**
 * Why the server refuses this page's live updates, in its words (the page's origin is not the console's: the setting
 * to change), once it said so; undefined otherwise. One for the page: every socket of it has the same origin.
 */
let refusal: string | undefined;
const refusalListeners = new Set<() => void>();

export function liveRefusal(): string | undefined {
  return refusal;
}

/** The refusal, re-rendering the caller when it is learnt (the layout shows it). */
export function useLiveRefusal(): string | undefined {
  return useSyncExternalStore((fn) => {
    refusalListeners.add(fn);
    return () => refusalListeners.delete(fn);
  }, liveRefusal);
}

type Verdict = { kind: 'allowed' | 'unknown' | 'signed-out' } | { kind: 'refused'; reason: string };
let asking: Promise<Verdict> | undefined;

/**
 * Why a socket could not open. A browser tells a page nothing of a refused upgrade (403 Origin not allowed, 401) but
 * that it failed, so the page asks the server whether its origin may open the events WebSockets
 * (GET /api/v3/auth/origin): one question at a time for every socket of the page.
 */
function askWhy(): Promise<Verdict> {
  asking ??= ok(api.GET('/api/v3/auth/origin', { params: { query: { origin: location.origin } } }))
    .then((v): Verdict => (v.allowed ? { kind: 'allowed' } : { kind: 'refused', reason: v.reason ?? 'this page is not one of the console\'s origins' }))
    .catch((err: unknown): Verdict => ({ kind: err instanceof ApiError && err.status === 401 ? 'signed-out' : 'unknown' }))
    .finally(() => (asking = undefined));
  return asking;
}

/** `M`: the socket's messages (events.ts: AgentEvent or FleetEvent). */
export interface LiveHandlers<M> {
  onEvent: (e: M) => void;
  /** Each time the socket opens; `again` after a reconnect (events were missed meanwhile: reload what is shown). */
  onOpen?: (again: boolean) => void;
  onState?: (state: LiveState) => void;
  /**
   * The server closed for good (4401: the session ended; 4404: the agent was deleted), or refused the upgrade because
   * the session has ended (4401 too): no reconnect.
   */
  onFinal?: (code: number, reason: string) => void;
}

/**
 * One of the events WebSockets (/rmm/fleet/, /rmm/{agent_id}/) on this origin, authenticated by the session
 * cookie the browser sends with the upgrade. Reconnects after any drop with back-off (1 s doubling to 30 s, with
 * jitter), except after the close codes that say not to, and except when a connection that never opened was refused
 * for good: this page's origin is not the console's (state `refused`, liveRefusal says which setting to change), or
 * the session has ended (onFinal 4401). Returns the function that closes it for good.
 */
export function openLive<M>(path: string, handlers: LiveHandlers<M>): () => void {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
  let socket: WebSocket | undefined;
  let stopped = false;
  let opened = false;
  let delay = 1_000;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = (): void => {
    handlers.onState?.('connecting');
    const ws = new WebSocket(url);
    socket = ws;
    let openedNow = false;
    ws.onopen = () => {
      openedNow = true;
      delay = 1_000;
      handlers.onState?.('open');
      handlers.onOpen?.(opened);
      opened = true;
    };
    ws.onmessage = (m) => {
      if (typeof m.data !== 'string') return;
      let e: M;
      try {
        e = JSON.parse(m.data) as M;
      } catch {
        return;
      }
      handlers.onEvent(e);
    };
    ws.onclose = (c) => {
      if (socket !== ws) return;
      socket = undefined;
      handlers.onState?.('closed');
      if (stopped) return;
      if (c.code === 4401 || c.code === 4404) {
        handlers.onFinal?.(c.code, c.reason);
        return;
      }
      const retry = (): void => {
        timer = setTimeout(connect, delay * (0.75 + Math.random() * 0.5));
        delay = Math.min(delay * 2, 30_000);
      };
      if (openedNow) return retry();
      void askWhy().then((v) => {
        if (stopped) return;
        if (v.kind === 'refused') {
          if (refusal !== v.reason) {
            refusal = v.reason;
            for (const fn of refusalListeners) fn();
          }
          handlers.onState?.('refused');
        } else if (v.kind === 'signed-out') handlers.onFinal?.(4401, 'session ended');
        else retry();
      });
    };
  };
  connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const ws = socket;
    socket = undefined;
    ws?.close(1000);
  };
}
