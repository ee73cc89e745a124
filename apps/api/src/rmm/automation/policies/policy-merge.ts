import { CronExpressionParser } from 'cron-parser';
import type { AlertSeverity, CheckType, MaintenanceWindow, PolicyExclusions, PolicyTargets } from '@app/entities';

/**
 * The policy model's pure core (issue #31, docs/policies.md): which policies match an agent and why, the merge of
 * an agent's own items with its policies' items by key, overrides, and the maintenance windows. No I/O: the
 * effective-policy answer, the preview and the engine that writes each agent's state rows all call these.
 */

/** What matching needs to know of an agent. */
export interface AgentFacts {
  id: number;
  clientId: number | null;
  siteId: number | null;
  tags: string[];
  plat: string;
  monitoringType: string;
}

/** Names for the reasons ("client Acme", "site HQ"); an id without a name is shown as `#id`. */
export interface Names {
  clients: Map<number, string>;
  sites: Map<number, string>;
}

export interface CheckDef {
  checkType: CheckType;
  name: string;
  settings: Record<string, unknown>;
  scriptId: number | null;
  runInterval: number;
  failsB4Alert: number;
  severity: AlertSeverity;
}

export interface TaskDef {
  name: string;
  scriptId: number;
  args: string[];
  schedule: string;
  timeout: number | null;
  queueIfOffline: boolean;
  skipInMaintenance: boolean;
}

/** A policy with its items, as the merge sees it (items in their policy's order). */
export interface PolicyFacts {
  id: number;
  name: string;
  enabled: boolean;
  enforced: boolean;
  priority: number;
  targets: PolicyTargets;
  exclude: PolicyExclusions;
  maintenanceWindows: MaintenanceWindow[];
  checks: Array<CheckDef & { id: number; key: string }>;
  tasks: Array<TaskDef & { id: number; key: string }>;
}

/** One agent's override of one inherited item. */
export interface OverrideFacts {
  policyId: number;
  key: string;
  disabled: boolean;
  settings: Record<string, unknown> | null;
  runInterval: number | null;
  failsB4Alert: number | null;
}

export type ItemSource =
  | { type: 'agent'; id: number }
  | { type: 'policy'; policy: { id: number; name: string }; enforced: boolean; reason: string; item_id: number };

export interface EffectiveItem<D> {
  key: string;
  source: ItemSource;
  /** The item as it applies on this agent (an override's adjustments applied). */
  def: D;
  overridden: boolean;
  disabled: boolean;
  /** For an item that lost the merge: the source of the item that won its key; null for winners. */
  shadowed_by: ItemSource | null;
}

export interface Effective {
  checks: Array<EffectiveItem<CheckDef>>;
  tasks: Array<EffectiveItem<TaskDef>>;
}

const lower = (s: string): string => s.toLowerCase();

/** The merge key of a check (docs/policies.md): one item per key applies to an agent. */
export function checkKey(type: CheckType, settings: Record<string, unknown>): string {
  const s = settings ?? {};
  switch (type) {
    case 'diskspace': {
      const drive = String(s.drive ?? '');
      return `diskspace:${/^[A-Za-z]:$/.test(drive) ? drive.toUpperCase() : drive}`;
    }
    case 'ping':
      return `ping:${lower(String(s.target ?? ''))}`;
    case 'cpuload':
    case 'memory':
      return type;
    case 'winsvc':
      return `winsvc:${lower(String(s.service_name ?? ''))}`;
    case 'eventlog':
      return `eventlog:${String(s.log_name ?? '')}:${JSON.stringify([s.event_id ?? null, s.event_type ?? null, s.search_text ?? null])}`;
    case 'script':
      return `script:${String(s.script ?? '')}:${JSON.stringify(s.args ?? [])}`;
  }
}

/** The merge key of a task: its script, arguments and schedule (whitespace of the schedule normalized). */
export function taskKey(scriptId: number, args: string[], schedule: string): string {
  return `task:${scriptId}:${JSON.stringify(args ?? [])}:${schedule.trim().split(/\s+/).join(' ')}`;
}

const has = <T>(list: T[] | undefined): list is T[] => Array.isArray(list) && list.length > 0;
const name = (names: Names | undefined, kind: 'clients' | 'sites', id: number): string => names?.[kind].get(id) ?? `#${id}`;

/**
 * Why `policy` applies to `agent` ("tag finance", "client Acme and platform windows", "all agents"), or null when
 * it does not: every target kind given must match (any of its values; tags_all: all of them), and any exclusion wins.
 * A disabled policy matches nothing.
 */
