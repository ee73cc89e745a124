import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** The first key of every job's advisory lock ('JOBS'); the second is hashtext(the job's name). */
export const JOBS_LOCK_SPACE = 0x4a4f4253;
/** Connecting, and each statement, on the leadership connection: at most this long (a database that does not answer is a failed run). */
const TIMEOUT_MS = 5_000;

/**
 * Which cluster-once jobs this instance leads: one session-level advisory lock per job
 * (pg_try_advisory_lock(JOBS_LOCK_SPACE, hashtext(name))), held on one connection of its own, outside the pool, for
 * as long as the process lives. Whoever asks first when nobody holds a job's lock leads it; when the holder's
 * process dies its connection closes, PostgreSQL frees its locks, and another instance takes each at that job's
 * next tick (within one interval). A connection this instance loses (the database restarted) loses every lead
 * with it: the next tick asks again on a new connection.
 *
 * Leadership saves work and noise; it is not what makes a job correct. Between a connection dying and this process
 * noticing, two instances may run a job once together, so every cluster-once job stays safe to run twice (each is
 * one idempotent statement, or a few).
 */
export class ClusterLeadership {
  private readonly logger = new Logger('jobs');
  private client?: Client;
  private connecting?: Promise<Client>;
  private readonly held = new Set<string>();
  private closed = false;
  /** The connection's statements, one after the other (jobs ticking together must not overlap on one client). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly databaseUrl: string | undefined) {}

  /** True when this instance leads `job` (taking the lead when nobody holds it); throws when the database does not answer. */
  async lead(job: string): Promise<boolean> {
    if (this.held.has(job)) return true;
    if (this.closed) return false;
    const client = await this.connection();
    const asked = this.queue.then(() => client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [JOBS_LOCK_SPACE, job]));
    this.queue = asked.catch(() => undefined);
    const { rows } = await asked;
    if (!rows[0].ok || this.client !== client) return false;
    this.held.add(job);
    this.logger.log(`${job}: this instance leads it now`);
    return true;
  }

  /** The cluster-once jobs this instance leads now. */
  leads(): string[] {
    return [...this.held];
  }

  /** Shutdown: the connection closes, so every lead goes to another instance at once (at its next tick). */
  async release(): Promise<void> {
    this.closed = true;
    this.held.clear();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connection(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    if (!this.databaseUrl) throw new Error('no database URL');
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: 'rmm-job-leadership',
      connectionTimeoutMillis: TIMEOUT_MS,
      query_timeout: TIMEOUT_MS,
      keepAlive: true,
    });
    const lost = (why: string): void => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.held.size > 0 && !this.closed) this.logger.warn(`leadership connection lost (${why}): no longer leading ${[...this.held].join(', ')}`);
      this.held.clear();
      void client.end().catch(() => undefined);
    };
    client.on('error', (err: Error) => lost(err.message));
    client.on('end', () => lost('connection closed'));
    try {
      await client.connect();
    } catch (err) {
      void client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('stopping');
    }
    this.client = client;
    return client;
  }
}
