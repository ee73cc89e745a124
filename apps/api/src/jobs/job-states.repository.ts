import { Injectable } from '@nestjs/common';
import type { JobMode, JobState } from '@app/entities';
import { TransactionHost } from '../database/transaction-host';
import type { JobFigures } from './scheduled-job';

/** A job's figures on one instance, as stored in job_states. */
export interface InstanceJobFigures extends JobFigures {
  instance: string;
}

interface Row {
  instance: string;
  name: string;
  mode: JobMode;
  interval_seconds: number;
  state: JobState;
  runs: string;
  failures: string;
  last_started_at: Date | null;
  last_duration_ms: number | null;
  last_error: string | null;
  next_run_at: Date | null;
}

/** job_states: each instance's figures of its jobs (one row per job and instance), written and read in one statement each. */
@Injectable()
export class JobStatesRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** This instance's figures, every job in one statement (reported_at: the database's clock). */
  async report(instance: string, jobs: JobFigures[]): Promise<void> {
    if (jobs.length === 0) return;
    const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
    await this.tx.exec(
      `INSERT INTO job_states (instance, name, mode, interval_seconds, state, runs, failures, last_started_at, last_duration_ms, last_error, next_run_at, reported_at)
       SELECT $1, x.* , now()
         FROM unnest($2::text[], $3::text[], $4::float8[], $5::text[], $6::bigint[], $7::bigint[], $8::timestamptz[], $9::float8[], $10::text[], $11::timestamptz[])
           AS x(name, mode, interval_seconds, state, runs, failures, last_started_at, last_duration_ms, last_error, next_run_at)
       ON CONFLICT (instance, name) DO UPDATE SET
         mode = EXCLUDED.mode, interval_seconds = EXCLUDED.interval_seconds, state = EXCLUDED.state, runs = EXCLUDED.runs,
         failures = EXCLUDED.failures, last_started_at = EXCLUDED.last_started_at, last_duration_ms = EXCLUDED.last_duration_ms,
         last_error = EXCLUDED.last_error, next_run_at = EXCLUDED.next_run_at, reported_at = EXCLUDED.reported_at`,
      [
        instance,
        jobs.map((j) => j.name),
        jobs.map((j) => j.mode),
        jobs.map((j) => j.intervalSeconds),
        jobs.map((j) => j.state),
        jobs.map((j) => j.runs),
        jobs.map((j) => j.failures),
        jobs.map((j) => iso(j.lastStartedAt)),
        jobs.map((j) => j.lastDurationMs),
        jobs.map((j) => j.lastError),
        jobs.map((j) => iso(j.nextRunAt)),
      ],
    );
  }

  /** The figures of every instance heard from within `freshSeconds`, but `except` (this instance: its own are fresher in memory). */
  async fresh(freshSeconds: number, except: string): Promise<InstanceJobFigures[]> {
    const rows = await this.tx.rows<Row>(
      `SELECT instance::text, name, mode, interval_seconds, state, runs, failures, last_started_at, last_duration_ms, last_error, next_run_at
         FROM job_states WHERE reported_at > now() - $1 * interval '1 second' AND instance <> $2::uuid`,
      [freshSeconds, except],
    );
    return rows.map((r) => ({
      instance: r.instance,
      name: r.name,
      mode: r.mode,
      intervalSeconds: r.interval_seconds,
      state: r.state,
      runs: Number(r.runs),
      failures: Number(r.failures),
      lastStartedAt: r.last_started_at,
      lastDurationMs: r.last_duration_ms,
      lastError: r.last_error,
      nextRunAt: r.next_run_at,
    }));
  }

  /** An instance stopping: its rows go. */
  async forget(instance: string): Promise<void> {
    await this.tx.exec(`DELETE FROM job_states WHERE instance = $1::uuid`, [instance]);
  }

  /** The rows of instances not heard from within `seconds` (killed, or cut off from the database); how many. */
  async forgetSilent(seconds: number): Promise<number> {
    return (await this.tx.exec(`DELETE FROM job_states WHERE reported_at < now() - $1 * interval '1 second'`, [seconds])).rowCount;
  }
}
