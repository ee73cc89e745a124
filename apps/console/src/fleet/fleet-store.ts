import type { FleetEvent } from '../api/events';
import { api, ok } from '../api/http';
import { openLive, type LiveState } from '../api/live';
import type { Agent, Alert } from '../api/schemas';

type Listener = () => void;
/** The fleet's events about one agent (its `hello` is the socket's own). */
type AgentFleetEvent = Exclude<FleetEvent, { event: 'hello' }>;

/**
 * Every agent the operator may see, kept current by the fleet WebSocket (/rmm/fleet/): the Agents page reads it,
 * and so do the pages that name an agent by its hostname. The whole list is read in one request (the unpaged
 * GET /api/v3/agents/, which the server streams) with the open alerts (GET /api/v3/alerts/); events then change
 * single rows. As docs/events.md says, the list is read after the socket's `hello` (so no change falls between
 * the read and the subscription) and read again after each reconnect's `hello` (events are not replayed); a page
 * does not wait for a socket that cannot open: after its first failure, or 3 s without a `hello`, the list is
 * read anyway. Changes are announced at most once per 16 ms, so a burst of events costs one render.
 */
export class FleetStore {
  private agents = new Map<string, Agent>();
  /** Per agent, the ids of its alerts not resolved. */
  private openAlerts = new Map<string, Set<number>>();
  private listeners = new Set<Listener>();
  private eventListeners = new Set<(e: AgentFleetEvent) => void>();
  private version = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private loading: Promise<void> | undefined;
  /** Events heard while the list is being read, applied after it. */
  private queued: AgentFleetEvent[] | null = null;
  private fetching = new Set<string>();
  private stopSocket: (() => void) | undefined;
  private cachedList: { version: number; rows: Agent[] } | undefined;
  /** A page asked for the list. */
  private wanted = false;
  private helloSeen = false;
  private socketFailed = false;
  private fallback: ReturnType<typeof setTimeout> | undefined;

  loaded = false;
  error: string | undefined;
  liveState: LiveState = 'closed';

  /** `onSessionEnded`: the server closed the socket because the session ended (4401): sign in again. */
  constructor(private readonly onSessionEnded: () => void = () => undefined) {}

  /** Opens the fleet WebSocket (once). */
  start(): void {
    if (this.stopSocket) return;
    this.stopSocket = openLive<FleetEvent>('/rmm/fleet/', {
      onEvent: (e) => {
        if (e.event === 'hello') {
          // Subscribed: read the list now (first time), or again (events were missed while the socket was down).
          const again = this.helloSeen;
          this.helloSeen = true;
          if (this.wanted) void this.fetchList(again);
          return;
        }
        this.hear(e);
      },
      onFinal: (code) => {
        if (code === 4401) this.onSessionEnded();
      },
      onState: (s) => {
        this.liveState = s;
        if (s === 'closed' && !this.helloSeen && !this.socketFailed) {
          this.socketFailed = true;
          if (this.wanted) void this.fetchList(false);
        }
        this.changed();
      },
    });
  }

  stop(): void {
    this.stopSocket?.();
    this.stopSocket = undefined;
    if (this.fallback) clearTimeout(this.fallback);
    this.fallback = undefined;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  /** A page needs the list: read it once the socket is subscribed (or without it, see above). */
  load(): void {
    if (this.wanted) return;
    this.wanted = true;
    if (this.helloSeen || this.socketFailed) void this.fetchList(false);
    else this.fallback = setTimeout(() => void this.fetchList(false), 3_000);
  }

  /** Reads the whole list (again with `force`). */
  private fetchList(force: boolean): Promise<void> {
    if (this.fallback) clearTimeout(this.fallback);
    this.fallback = undefined;
    if (this.loading) return force ? this.loading.then(() => this.fetchList(true)) : this.loading;
    if (this.loaded && !force) return Promise.resolve();
    this.queued = [];
    this.loading = Promise.all([ok(api.GET('/api/v3/agents')), ok(api.GET('/api/v3/alerts'))])
      .then(([agents, alerts]) => {
        this.agents = new Map(agents.map((a) => [a.agent_id, a]));
        this.openAlerts = new Map();
        for (const alert of alerts) if (!alert.resolved) this.addAlert(alert);
        this.loaded = true;
        this.error = undefined;
        const queued = this.queued ?? [];
        this.queued = null;
        for (const e of queued) this.apply(e);
      })
      .catch((err: unknown) => {
        this.queued = null;
        this.error = err instanceof Error ? err.message : String(err);
      })
      .finally(() => {
        this.loading = undefined;
        this.changed();
      });
    return this.loading;
  }

  subscribe = (fn: Listener): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getVersion = (): number => this.version;

  /** Every event of the fleet socket, for pages that react to them (alerts). */
  onEvent(fn: (e: AgentFleetEvent) => void): () => void {
    this.eventListeners.add(fn);
    return () => this.eventListeners.delete(fn);
  }

  list(): Agent[] {
    if (this.cachedList?.version !== this.version) this.cachedList = { version: this.version, rows: [...this.agents.values()] };
    return this.cachedList.rows;
  }

  get(id: string): Agent | undefined {
    return this.agents.get(id);
  }

  openAlertCount(id: string): number {
    return this.openAlerts.get(id)?.size ?? 0;
  }

  private hear(e: AgentFleetEvent): void {
    for (const fn of this.eventListeners) fn(e);
    if (this.queued) this.queued.push(e);
    else if (this.loaded) this.apply(e);
  }

  private apply(e: AgentFleetEvent): void {
    const id = e.agent_id;
    switch (e.event) {
      case 'agent.online':
      case 'agent.offline':
      case 'agent.overdue': {
        const a = this.agents.get(id);
        if (!a) {
          this.fetchAgent(id);
          return;
        }
        const online = e.data.status === 'online';
        this.agents.set(id, { ...a, status: e.data.status, last_seen: online ? e.ts : a.last_seen, never_connected: a.never_connected && !online });
        this.changed();
        break;
      }
      case 'agent.updated':
        this.agents.set(id, { ...this.agents.get(id), ...e.data, agent_id: id });
        this.changed();
        break;
      case 'alert.created':
      case 'alert.acknowledged':
      case 'alert.resolved':
        if (e.data.resolved) this.openAlerts.get(e.data.agent)?.delete(e.data.id);
        else this.addAlert(e.data);
        this.changed();
        break;
      case 'agent.updating':
      case 'agent.update_failed':
        break;
    }
  }

  private addAlert(alert: Alert): void {
    const key = alert.agent;
    let set = this.openAlerts.get(key);
    if (!set) this.openAlerts.set(key, (set = new Set()));
    set.add(alert.id);
  }

  /** An agent the list does not have yet (enrolled after it was read). */
  private fetchAgent(id: string): void {
    if (this.fetching.has(id) || !/^\d+$/.test(id)) return;
    this.fetching.add(id);
    ok(api.GET('/api/v3/agents/{agentId}', { params: { path: { agentId: Number(id) } } }))
      .then((a) => {
        this.agents.set(id, a);
        this.changed();
      })
      .catch(() => undefined)
      .finally(() => this.fetching.delete(id));
  }

  private changed(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.version++;
      for (const fn of this.listeners) fn();
    }, 16);
  }
}
