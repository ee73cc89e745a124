import { Filter, OrderTerm, RestQuery, SelectItem } from './rest-query';
import { RestTable } from './rest-tables';

/**
 * SQL for the REST subset. Identifiers come only from the table's known columns (checked by rest-query.ts)
 * and are quoted; every value a client sends is a bind parameter. Results are built by PostgreSQL as JSON
 * (json_agg), so types are encoded exactly as PostgREST encodes them.
 */
export interface Sql {
  text: string;
  params: unknown[];
}

export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const tableRef = (t: RestTable): string => `"public".${ident(t.name)}`;
const col = (t: RestTable, c: string): string => `${tableRef(t)}.${ident(c)}`;

const COMPARATORS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };

function condition(t: RestTable, f: Filter, params: unknown[]): string {
  const c = col(t, f.column);
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  let sql: string;
  switch (f.op) {
    case 'in':
      sql = `${c} = ANY(${p(f.value)})`;
      break;
    case 'is':
      sql = f.value === 'null' ? `${c} IS NULL` : f.value === 'not_null' ? `${c} IS NOT NULL` : `${c} IS ${f.value.toUpperCase()}`;
      break;
    case 'like':
    case 'ilike':
      sql = `${c}::text ${f.op === 'like' ? 'LIKE' : 'ILIKE'} ${p(f.value.replace(/\*/g, '%'))}`;
      break;
    default:
      sql = `${c} ${COMPARATORS[f.op]} ${p(f.value)}`;
  }
  return f.negate ? `NOT (${sql})` : sql;
}

export function where(t: RestTable, filters: Filter[], params: unknown[]): string {
  return filters.length === 0 ? '' : ` WHERE ${filters.map((f) => condition(t, f, params)).join(' AND ')}`;
}

function selectList(t: RestTable, select: SelectItem[]): string {
  if (select.length === 0) return `${tableRef(t)}.*`;
  return select.map((s) => (s.column === '*' ? `${tableRef(t)}.*` : `${col(t, s.column)} AS ${ident(s.alias)}`)).join(', ');
}

function orderBy(t: RestTable, order: OrderTerm[]): string {
  if (order.length === 0) return '';
  const terms = order.map((o) => `${col(t, o.column)} ${o.dir.toUpperCase()}${o.nulls ? ` NULLS ${o.nulls.toUpperCase()}` : ''}`);
  return ` ORDER BY ${terms.join(', ')}`;
}

/** Wraps a row source into one row: the rows as a JSON array (text) and their number. */
const aggregate = (source: string): string => `SELECT coalesce(json_agg(_r), '[]'::json)::text AS body, count(*)::int AS n FROM ${source}`;

export function selectSql(t: RestTable, q: RestQuery, limit: number): Sql {
  const params: unknown[] = [];
  const w = where(t, q.filters, params);
  params.push(limit, q.offset);
  const inner = `SELECT ${selectList(t, q.select)} FROM ${tableRef(t)}${w}${orderBy(t, q.order)} LIMIT $${params.length - 1} OFFSET $${params.length}`;
  return { text: aggregate(`(${inner}) _r`), params };
}

export function countSql(t: RestTable, q: RestQuery): Sql {
  const params: unknown[] = [];
  return { text: `SELECT count(*)::int AS n FROM ${tableRef(t)}${where(t, q.filters, params)}`, params };
}

/** RETURNING: the selected columns for a representation, else a constant (no SELECT privilege needed). */
const returning = (t: RestTable, select: SelectItem[], represent: boolean): string => (represent ? selectList(t, select) : '1 AS _');

export function insertSql(
  t: RestTable,
  columns: string[],
  rows: unknown[],
  opts: { select: SelectItem[]; represent: boolean; resolution?: 'merge-duplicates' | 'ignore-duplicates'; onConflict?: string[] },
): Sql {
  const cols = columns.map(ident).join(', ');
  let conflict = '';
  if (opts.resolution) {
    const target = (opts.onConflict ?? t.primaryKey).map(ident).join(', ');
    const updates = columns.filter((c) => !(opts.onConflict ?? t.primaryKey).includes(c));
    conflict =
      opts.resolution === 'ignore-duplicates' || updates.length === 0
        ? ` ON CONFLICT (${target}) DO NOTHING`
        : ` ON CONFLICT (${target}) DO UPDATE SET ${updates.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ')}`;
  }
  const insert =
    columns.length === 0
      ? `INSERT INTO ${tableRef(t)} DEFAULT VALUES`
      : `INSERT INTO ${tableRef(t)} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${tableRef(t)}, $1::json)`;
  return {
    text: `WITH _r AS (${insert}${conflict} RETURNING ${returning(t, opts.select, opts.represent)}) ${aggregate('_r')}`,
    params: columns.length === 0 ? [] : [JSON.stringify(rows)],
  };
}

export function updateSql(t: RestTable, patch: Record<string, unknown>, q: RestQuery, represent: boolean): Sql {
  const params: unknown[] = [JSON.stringify(patch)];
  const sets = Object.keys(patch)
    .map((c) => `${ident(c)} = _v.${ident(c)}`)
    .join(', ');
  const update = `UPDATE ${tableRef(t)} SET ${sets} FROM json_populate_record(NULL::${tableRef(t)}, $1::json) AS _v${where(t, q.filters, params)}`;
  return { text: `WITH _r AS (${update} RETURNING ${returning(t, q.select, represent)}) ${aggregate('_r')}`, params };
}

export function deleteSql(t: RestTable, q: RestQuery, represent: boolean): Sql {
  const params: unknown[] = [];
  const del = `DELETE FROM ${tableRef(t)}${where(t, q.filters, params)}`;
  return { text: `WITH _r AS (${del} RETURNING ${returning(t, q.select, represent)}) ${aggregate('_r')}`, params };
}
