import { join } from 'node:path';
import { Client } from 'pg';
import { redactUrl } from '../common/values';
import { AppConfig } from '../config/app-config';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from './embedded-postgres';
import { runMigrations } from './migrate';

export class DatabaseUnavailableError extends Error {}

export interface OpenDatabase {
  url: string;
  embedded?: EmbeddedPostgresHandle;
  /** Names of the migrations this start applied. */
  migrated: string[];
  stop(): Promise<void>;
}

/**
 * The database the app runs on: DATABASE_URL when given, else the embedded PostgreSQL under
 * DATA_DIR. It is reachable and migrated when this returns.
 */
export async function openDatabase(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>,
  options: { log?: (line: string) => void; notice?: (line: string) => void; attachToRunning?: boolean; migrate?: boolean; restartAttempts?: number } = {},
): Promise<OpenDatabase> {
  let embedded: EmbeddedPostgresHandle | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      attachToRunning: options.attachToRunning,
      onLog: options.log,
      onNotice: options.notice,
      restartAttempts: options.restartAttempts,
    });
    url = embedded.url;
  }
  const stop = async (): Promise<void> => {
    await embedded?.stop();
  };
  try {
    await checkConnection(url);
    const migrated = options.migrate === false ? [] : await runMigrations(url);
    return { url, embedded, migrated, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function checkConnection(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    throw new DatabaseUnavailableError(`cannot connect to PostgreSQL at ${redactUrl(url)}: ${reason(err)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  switch (e?.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case '28P01':
    case '28000':
      return 'authentication failed';
    case '3D000':
      return 'database does not exist';
    default:
      return e?.message?.split('\n')[0] ?? String(err);
  }
}

export const embeddedDataPath = (dataDir: string): string => join(dataDir, 'pg');
