import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source';

/**
 * The SQL that `typeorm migration:generate` would write for this database: empty when the
 * migrations and the entities agree (the drift check).
 */
export async function pendingSchemaChanges(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  try {
    const sql = await ds.driver.createSchemaBuilder().log();
    return sql.upQueries.map((q) => q.query);
  } finally {
    await ds.destroy();
  }
}
