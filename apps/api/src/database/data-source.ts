import { Client, ClientConfig } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ALL_ENTITIES } from '@app/entities';
import { ALL_MIGRATIONS } from '../../../../migrations';

/**
 * The pool's clients, each with an 'error' listener from birth. A connection that PostgreSQL ends (its postmaster
 * died) reports it on the client; one checked out between two statements (inside a transaction) has neither the
 * pool's idle listener nor a query to fail, and TypeORM's own listener is gone once it released the connection after
 * the first error: an 'error' then had no listener and ended the process, before the embedded PostgreSQL's
 * supervisor could say it could not come back (test/process/operator.e2e-spec.ts found it). The statement under way
 * fails as before and the pool drops the client; only the process survives.
 */
export class PoolClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

/** The one description of the schema: entities plus the migrations that build it. */
export function dataSourceOptions(url: string, extra: Partial<DataSourceOptions> = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ALL_ENTITIES,
    migrations: ALL_MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    uuidExtension: 'pgcrypto',
    ...extra,
    // (node-postgres's pool options: a caller's own `extra` adds to them)
    extra: { Client: PoolClient, ...(extra as { extra?: object }).extra },
  } as DataSourceOptions;
}

/** For the TypeORM CLI (`npm run migration:generate`): needs DATABASE_URL. */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://localhost/unset'));
