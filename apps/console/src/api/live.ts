export type LiveState = 'connecting' | 'open' | 'closed';

/** `M`: the socket's messages (events.ts: AgentEvent or FleetEvent). */
export interface LiveHandlers<M> {
  onEvent: (e: M) => void;
  /** Each time the socket opens; `again` after a reconnect (events were missed meanwhile: reload what is shown). */
  onOpen?: (again: boolean) => void;
  onState?: (state: LiveState) => void;
  /** The server closed for good (4401: the session ended; 4404: the agent was deleted): no reconnect. */
  onFinal?: (code: number, reason: string) => void;
}

/**
 * One of the events WebSockets (/rmm/fleet/, /rmm/{agent_id}/) on this origin, authenticated by the session
 * cookie the browser sends with the upgrade. Reconnects after any drop with back-off (1 s doubling to 30 s, with
 * jitter), except after the close codes that say not to. Returns the function that closes it for good.
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
    ws.onopen = () => {
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
      timer = setTimeout(connect, delay * (0.75 + Math.random() * 0.5));
      delay = Math.min(delay * 2, 30_000);
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
