import { CheckType } from '@app/entities';
import { FieldError } from '../../../common/errors/domain-error';
import { PG_INT_MAX } from '../../../common/values';

/**
 * The settings of each check type, validated here (the body's `settings` object). A key the type does not
 * know is refused, so a typo never silently does nothing.
 */
type Rule = { required: boolean; check: (v: unknown) => string | null };

const int = (min: number, max: number) => (v: unknown) => (Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? null : `must be a whole number from ${min} to ${max}`);
const str = (min: number, max: number, pattern?: RegExp, what?: string) => (v: unknown) =>
  typeof v === 'string' && v.length >= min && v.length <= max && (!pattern || pattern.test(v)) ? null : `must be ${what ?? `a string of ${min} to ${max} characters`}`;
const oneOf = (values: string[]) => (v: unknown) => (typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.join(', ')}`);
const strings = (v: unknown) => (Array.isArray(v) && v.length <= 100 && v.every((x) => typeof x === 'string' && x.length <= 4096) ? null : 'must be a list of strings');

export const EVENT_LOGS = ['Application', 'System', 'Security', 'Setup'];
export const EVENT_TYPES = ['error', 'warning', 'information'];

export const CHECK_SETTINGS: Record<CheckType, Record<string, Rule>> = {
  diskspace: {
    drive: { required: true, check: str(1, 255, /^([A-Za-z]:|\/\S*)$/, 'a drive letter such as "C:" or a mount point such as "/"') },
    threshold_percent: { required: true, check: int(1, 99) },
  },
  // never starting with '-': the agent passes it to the system's ping, where it would read as an option
  ping: { target: { required: true, check: str(1, 253, /^[A-Za-z0-9.:_][A-Za-z0-9.:_-]*$/, 'a hostname or an IP address') } },
  cpuload: { threshold_percent: { required: true, check: int(1, 100) } },
  memory: { threshold_percent: { required: true, check: int(1, 100) } },
  winsvc: { service_name: { required: true, check: str(1, 256) } },
  script: {
    script: { required: true, check: int(1, PG_INT_MAX) },
    args: { required: false, check: strings },
    timeout: { required: false, check: int(1, 300) },
  },
  eventlog: {
    log_name: { required: true, check: oneOf(EVENT_LOGS) },
    event_id: { required: false, check: int(0, 65535) },
    event_type: { required: false, check: oneOf(EVENT_TYPES) },
    search_text: { required: false, check: str(1, 1000) },
  },
};

/** The field errors of `settings` for `type` (empty when valid), named `settings.<key>`. */
export function settingsErrors(type: CheckType, settings: unknown): FieldError[] {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return [{ field: 'settings', message: 'must be an object' }];
  const rules = CHECK_SETTINGS[type];
  const given = settings as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(given)) {
    if (!(key in rules)) errors.push({ field: `settings.${key}`, message: `not a setting of ${type} checks (known: ${Object.keys(rules).join(', ')})` });
  }
  for (const [key, rule] of Object.entries(rules)) {
    if (given[key] === undefined) {
      if (rule.required) errors.push({ field: `settings.${key}`, message: 'is required' });
      continue;
    }
    const problem = rule.check(given[key]);
    if (problem) errors.push({ field: `settings.${key}`, message: problem });
  }
  return errors;
}

/** A name for a check that was given none. */
export function defaultCheckName(type: CheckType, s: Record<string, unknown>): string {
  switch (type) {
    case 'diskspace':
      return `Disk space ${s.drive} below ${s.threshold_percent}% free`;
    case 'ping':
      return `Ping ${s.target}`;
    case 'cpuload':
      return `CPU load above ${s.threshold_percent}%`;
    case 'memory':
      return `Memory use above ${s.threshold_percent}%`;
    case 'winsvc':
      return `Service ${s.service_name}`;
    case 'script':
      return `Script ${s.script}`;
    case 'eventlog':
      return `Event log ${s.log_name}${s.event_id !== undefined ? ` event ${s.event_id}` : ''}`;
  }
}
