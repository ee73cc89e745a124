import { CronExpressionParser } from 'cron-parser';
import type { MaintenanceWindow, PolicyExclusions, PolicyTargets } from '@app/entities';
import { DomainError, FieldError } from '../../../common/errors/domain-error';
import { parseId } from '../../../common/values';
import { defaultCheckName, settingsErrors } from '../checks/check-settings';
import { RUN_INTERVAL_DEFAULT } from '../checks/checks.dto';
import { nextRun } from '../tasks/schedule';
import { MaintenanceWindowDto, PolicyCheckInputDto, PolicyExclusionsDto, PolicyTargetsDto, PolicyTaskInputDto } from './policies.dto';
import { NewCheckItem, NewTaskItem } from './policies.repository';
import { checkKey, taskKey } from './policy-merge';

/**
 * The pure half of validating a policy body: rules that need no database (tags, windows, item settings, schedules,
 * duplicate keys). Each returns field errors named as the body names them (`checks[1].settings.drive`); the service
 * adds those that need the database (clients, sites, agents, scripts) and throws them together.
 */

/** A tag, as agents carry them: 1–64 letters, digits, spaces and `_ . : -`, lowercase. */
export const TAG_PATTERN = /^[\p{L}\p{N} _.:-]{1,64}$/u;
export const normalizeTag = (tag: string): string => tag.trim().toLowerCase();

const uniq = <T>(list: T[]): T[] => [...new Set(list)];

function tags(list: string[] | undefined, field: string, errors: FieldError[]): string[] | undefined {
  if (list === undefined) return undefined;
  const out: string[] = [];
  list.forEach((raw, i) => {
    const tag = normalizeTag(raw);
    if (!TAG_PATTERN.test(tag)) errors.push({ field: `${field}[${i}]`, message: 'must be 1 to 64 letters, digits, spaces or _ . : -' });
    else out.push(tag);
  });
  return uniq(out);
}

/** Drops empty kinds, so `{}` and `{clients: []}` read the same ("every agent"). */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => Array.isArray(v) && v.length > 0)) as T;
}

export function normalizeTargets(t: PolicyTargetsDto | undefined, errors: FieldError[]): PolicyTargets {
  if (!t) return {};
  return compact({
    clients: t.clients && uniq(t.clients),
    sites: t.sites && uniq(t.sites),
    tags_any: tags(t.tags_any, 'targets.tags_any', errors),
    tags_all: tags(t.tags_all, 'targets.tags_all', errors),
    platforms: t.platforms && uniq(t.platforms),
    monitoring_types: t.monitoring_types && uniq(t.monitoring_types),
  });
}

export function normalizeExclusions(x: PolicyExclusionsDto | undefined, errors: FieldError[]): PolicyExclusions {
  if (!x) return {};
  return compact({
    agents:
      x.agents &&
      uniq(
        x.agents.flatMap((raw) => {
          const id = parseId(raw);
          if (id === null) errors.push({ field: 'exclude.agents', message: `no agent ${raw}` });
          return id === null ? [] : [id];
        }),
      ),
    clients: x.clients && uniq(x.clients),
    sites: x.sites && uniq(x.sites),
    tags: tags(x.tags, 'exclude.tags', errors),
  });
}

const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
};

export function normalizeWindows(list: MaintenanceWindowDto[] | undefined, errors: FieldError[]): MaintenanceWindow[] {
  return (list ?? []).map((w, i) => {
    const schedule = w.schedule.trim().split(/\s+/).join(' ');
    const timezone = w.timezone.trim();
    const tzOk = isTimeZone(timezone);
    if (!tzOk) errors.push({ field: `maintenance_windows[${i}].timezone`, message: 'must be an IANA time zone such as Europe/Berlin or UTC' });
    if (schedule.split(' ').length !== 5) {
      errors.push({ field: `maintenance_windows[${i}].schedule`, message: 'a window schedule is a 5-field cron expression (minute hour day month weekday)' });
    } else {
      try {
        CronExpressionParser.parse(schedule, { tz: tzOk ? timezone : 'UTC', strict: false });
      } catch (err) {
        errors.push({ field: `maintenance_windows[${i}].schedule`, message: `invalid cron expression: ${(err as Error).message}` });
      }
    }
    return { schedule, duration_minutes: w.duration_minutes, timezone };
  });
}

/** Field errors of a DomainError thrown by a shared validator (nextRun), renamed under `prefix`. */
function prefixed(prefix: string, work: () => void, errors: FieldError[]): void {
  try {
    work();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    for (const f of err.fields) errors.push({ field: `${prefix}${f.field}`, message: f.message });
  }
}

/** The checks as stored, each with its key and place; settings as per-agent checks take them (same 400s). */
export function checkItems(list: PolicyCheckInputDto[], errors: FieldError[]): NewCheckItem[] {
  const seen = new Map<string, number>();
  const items: NewCheckItem[] = [];
  list.forEach((c, i) => {
    const field = `checks[${i}]`;
    const problems = settingsErrors(c.check_type, c.settings);
    if (problems.length > 0) {
      for (const p of problems) errors.push({ field: `${field}.${p.field}`, message: p.message });
      return;
    }
    const key = checkKey(c.check_type, c.settings);
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push({ field, message: `has the same key (${key}) as checks[${first}]: one item per key` });
      return;
    }
    seen.set(key, i);
    const { script, ...rest } = c.settings;
    items.push({
      key,
      position: i,
      checkType: c.check_type,
      name: c.name?.trim() || defaultCheckName(c.check_type, c.settings),
      settings: c.check_type === 'script' ? rest : c.settings,
      scriptId: c.check_type === 'script' ? (script as number) : null,
      runInterval: c.run_interval ?? RUN_INTERVAL_DEFAULT,
      failsB4Alert: c.fails_b4_alert ?? 1,
      severity: c.alert_severity ?? 'warning',
    });
  });
  return items;
}

export function taskItems(list: PolicyTaskInputDto[], now: Date, errors: FieldError[]): NewTaskItem[] {
  const seen = new Map<string, number>();
  const items: NewTaskItem[] = [];
  list.forEach((t, i) => {
    const field = `tasks[${i}]`;
    let ok = true;
    prefixed(`${field}.`, () => nextRun(t.schedule, now), errors);
    if (errors.some((e) => e.field.startsWith(`${field}.`))) ok = false;
    if (!ok) return;
    const schedule = t.schedule.trim().split(/\s+/).join(' ');
    const args = t.args ?? [];
    const key = taskKey(t.script, args, schedule);
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push({ field, message: `has the same key (${key}) as tasks[${first}]: one item per key` });
      return;
    }
    seen.set(key, i);
    items.push({
      key,
      position: i,
      name: t.name.trim(),
      scriptId: t.script,
      args,
      schedule,
      timeout: t.timeout ?? null,
      queueIfOffline: t.queue_if_offline ?? false,
      skipInMaintenance: t.skip_in_maintenance ?? false,
    });
  });
  return items;
}
