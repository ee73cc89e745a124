import type { CustomFieldScope, CustomFieldType, CustomFieldValue } from '@app/entities';

/** The most custom fields there may be, all scopes together. */
export const MAX_CUSTOM_FIELDS = 200;
/** The longest text (text, secret, date, select, each option) a value may hold, in characters. */
export const MAX_TEXT_VALUE = 4096;
/** The most options a select or multiselect may offer. */
export const MAX_OPTIONS = 100;
/** How a set secret is answered (reads, audit entries): never its value. */
export const SECRET_MASK = '********';
export const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** What the rules need of a definition. */
export interface FieldRule {
  name: string;
  scope: CustomFieldScope;
  type: CustomFieldType;
  options: string[] | null;
  defaultValue: CustomFieldValue | null;
}

/** A value checked against its field's type: the value to store, or why it is refused (said after the field's name). */
export type Checked = { ok: true; value: CustomFieldValue } | { ok: false; reason: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD naming a real day (2026-02-30 is refused). */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * A value as its field's type allows it: text and secret a string of at most MAX_TEXT_VALUE characters; number a
 * finite number; boolean; date YYYY-MM-DD; select one of the options; multiselect a list of distinct options
 * (kept in the order given). Nothing is converted: "3" is not a number.
 */
export function checkValue(field: Pick<FieldRule, 'type' | 'options'>, raw: unknown): Checked {
  const text = (what: string): Checked =>
    typeof raw !== 'string' ? { ok: false, reason: `must be ${what}` } : raw.length > MAX_TEXT_VALUE ? { ok: false, reason: `at most ${MAX_TEXT_VALUE} characters` } : { ok: true, value: raw };
  switch (field.type) {
    case 'text':
    case 'secret':
      return text('a string');
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? { ok: true, value: raw } : { ok: false, reason: 'must be a finite number' };
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : { ok: false, reason: 'must be true or false' };
    case 'date':
      return typeof raw === 'string' && isDate(raw) ? { ok: true, value: raw } : { ok: false, reason: 'must be a date YYYY-MM-DD' };
    case 'select':
      return typeof raw === 'string' && (field.options ?? []).includes(raw) ? { ok: true, value: raw } : { ok: false, reason: `must be one of ${(field.options ?? []).join(', ')}` };
    case 'multiselect': {
      const options = field.options ?? [];
      if (!Array.isArray(raw) || !raw.every((v): v is string => typeof v === 'string' && options.includes(v))) return { ok: false, reason: `must be a list of ${options.join(', ')}` };
      if (new Set(raw).size !== raw.length) return { ok: false, reason: 'must not repeat an option' };
      return { ok: true, value: [...raw] };
    }
  }
}

/** A stored value as a read answers it: a secret is never answered (the mask when set). */
export const shownValue = (type: CustomFieldType, value: CustomFieldValue | null): CustomFieldValue | null => (type === 'secret' && value !== null ? SECRET_MASK : value);

/** A value as a script argument receives it: a multiselect joined with commas, the others as text. */
export function argText(value: CustomFieldValue | null): string {
  if (value === null) return '';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}
