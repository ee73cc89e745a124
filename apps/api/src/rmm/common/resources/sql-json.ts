/**
 * A resource written as SQL, field by field, from the same field list as its TypeScript mapper: where a statement
 * must carry the resource itself (the notification outbox writes an alert into a notification in the statement that
 * makes the change, with no read-back; at thousands of agents per presence batch, docs/performance.md). The keys are
 * the resource's keys, so a field added to the resource without its SQL does not compile.
 */
export type SqlFields<T> = { [K in keyof T]-?: string };

/** An ISO 8601 UTC text of a timestamptz (2026-11-23T12:00:00.000Z), as the API writes dates; NULL stays null. */
export const sqlIso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** jsonb_build_object over the fields, in their order. */
export function sqlJsonObject<T>(fields: SqlFields<T>): string {
  return `jsonb_build_object(${Object.entries(fields)
    .map(([key, expr]) => `'${key}', ${String(expr)}`)
    .join(', ')})`;
}
