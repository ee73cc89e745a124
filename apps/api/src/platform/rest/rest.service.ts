import { Injectable } from '@nestjs/common';
import { PlatformCaller } from '../auth/platform-caller';
import { PostgrestError, RestErrorCode } from '../common/platform-errors';
import { checkProfile, MAX_ROWS, parseAccept, parsePrefer, parseQuery, RestQuery } from './rest-query';
import { countSql, deleteSql, insertSql, selectSql, updateSql } from './rest-sql';
import { RestRepository, RestTx } from './rest.repository';
import { RestTable } from './rest-tables';

/** What a REST request carries, as read off the HTTP request. */
export interface RestRequest {
  table: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/** A REST answer: status, headers and (unless 204) a JSON body. */
export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

interface Outcome {
  rows: unknown[];
  n: number;
}

const invalidJson = (details: string | null = null) => new PostgrestError(RestErrorCode.InvalidJson, 'Empty or invalid json', details);
const contentRange = (offset: number, n: number, total: number | '*'): string => (n === 0 ? `*/${total}` : `${offset}-${offset + n - 1}/${total}`);

/** /rest/v1/{table}: PostgREST's read, insert, update and delete over the exposed tables, as the caller. */
@Injectable()
export class RestService {
  constructor(private readonly repo: RestRepository) {}

  async read(caller: PlatformCaller, req: RestRequest): Promise<RestResponse> {
    const table = this.table(req.table);
    checkProfile(req.headers['accept-profile']);
    const shape = parseAccept(req.headers['accept']);
    const q = parseQuery(table, req.query);
    const prefer = parsePrefer(req.headers['prefer']);
    const limit = Math.min(q.limit ?? MAX_ROWS, MAX_ROWS);
    const { rows, n, total } = await this.repo.asCaller(caller, async (tx) => {
      const out = await run(tx, selectSql(table, q, limit));
      const total = prefer.count ? (await tx.query<{ n: number }>(countSql(table, q)))[0].n : undefined;
      return { ...out, total };
    });
    if (shape === 'object') return { status: 200, headers: { 'content-range': contentRange(q.offset, n, total ?? '*') }, body: singular(rows) };
    const partial = total !== undefined && n < total;
    return { status: partial ? 206 : 200, headers: { 'content-range': contentRange(q.offset, n, total ?? '*') }, body: rows };
  }

  async insert(caller: PlatformCaller, req: RestRequest): Promise<RestResponse> {
    const table = this.table(req.table);
    checkProfile(req.headers['content-profile']);
    const shape = parseAccept(req.headers['accept']);
    const q = parseQuery(table, req.query);
    const prefer = parsePrefer(req.headers['prefer']);
    const rows = Array.isArray(req.body) ? req.body : [req.body];
    if (rows.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))) throw invalidJson();
    const records = rows as Record<string, unknown>[];
    const columns = Object.keys(records[0] ?? {});
    const key = [...columns].sort().join(',');
    if (records.some((r) => Object.keys(r).sort().join(',') !== key)) throw invalidJson('All object keys must match');
    for (const c of columns) this.checkColumn(table, c);
    if (records.length === 0) return { status: 201, headers: { 'content-range': '*/*' }, body: prefer.return === 'representation' ? [] : undefined };
    const represent = prefer.return === 'representation';
    const sql = insertSql(table, columns, records, { select: q.select, represent, resolution: prefer.resolution, onConflict: q.onConflict });
    const { rows: out, n } = await this.repo.asCaller(caller, async (tx) => {
      const result = await run(tx, sql);
      if (represent && shape === 'object') singular(result.rows); // refuses (and rolls back) unless exactly one row
      return result;
    });
    const headers = { 'content-range': contentRange(0, n, prefer.count ? n : '*') };
    if (!represent) return { status: 201, headers };
    return { status: 201, headers, body: shape === 'object' ? singular(out) : out };
  }

  async update(caller: PlatformCaller, req: RestRequest): Promise<RestResponse> {
    const table = this.table(req.table);
    checkProfile(req.headers['content-profile']);
    const shape = parseAccept(req.headers['accept']);
    const q = this.mutationQuery(table, req.query);
    if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) throw invalidJson();
    const patch = req.body as Record<string, unknown>;
    for (const c of Object.keys(patch)) this.checkColumn(table, c);
    const prefer = parsePrefer(req.headers['prefer']);
    const represent = prefer.return === 'representation';
    if (Object.keys(patch).length === 0) return this.mutationAnswer({ rows: [], n: 0 }, represent, shape, prefer.count);
    const outcome = await this.repo.asCaller(caller, async (tx) => {
      const result = await run(tx, updateSql(table, patch, q, represent));
      if (represent && shape === 'object') singular(result.rows);
      return result;
    });
    return this.mutationAnswer(outcome, represent, shape, prefer.count);
  }

  async remove(caller: PlatformCaller, req: RestRequest): Promise<RestResponse> {
    const table = this.table(req.table);
    checkProfile(req.headers['content-profile']);
    const shape = parseAccept(req.headers['accept']);
    const q = this.mutationQuery(table, req.query);
    const prefer = parsePrefer(req.headers['prefer']);
    const represent = prefer.return === 'representation';
    const outcome = await this.repo.asCaller(caller, async (tx) => {
      const result = await run(tx, deleteSql(table, q, represent));
      if (represent && shape === 'object') singular(result.rows);
      return result;
    });
    return this.mutationAnswer(outcome, represent, shape, prefer.count);
  }

  /** PATCH/DELETE: 204 with Content-Range (`*\/*` when nothing matched or row-level security hid it all), or 200 with the rows. */
  private mutationAnswer(o: Outcome, represent: boolean, shape: 'array' | 'object', count: boolean): RestResponse {
    const headers = { 'content-range': contentRange(0, o.n, count ? o.n : '*') };
    if (!represent) return { status: 204, headers };
    return { status: 200, headers, body: shape === 'object' ? singular(o.rows) : o.rows };
  }

  private mutationQuery(table: RestTable, query: Record<string, unknown>): RestQuery {
    const q = parseQuery(table, query);
    if (q.limit !== undefined || q.offset !== 0 || q.order.length > 0) {
      throw new PostgrestError(RestErrorCode.ParseError, 'limit, offset and order are not supported on PATCH and DELETE by this server');
    }
    return q;
  }

  private table(name: string): RestTable {
    const t = this.repo.tables.get(name);
    if (!t) throw new PostgrestError(RestErrorCode.TableNotFound, `Could not find the table 'public.${name}' in the schema cache`);
    return t;
  }

  private checkColumn(table: RestTable, column: string): void {
    if (!table.columns.has(column)) {
      throw new PostgrestError(RestErrorCode.ColumnNotFound, `Could not find the '${column}' column of '${table.name}' in the schema cache`);
    }
  }
}

async function run(tx: RestTx, sql: { text: string; params: unknown[] }): Promise<Outcome> {
  const [row] = await tx.query<{ body: string; n: number }>(sql);
  return { rows: JSON.parse(row.body) as unknown[], n: row.n };
}


/** vnd.pgrst.object+json: exactly one row, else 406 (PGRST116). */
function singular(rows: unknown[]): unknown {
  if (rows.length !== 1) {
    throw new PostgrestError(RestErrorCode.SingularityViolation, 'JSON object requested, multiple (or no) rows returned', `The result contains ${rows.length} rows`);
  }
  return rows[0];
}
