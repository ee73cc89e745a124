import { Writable } from 'node:stream';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { FixedClock } from '../../apps/api/src/common/clock';
import { createLogger } from '../../apps/api/src/common/logging/logger';
import { AppConfig, loadConfig } from '../../apps/api/src/config/app-config';
import { RunningServer, createServer } from '../../apps/api/src/server';
import { createTestDatabase, TestDatabase } from './test-db';

export interface TestApp {
  server: RunningServer;
  /** Base URL of the listening server (real HTTP on 127.0.0.1). */
  url: string;
  http: TestAgent;
  db: TestDatabase;
  clock: FixedClock | undefined;
  /** Every log line the server wrote, as JSON text. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * The whole app, listening on a free port, on this test file's own database.
 * `env` is read like the real environment (loadConfig), so tests exercise the same validation.
 * With `options.db`, the app is one more instance on that (shared) database, which its close leaves in place.
 * With `options.port`, it listens there (a restart on the address agents know).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { clock?: FixedClock; overrides?: Partial<AppConfig>; db?: TestDatabase; port?: number } = {},
): Promise<TestApp> {
  const shared = options.db !== undefined;
  const db = options.db ?? (await createTestDatabase());
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  // No agent binary is built unless the test asks (overrides.agentBuild): a download of one not built answers 503.
  // A publicUrl given as an override is a PUBLIC_URL given (the console's origins: common/http/origin.ts).
  const given = options.overrides?.publicUrl !== undefined ? { publicUrlSet: true } : {};
  const config = { ...loadConfig({ LOG_LEVEL: 'info', ...env, DATABASE_URL: db.url }), agentBuild: false, ...given, ...(options.overrides ?? {}) };
  let server: RunningServer;
  try {
    server = await createServer(config, { logger: createLogger(config.logLevel, sink), clock: options.clock });
  } catch (err) {
    if (!shared) await db.drop();
    throw err;
  }
  const url = await server.listen(options.port ?? 0, '127.0.0.1');
  let closed = false;
  // PUBLIC_URL defaults to http://localhost:$PORT; on a random port the real address is the public one.
  if (env.PUBLIC_URL === undefined && options.overrides?.publicUrl === undefined) server.runtime.publicUrl = url;
  return {
    server,
    url,
    http: request(url),
    db,
    clock: options.clock,
    logs,
    close: async () => {
      if (closed) return;
      closed = true;
      await server.close();
      if (!shared) await db.drop();
    },
  };
}
