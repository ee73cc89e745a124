import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { RunningServer, createServer } from './server';

/** `npm start`: serves everything, on the embedded PostgreSQL unless DATABASE_URL is set. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    fail(err instanceof ConfigError ? `invalid configuration: ${err.message}` : String(err));
  }

  let server: RunningServer | undefined;
  const shutdown = async (signal: string): Promise<void> => {
    server?.logger.info({ signal }, 'shutting down');
    try {
      await server?.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    server = await createServer(config);
    await server.listen();
  } catch (err) {
    await server?.close().catch(() => undefined);
    const e = err as NodeJS.ErrnoException;
    fail(e?.code === 'EADDRINUSE' ? `PORT ${config.port} is already in use` : (e?.message ?? String(err)).split('\n')[0]);
  }

  const r = server.runtime;
  server.logger.info(
    {
      url: r.publicUrl,
      docs: `${r.publicUrl}/docs`,
      database: r.databaseUrl ? 'external (DATABASE_URL)' : `embedded PostgreSQL, data in ${r.dataDir}`,
      generatedSecrets: r.generated,
    },
    `RMM server listening on ${r.host}:${r.port}. API docs: ${r.publicUrl}/docs.` +
      (r.generated.length > 0
        ? ` Generated keys (${r.generated.join(', ')}) are kept in the database: print them with \`npm run cli -- keys show\`.`
        : ''),
  );
}

function fail(message: string): never {
  process.stderr.write(`rmm-server: ${message}\n`);
  process.exit(1);
}

void main();
