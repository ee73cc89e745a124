import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryRunner } from 'typeorm';
import { PlatformCaller } from '../auth/platform-caller';
import { PostgrestError, RestErrorCode } from '../common/platform-errors';
import { Sql } from './rest-sql';
import { restTables, RestTable } from './rest-tables';

/** A bounded statement: nothing a client sends can hold a connection for long. */
const STATEMENT_TIMEOUT = '15s';
const ROLES = new Set(['anon', 'authenticated', 'service_role']);

export interface RestTx {
  query<T = Record<string, unknown>>(sql: Sql): Promise<T[]>;
}

/**
 * Runs REST statements as the caller, the way PostgREST does: one transaction per request that switches to
 * the caller's role (SET LOCAL ROLE, as set_config('role')) and publishes the JWT claims (request.jwt.claims) for auth.uid() and
 * the row-level-security policies. PostgreSQL decides what the caller may see and change.
 */
@Injectable()
export class RestRepository {
  readonly tables: Map<string, RestTable>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.tables = restTables(ds);
  }

  async asCaller<T>(caller: PlatformCaller, work: (tx: RestTx) => Promise<T>): Promise<T> {
    if (!ROLES.has(caller.role)) throw new Error(`unknown platform role ${caller.role}`);
    const runner: QueryRunner = this.ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      try {
        // One statement, as PostgREST does it: set_config('role', …, true) is SET LOCAL ROLE (same membership check).
        await runner.query(
          `SELECT set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('statement_timeout', $3, true)`,
          [caller.role, JSON.stringify(caller.claims), STATEMENT_TIMEOUT],
        );
        const result = await work({ query: (sql) => runner.query(sql.text, sql.params) });
        await runner.commitTransaction();
        return result;
      } catch (err) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw toPostgrestError(err, caller);
      }
    } finally {
      await runner.release();
    }
  }
}

/** PostgreSQL's refusals as PostgREST reports them; anything else stays a fault (500, logged). */
export function toPostgrestError(err: unknown, caller: PlatformCaller): unknown {
  if (err instanceof PostgrestError) return err;
  const e = (err as { driverError?: Record<string, unknown> })?.driverError ?? (err as Record<string, unknown>);
  const sqlstate = typeof e?.code === 'string' ? e.code : undefined;
  if (!sqlstate || !/^[0-9A-Z]{5}$/.test(sqlstate)) return err;
  const code = classify(sqlstate, caller);
  if (code === undefined) return err;
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  return new PostgrestError(code, String(e.message ?? 'error'), str(e.detail), str(e.hint), sqlstate);
}

/**
 * What a SQLSTATE means for the caller (the REST surface's table gives each its status). As PostgREST: what the
 * request asked wrongly is 400 (class 22 data exceptions, 2201x included; class 23; class 42 but permissions and
 * missing tables); what is left (class 08, 53, 54, XX…) stays a fault: 500, logged.
 */
export function classify(sqlstate: string, caller: PlatformCaller): RestErrorCode | undefined {
  if (sqlstate === '42501') return caller.role === 'anon' ? RestErrorCode.DbPermissionDeniedAnon : RestErrorCode.DbPermissionDenied;
  if (sqlstate === '23505' || sqlstate === '23503' || sqlstate === '23P01') return RestErrorCode.DbConflict;
  if (sqlstate === '42703' || sqlstate === '42883') return RestErrorCode.DbUndefined;
  if (sqlstate === '42P01') return RestErrorCode.DbUndefinedTable;
  if (sqlstate === '57014') return RestErrorCode.DbTimeout;
  if (sqlstate.startsWith('22') || sqlstate.startsWith('23')) return RestErrorCode.DbInvalidData;
  // 42804 datatype_mismatch, 42P18 indeterminate_datatype, 42601 syntax_error, 42846 cannot_coerce, 42P02…
  if (sqlstate.startsWith('42') && sqlstate !== '42P17') return RestErrorCode.DbInvalidQuery;
  return undefined;
}
