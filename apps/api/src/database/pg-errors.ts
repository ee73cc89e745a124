/** PostgreSQL error codes the services react to (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_CHECK_VIOLATION = '23514';
export const PG_RESTRICT_VIOLATION = '23001';

function code(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const c = e?.driverError?.code ?? e?.code;
  return typeof c === 'string' ? c : undefined;
}

export const isUniqueViolation = (err: unknown): boolean => code(err) === PG_UNIQUE_VIOLATION;
export const isForeignKeyViolation = (err: unknown): boolean => code(err) === PG_FOREIGN_KEY_VIOLATION;
/** A delete refused because rows still reference it: 23001 on PostgreSQL 18, 23503 on 15. */
export const isStillReferenced = (err: unknown): boolean =>
  code(err) === PG_RESTRICT_VIOLATION || code(err) === PG_FOREIGN_KEY_VIOLATION;