export function matchReason(policy: Pick<PolicyFacts, 'enabled' | 'targets' | 'exclude'>, agent: AgentFacts, names?: Names): string | null {
  if (!policy.enabled) return null;
  const x = policy.exclude ?? {};
  if (has(x.agents) && x.agents.includes(agent.id)) return null;
  if (has(x.clients) && agent.clientId !== null && x.clients.includes(agent.clientId)) return null;
  if (has(x.sites) && agent.siteId !== null && x.sites.includes(agent.siteId)) return null;
  if (has(x.tags) && x.tags.some((t) => agent.tags.includes(t))) return null;

  const t = policy.targets ?? {};
  const reasons: string[] = [];
  if (has(t.clients)) {
    if (agent.clientId === null || !t.clients.includes(agent.clientId)) return null;
    reasons.push(`client ${name(names, 'clients', agent.clientId)}`);
  }
  if (has(t.sites)) {
    if (agent.siteId === null || !t.sites.includes(agent.siteId)) return null;
    reasons.push(`site ${name(names, 'sites', agent.siteId)}`);
  }
  if (has(t.tags_any)) {
    const hit = t.tags_any.find((tag) => agent.tags.includes(tag));
    if (hit === undefined) return null;
    reasons.push(`tag ${hit}`);
  }
  if (has(t.tags_all)) {
    if (!t.tags_all.every((tag) => agent.tags.includes(tag))) return null;
    reasons.push(`tags ${t.tags_all.join(', ')}`);
  }
  if (has(t.platforms)) {
    if (!t.platforms.includes(agent.plat)) return null;
    reasons.push(`platform ${agent.plat}`);
  }
  if (has(t.monitoring_types)) {
    if (!t.monitoring_types.includes(agent.monitoringType)) return null;
    reasons.push(`monitoring type ${agent.monitoringType}`);
  }
  return reasons.length === 0 ? 'all agents' : reasons.join(' and ');
}

/**
 * Whether `policy` applies to `agent`: matchReason's rule without building the reason, for counting the matches of
 * many agents (the policies list, the preview). Always `matchReason(policy, agent) !== null`.
 */
export function matches(policy: Pick<PolicyFacts, 'enabled' | 'targets' | 'exclude'>, agent: AgentFacts): boolean {
  if (!policy.enabled) return false;
  const x = policy.exclude ?? {};
  if (has(x.agents) && x.agents.includes(agent.id)) return false;
  if (has(x.clients) && agent.clientId !== null && x.clients.includes(agent.clientId)) return false;
  if (has(x.sites) && agent.siteId !== null && x.sites.includes(agent.siteId)) return false;
  if (has(x.tags) && x.tags.some((t) => agent.tags.includes(t))) return false;
  const t = policy.targets ?? {};
  if (has(t.clients) && (agent.clientId === null || !t.clients.includes(agent.clientId))) return false;
  if (has(t.sites) && (agent.siteId === null || !t.sites.includes(agent.siteId))) return false;
  if (has(t.tags_any) && !t.tags_any.some((tag) => agent.tags.includes(tag))) return false;
  if (has(t.tags_all) && !t.tags_all.every((tag) => agent.tags.includes(tag))) return false;
  if (has(t.platforms) && !t.platforms.includes(agent.plat)) return false;
  if (has(t.monitoring_types) && !t.monitoring_types.includes(agent.monitoringType)) return false;
  return true;
}

/** Policies in the order the merge applies them: enforced first, each group by (priority, id). */
export function mergeOrder<P extends Pick<PolicyFacts, 'enforced' | 'priority' | 'id'>>(policies: P[]): { enforced: P[]; others: P[] } {
  const byPriority = (a: P, b: P): number => a.priority - b.priority || a.id - b.id;
  return { enforced: policies.filter((p) => p.enforced).sort(byPriority), others: policies.filter((p) => !p.enforced).sort(byPriority) };
}

/** One of the agent's own items, with its key. */
export type Own<D> = D & { id: number; key: string };

/**
 * The agent's effective checks and tasks: enforced policies by (priority, id), then the agent's own items, then the
 * other policies by (priority, id); the first item with a given key wins, later ones are returned with
 * `shadowed_by`. Overrides apply to items of non-enforced policies only: `disabled` keeps the key taken (the
 * exemption holds against lower policies too) but the item does not run; adjustments replace settings, interval or
 * failures before alert.
 */
