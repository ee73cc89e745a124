import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source';

/** Arbitrary constant: the advisory lock every instance takes before migrating. */
export const MIGRATION_LOCK_ID = 7_201_405_913;

/**
 * Runs pending migrations under a PostgreSQL advisory lock, so two instances starting at
 * once never migrate together: the second waits, then finds nothing left to do.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const done = await ds.runMigrations({ transaction: 'each' });
      return done.map((m) => m.name);
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await lock.release();
    await ds.destroy();
  }
}
