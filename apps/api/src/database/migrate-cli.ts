import { ConfigError, loadConfig } from '../config/app-config';
import { openDatabase } from './database';

/** `npm run migrate`: applies pending migrations to DATABASE_URL or the embedded database, then exits. */
async function main(): Promise<void> {
  try {
    const db = await openDatabase(loadConfig(), { attachToRunning: true });
    process.stderr.write(db.migrated.length ? `applied: ${db.migrated.join(', ')}\n` : 'database is up to date\n');
    await db.stop();
  } catch (err) {
    process.stderr.write(`rmm-migrate: ${err instanceof ConfigError ? `invalid configuration: ${err.message}` : (err as Error).message.split('\n')[0]}\n`);
    process.exit(1);
  }
}

void main();
