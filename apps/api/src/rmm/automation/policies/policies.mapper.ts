import type { PolicyExclusions } from '@app/entities';
import { iso } from '../../../common/values';
import { EffectiveCheckDto, EffectiveTaskDto, EffectiveSourceDto, PolicyCheckDto, PolicyDto, PolicyExclusionsOutDto, PolicyTaskDto } from './policies.dto';
import { PolicyCheckRow, PolicyRow, PolicyTaskRow } from './policies.repository';
import { CheckDef, EffectiveItem, ItemSource, TaskDef } from './policy-merge';

/** A check's settings as the API shows them: a script check's script id inside them, as per-agent checks show it. */
export const shownSettings = (c: Pick<CheckDef, 'checkType' | 'settings' | 'scriptId'>): Record<string, unknown> =>
  c.checkType === 'script' && c.scriptId !== null ? { ...c.settings, script: c.scriptId } : c.settings;

export const toPolicyCheckDto = (c: PolicyCheckRow): PolicyCheckDto => ({
  id: c.id,
  key: c.key,
  check_type: c.checkType,
  name: c.name,
  settings: shownSettings(c),
  run_interval: c.runInterval,
  fails_b4_alert: c.failsB4Alert,
  alert_severity: c.severity,
});

export const toPolicyTaskDto = (t: PolicyTaskRow): PolicyTaskDto => ({
  id: t.id,
  key: t.key,
  name: t.name,
  script: t.scriptId,
  args: t.args,
  schedule: t.schedule,
  timeout: t.timeout,
  queue_if_offline: t.queueIfOffline,
  skip_in_maintenance: t.skipInMaintenance,
});

/** Exclusions on the wire: agent ids as strings, as agent ids are everywhere. */
export const toExclusionsDto = (x: PolicyExclusions): PolicyExclusionsOutDto => {
  const { agents, ...rest } = x ?? {};
  return agents === undefined ? rest : { agents: agents.map(String), ...rest };
};

export const toPolicyDto = (p: PolicyRow, agents: number): PolicyDto => ({
  id: p.id,
  name: p.name,
  description: p.description,
  enabled: p.enabled,
  enforced: p.enforced,
  priority: p.priority,
  targets: p.targets ?? {},
  exclude: toExclusionsDto(p.exclude),
  checks: p.checks.map(toPolicyCheckDto),
  tasks: p.tasks.map(toPolicyTaskDto),
  maintenance_windows: p.maintenanceWindows ?? [],
  agents,
  created_at: iso(p.createdAt)!,
  updated_at: iso(p.updatedAt)!,
});

/** A source on the wire: the merge's internal ids (own row, policy item) are not part of it. */
export const toSourceDto = (s: ItemSource): EffectiveSourceDto =>
  s.type === 'agent' ? { type: 'agent' } : { type: 'policy', policy: { id: s.policy.id, name: s.policy.name }, enforced: s.enforced, reason: s.reason };

/** The agent's state row of an item: its own row, or the row the engine keeps of a policy item (null until then). */
const stateId = (s: ItemSource, state: Map<number, number>): number | null => (s.type === 'agent' ? s.id : (state.get(s.item_id) ?? null));

export const toEffectiveCheckDto = (i: EffectiveItem<CheckDef>, state: Map<number, number>, disabledOwn: Set<number>): EffectiveCheckDto => ({
  id: stateId(i.source, state),
  key: i.key,
  check_type: i.def.checkType,
  name: i.def.name,
  settings: shownSettings(i.def),
  run_interval: i.def.runInterval,
  fails_b4_alert: i.def.failsB4Alert,
  alert_severity: i.def.severity,
  source: toSourceDto(i.source),
  overridden: i.overridden,
  disabled: i.disabled || (i.source.type === 'agent' && disabledOwn.has(i.source.id)),
  shadowed_by: i.shadowed_by ? toSourceDto(i.shadowed_by) : null,
});

export const toEffectiveTaskDto = (i: EffectiveItem<TaskDef>, state: Map<number, number>, disabledOwn: Set<number>): EffectiveTaskDto => ({
  id: stateId(i.source, state),
  key: i.key,
  name: i.def.name,
  script: i.def.scriptId,
  args: i.def.args ?? [],
  schedule: i.def.schedule,
  timeout: i.def.timeout,
  queue_if_offline: i.def.queueIfOffline,
  skip_in_maintenance: i.def.skipInMaintenance,
  source: toSourceDto(i.source),
  overridden: i.overridden,
  disabled: i.disabled || (i.source.type === 'agent' && disabledOwn.has(i.source.id)),
  shadowed_by: i.shadowed_by ? toSourceDto(i.shadowed_by) : null,
});
