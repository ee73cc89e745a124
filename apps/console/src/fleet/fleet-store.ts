import { get } from '../api/http';
import { openLive, type LiveState } from '../api/live';
import type { Agent, AgentStatus, Alert, LiveEvent } from '../api/types';

type Listener = () => void;

const STATUSES: ReadonlySet<string> = new Set<AgentStatus>(['online', 'offline', 'overdue']);

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
  private eventListeners = new Set<(e: LiveEvent) => void>();
  private version = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private loading: Promise<void> | undefined;
  /** Events heard while the list is being read, applied after it. */
  private queued: LiveEvent[] | null = null;
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
    this.stopSocket = openLive('/rmm/fleet/', {
      onEvent: (e) => {
        if (e.event === 'hello' && e.agent_id === null) {
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
    this.loading = Promise.all([get<Agent[]>('/agents/'), get<Alert[]>('/alerts/')])
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
  onEvent(fn: (e: LiveEvent) => void): () => void {
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

  private hear(e: LiveEvent): void {
    for (const fn of this.eventListeners) fn(e);
    if (this.queued) this.queued.push(e);
    else if (this.loaded) this.apply(e);
  }

  private apply(e: LiveEvent): void {
    const id = String(e.agent_id);
    if (e.event === 'agent.online' || e.event === 'agent.offline' || e.event === 'agent.overdue') {
      const status = (e.data as { status?: string } | undefined)?.status ?? e.event.slice('agent.'.length);
      if (!STATUSES.has(status)) return;
      const a = this.agents.get(id);
      if (!a) {
        this.fetchAgent(id);
        return;
      }
      this.agents.set(id, { ...a, status: status as AgentStatus, last_seen: status === 'online' ? e.ts : a.last_seen });
      this.changed();
    } else if (e.event === 'agent.updated' || e.event === 'hello') {
      const data = e.data as Agent | undefined;
      if (data && typeof data.hostname === 'string') {
        this.agents.set(id, { ...(this.agents.get(id) ?? {}), ...data, agent_id: id });
        this.changed();
      }
    } else if (e.event === 'agent.deleted') {
      this.agents.delete(id);
      this.openAlerts.delete(id);
      this.changed();
    } else if (e.event.startsWith('alert.')) {
      const alert = e.data as Alert | undefined;
      if (!alert || typeof alert.id !== 'number') return;
      if (alert.resolved) this.openAlerts.get(String(alert.agent))?.delete(alert.id);
      else this.addAlert(alert);
      this.changed();
    }
  }

  private addAlert(alert: Alert): void {
    const key = String(alert.agent);
    let set = this.openAlerts.get(key);
    if (!set) this.openAlerts.set(key, (set = new Set()));
    set.add(alert.id);
  }

  /** An agent the list does not have yet (enrolled after it was read). */
  private fetchAgent(id: string): void {
    if (this.fetching.has(id) || !/^\d+$/.test(id)) return;
    this.fetching.add(id);
    get<Agent>(`/agents/${id}/`)
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
