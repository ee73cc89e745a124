import { EnrollmentLogEntity, UserProfileEntity } from '@app/entities';
import { DataSource } from 'typeorm';

/** A table /rest/v1 exposes: its columns come from the entity, so they cannot drift from the schema. */
export interface RestTable {
  name: string;
  columns: Set<string>;
  primaryKey: string[];
}

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
    });
  }
  return out;
}
