import { EnrollmentLogEntity, UserProfileEntity } from '@app/entities';
import { DataSource } from 'typeorm';

/** A table /rest/v1 exposes: its columns come from the entity, so they cannot drift from the schema. */
export interface RestTable {
  name: string;
  columns: Set<string>;
  primaryKey: string[];
  /** Each column's PostgreSQL type, as PostgreSQL names it in messages (`integer`, `timestamp with time zone`). */
  types: Map<string, string>;
}

/** TypeORM's short type names, spelled as PostgreSQL's messages spell them. */
const PG_TYPE_NAMES: Record<string, string> = {
  timestamptz: 'timestamp with time zone',
  timestamp: 'timestamp without time zone',
  int: 'integer',
  int4: 'integer',
  int8: 'bigint',
  bool: 'boolean',
};

const typeName = (type: unknown): string => {
  if (type === Boolean) return 'boolean';
  if (type === Number) return 'integer';
  if (type === String) return 'character varying';
  const name = String(type).toLowerCase();
  return PG_TYPE_NAMES[name] ?? name;
};

/** The tables of the data platform. Anything else is "not in the schema cache" (404), like PostgREST. */
const EXPOSED = [UserProfileEntity, EnrollmentLogEntity];

export function restTables(ds: DataSource): Map<string, RestTable> {
  const out = new Map<string, RestTable>();
  for (const entity of EXPOSED) {
    const meta = ds.getMetadata(entity);
    out.set(meta.tableName, {
      name: meta.tableName,
      columns: new Set(meta.columns.map((c) => c.databaseName)),
      primaryKey: meta.primaryColumns.map((c) => c.databaseName),
      types: new Map(meta.columns.map((c) => [c.databaseName, typeName(c.type)])),
    });
  }
  return out;
}
