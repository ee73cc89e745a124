import { PostgrestError, RestErrorCode } from '../common/platform-errors';
import { RestTable } from './rest-tables';

/**
 * PostgREST's URL grammar, the subset this server speaks: `select=` (columns, `alias:column`), filters
 * `column=[not.]op.value` with eq, neq, gt, gte, lt, lte, in, is, like, ilike, `order=`, `limit=`,
 * `offset=`, `on_conflict=`. Everything a client sends is checked against the table's columns here; values
 * never reach SQL except as parameters (see rest-sql.ts).
 */
export type FilterOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'is' | 'like' | 'ilike';
export const FILTER_OPS: readonly FilterOp[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is', 'like', 'ilike'];
export type IsValue = 'null' | 'not_null' | 'true' | 'false' | 'unknown';

export type Filter =
  | { column: string; negate: boolean; op: Exclude<FilterOp, 'in' | 'is'>; value: string }
  | { column: string; negate: boolean; op: 'in'; value: string[] }
  | { column: string; negate: boolean; op: 'is'; value: IsValue };

export interface SelectItem {
  column: string;
  alias: string;
}

export interface OrderTerm {
  column: string;
  dir: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export interface RestQuery {
  /** Empty means `*`; a `*` among columns is kept as the item {column: '*'}. */
  select: SelectItem[];
  filters: Filter[];
  order: OrderTerm[];
  limit?: number;
  offset: number;
  onConflict?: string[];
}

/**
 * Bounds on what a filter may ask of PostgreSQL. LIKE is not interrupted by statement_timeout inside one
 * value, so patterns stay short and few-wildcarded (docs/decisions.md, "Limits"); 400 PGRST100 past them.
 */
export const FILTER_LIMITS = {
  /** Characters of one filter's value (after `op.`), whatever the operator; an in-list counts whole. */
  valueLength: 1024,
  /** Characters of a like/ilike pattern. */
  patternLength: 256,
  /** `*` and `%` wildcards in a like/ilike pattern. */
  patternWildcards: 8,
} as const;

/** Query keys that are not column filters. */
const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'on_conflict', 'columns', 'apikey']);
/** Supabase's default max rows per answer. */
export const MAX_ROWS = 1000;

type Query = Record<string, unknown>;

const parseError = (message: string, details: string | null = null): PostgrestError => new PostgrestError(RestErrorCode.ParseError, message, details);

export const unknownColumn = (table: RestTable, column: string): PostgrestError =>
  new PostgrestError(RestErrorCode.DbUndefined, `column ${table.name}.${column} does not exist`, null, null, '42703');

function values(q: Query, key: string): string[] {
  const v = q[key];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => String(x));
}

function single(q: Query, key: string): string | undefined {
  const all = values(q, key);
  if (all.length > 1) throw parseError(`"${key}" given more than once`);
  return all[0];
}

function column(table: RestTable, name: string): string {
  if (!table.columns.has(name)) throw unknownColumn(table, name);
  return name;
}

export function parseSelect(table: RestTable, raw: string | undefined): SelectItem[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return [];
  return raw.split(',').map((part) => {
    const item = part.trim();
    if (item === '*') return { column: '*', alias: '*' };
    if (item.includes('(')) {
      const rel = item.slice(0, item.indexOf('(')).split(':').pop();
      throw new PostgrestError(RestErrorCode.RelationshipNotFound, `Could not find a relationship between '${table.name}' and '${rel}' in the schema cache`);
    }
    if (item.includes('::') || item.includes('->')) throw parseError(`failed to parse select parameter (${raw})`, 'casts and JSON paths are not supported');
    const m = /^(?:([A-Za-z_][A-Za-z0-9_]*):)?([A-Za-z_][A-Za-z0-9_]*)$/.exec(item);
    if (!m) throw parseError(`failed to parse select parameter (${raw})`);
    return { column: column(table, m[2]), alias: m[1] ?? m[2] };
  });
}

/** `(a,b,"c,d")`: double quotes protect commas and parentheses; `\"` and `\\` escape inside quotes. */
export function parseInList(raw: string): string[] {
  if (!raw.startsWith('(') || !raw.endsWith(')')) throw parseError(`failed to parse filter (in.${raw})`, 'in. expects a list in parentheses: in.(a,b)');
  const body = raw.slice(1, -1);
  if (body.trim() === '') return [];
  const out: string[] = [];
  let i = 0;
  while (i <= body.length) {
    let item = '';
    if (body[i] === '"') {
      i++;
      while (i < body.length && body[i] !== '"') {
        if (body[i] === '\\' && i + 1 < body.length) i++;
        item += body[i++];
      }
      if (body[i] !== '"') throw parseError(`failed to parse filter (in.${raw})`, 'unterminated quoted value');
      i++;
      if (i < body.length && body[i] !== ',') throw parseError(`failed to parse filter (in.${raw})`, 'expected "," after a quoted value');
    } else {
      while (i < body.length && body[i] !== ',') item += body[i++];
      item = item.trim();
    }
    out.push(item);
    i++; // the comma (or one past the end)
  }
  return out;
}

/** Characters as PostgreSQL counts them (code points). */
const charLength = (s: string, max: number): number => (s.length <= max ? s.length : [...s].length);
const preview = (s: string): string => (s.length > 64 ? `${s.slice(0, 64)}…` : s);

