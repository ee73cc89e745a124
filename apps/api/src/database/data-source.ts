import { DataSource, DataSourceOptions } from 'typeorm';
import { ALL_ENTITIES } from '@app/entities';
import { ALL_MIGRATIONS } from '../../../../migrations';

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
  } as DataSourceOptions;
}

/** For the TypeORM CLI (`npm run migration:generate`): needs DATABASE_URL. */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://localhost/unset'));