export function merge(
  agent: AgentFacts,
  policies: PolicyFacts[],
  own: { checks: Array<Own<CheckDef>>; tasks: Array<Own<TaskDef>> },
  overrides: OverrideFacts[] = [],
  names?: Names,
): Effective {
  const matched: Array<{ policy: PolicyFacts; reason: string }> = [];
  for (const policy of policies) {
    const reason = matchReason(policy, agent, names);
    if (reason !== null) matched.push({ policy, reason });
  }
  const reasonOf = new Map(matched.map((m) => [m.policy.id, m.reason]));
  const { enforced, others } = mergeOrder(matched.map((m) => m.policy));
  const overrideOf = new Map(overrides.map((o) => [`${o.policyId}\u0000${o.key}`, o]));

  const checks: Array<EffectiveItem<CheckDef>> = [];
  const tasks: Array<EffectiveItem<TaskDef>> = [];
  const checkWinner = new Map<string, ItemSource>();
  const taskWinner = new Map<string, ItemSource>();

  const addPolicy = (policy: PolicyFacts): void => {
    const sourceOf = (itemId: number): ItemSource => ({
      type: 'policy',
      policy: { id: policy.id, name: policy.name },
      enforced: policy.enforced,
      reason: reasonOf.get(policy.id)!,
      item_id: itemId,
    });
    for (const { id, key, ...def } of policy.checks) {
      const o = policy.enforced ? undefined : overrideOf.get(`${policy.id}\u0000${key}`);
      const adjusted: CheckDef = {
        ...def,
        settings: o?.settings ?? def.settings,
        runInterval: o?.runInterval ?? def.runInterval,
        failsB4Alert: o?.failsB4Alert ?? def.failsB4Alert,
      };
      push(checks, checkWinner, key, sourceOf(id), adjusted, o);
    }
    for (const { id, key, ...def } of policy.tasks) {
      const o = policy.enforced ? undefined : overrideOf.get(`${policy.id}\u0000${key}`);
      push(tasks, taskWinner, key, sourceOf(id), def, o);
    }
  };
  enforced.forEach(addPolicy);
  for (const { id, key, ...def } of own.checks) push(checks, checkWinner, key, { type: 'agent', id }, def as CheckDef, undefined);
  for (const { id, key, ...def } of own.tasks) push(tasks, taskWinner, key, { type: 'agent', id }, def as TaskDef, undefined);
  others.forEach(addPolicy);
  return { checks, tasks };
}

function push<D>(list: Array<EffectiveItem<D>>, winners: Map<string, ItemSource>, key: string, source: ItemSource, def: D, o: OverrideFacts | undefined): void {
  const winner = winners.get(key);
  if (!winner) winners.set(key, source);
  list.push({
    key,
    source,
    def,
    overridden: o !== undefined && (o.settings !== null || o.runInterval !== null || o.failsB4Alert !== null),
    disabled: o?.disabled ?? false,
    shadowed_by: winner ?? null,
  });
}

/** Whether an effective item runs on the agent: it won its key and is not disabled by an override. */
export const runs = <D>(item: EffectiveItem<D>): boolean => item.shadowed_by === null && !item.disabled;

export interface MaintenanceState {
  active: boolean;
  /** When the window in force ends (the latest end among the windows in force); null when none is. */
  until: Date | null;
  /** The policy whose window ends last. */
  source: { id: number; name: string } | null;
}

/**
 * The window of `schedule` (5-field cron in `timezone`) in force at `now`, as its end, or null. A window starts at
 * each time the schedule names and lasts `duration_minutes`; the latest start at or before `now` decides.
 */
export function windowEnd(window: MaintenanceWindow, now: Date): Date | null {
  try {
    // (prev() is strictly before currentDate: a start exactly at now counts, hence the millisecond)
    const start = CronExpressionParser.parse(window.schedule, { currentDate: new Date(now.getTime() + 1), tz: window.timezone }).prev().toDate();
    const end = new Date(start.getTime() + window.duration_minutes * 60_000);
    return end.getTime() > now.getTime() ? end : null;
  } catch {
    return null;
  }
}

/** The maintenance the matching policies' windows put `agent` in at `now`. */
export function windowMaintenance(agent: AgentFacts, policies: PolicyFacts[], now: Date, names?: Names): MaintenanceState {
  let best: MaintenanceState = { active: false, until: null, source: null };
  for (const policy of policies) {
    if (!has(policy.maintenanceWindows) || matchReason(policy, agent, names) === null) continue;
    for (const w of policy.maintenanceWindows) {
      const end = windowEnd(w, now);
      if (end && (!best.until || end.getTime() > best.until.getTime())) best = { active: true, until: end, source: { id: policy.id, name: policy.name } };
    }
  }
  return best;
}