function checkBounds(col: string, raw: string, op: FilterOp, value: string): void {
  const refuse = (details: string): PostgrestError => parseError(`failed to parse filter (${col}=${preview(raw)})`, details);
  if (op !== 'like' && op !== 'ilike') {
    if (charLength(value, FILTER_LIMITS.valueLength) > FILTER_LIMITS.valueLength) {
      throw refuse(`filter values are limited to ${FILTER_LIMITS.valueLength} characters`);
    }
    return;
  }
  if (charLength(value, FILTER_LIMITS.patternLength) > FILTER_LIMITS.patternLength) {
    throw refuse(`like and ilike patterns are limited to ${FILTER_LIMITS.patternLength} characters`);
  }
  let wildcards = 0;
  for (const c of value) if (c === '*' || c === '%') wildcards++;
  if (wildcards > FILTER_LIMITS.patternWildcards) {
    throw refuse(`like and ilike patterns may hold at most ${FILTER_LIMITS.patternWildcards} wildcards (* or %)`);
  }
}

export function parseFilter(table: RestTable, col: string, raw: string): Filter {
  const name = column(table, col);
  let rest = raw;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const op = (dot < 0 ? rest : rest.slice(0, dot)) as FilterOp;
  if (dot < 0 || !FILTER_OPS.includes(op)) {
    throw parseError(`failed to parse filter (${raw})`, `unknown operator; expected one of ${FILTER_OPS.join(', ')}, optionally preceded by not.`);
  }
  const value = rest.slice(dot + 1);
  checkBounds(col, raw, op, value);
  if (op === 'in') return { column: name, negate, op, value: parseInList(value) };
  if (op === 'is') {
    const v = value.toLowerCase();
    if (!['null', 'not_null', 'true', 'false', 'unknown'].includes(v)) {
      throw parseError(`failed to parse filter (${raw})`, 'is. takes null, not_null, true, false or unknown');
    }
    // IS TRUE/FALSE/UNKNOWN take a boolean: refused here as PostgreSQL would refuse it (42804, 400), before any SQL.
    const type = table.types.get(name);
    if (v !== 'null' && v !== 'not_null' && type !== undefined && type !== 'boolean') {
      throw new PostgrestError(RestErrorCode.DbInvalidQuery, `argument of IS ${v.toUpperCase()} must be type boolean, not type ${type}`, null, null, '42804');
    }
    return { column: name, negate, op, value: v as IsValue };
  }
  return { column: name, negate, op, value };
}

export function parseOrder(table: RestTable, raw: string | undefined): OrderTerm[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((term) => {
    const [col, ...mods] = term.trim().split('.');
    const out: OrderTerm = { column: column(table, col), dir: 'asc' };
    for (const m of mods) {
      if (m === 'asc' || m === 'desc') out.dir = m;
      else if (m === 'nullsfirst') out.nulls = 'first';
      else if (m === 'nullslast') out.nulls = 'last';
      else throw parseError(`failed to parse order (${raw})`, 'expected asc, desc, nullsfirst or nullslast');
    }
    return out;
  });
}

function nonNegative(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw parseError(`failed to parse ${name} parameter (${raw})`, `${name} must be a non-negative integer`);
  return Number(raw);
}

export function parseQuery(table: RestTable, q: Query): RestQuery {
  for (const key of Object.keys(q)) {
    if (key === 'or' || key === 'and' || key === 'not.or' || key === 'not.and') {
      throw parseError(`failed to parse logic tree (${key})`, 'the logical operators or/and are not supported by this server; combine filters with & (and)');
    }
  }
  const filters: Filter[] = [];
  for (const key of Object.keys(q)) {
    if (RESERVED.has(key)) continue;
    for (const raw of values(q, key)) filters.push(parseFilter(table, key, raw));
  }
  const onConflict = single(q, 'on_conflict');
  return {
    select: parseSelect(table, single(q, 'select')),
    filters,
    order: parseOrder(table, single(q, 'order')),
    limit: nonNegative('limit', single(q, 'limit')),
    offset: nonNegative('offset', single(q, 'offset')) ?? 0,
    onConflict: onConflict === undefined ? undefined : onConflict.split(',').map((c) => column(table, c.trim())),
  };
}

/** `Prefer:` as PostgREST reads it (unknown preferences are ignored, as its lenient handling does). */
export interface Preferences {
  return: 'minimal' | 'representation' | 'headers-only';
  count: boolean;
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
}

export function parsePrefer(header: string | string[] | undefined, defaultReturn: Preferences['return'] = 'minimal'): Preferences {
  const parts = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const out: Preferences = { return: defaultReturn, count: false };
  for (const p of parts) {
    const [k, v] = p.split('=').map((s) => s.trim());
    if (k === 'return' && (v === 'minimal' || v === 'representation' || v === 'headers-only')) out.return = v;
    else if (k === 'count' && (v === 'exact' || v === 'planned' || v === 'estimated')) out.count = true;
    else if (k === 'resolution' && (v === 'merge-duplicates' || v === 'ignore-duplicates')) out.resolution = v;
  }
  return out;
}

/** What the client accepts: an array (application/json), one object (vnd.pgrst.object+json), or neither (406). */
export function parseAccept(header: string | string[] | undefined): 'array' | 'object' {
  const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).toLowerCase();
  if (value.includes('application/vnd.pgrst.object')) return 'object';
  if (value.trim() === '' || /(^|,|\s)(\*\/\*|application\/\*|application\/json)/.test(value)) return 'array';
  throw new PostgrestError(RestErrorCode.NotAcceptable, `None of these media types are available: ${value}`);
}

/** Accept-Profile / Content-Profile: only the public schema is exposed. */
export function checkProfile(header: string | string[] | undefined): void {
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && value !== 'public') {
    throw new PostgrestError(RestErrorCode.UnknownSchema, 'The schema must be one of the following: public');
  }
}
