import { Logger } from '@nestjs/common';
import type { JobMode, JobState } from '@app/entities';
import type { Job, JobSchedule } from '../common/jobs/jobs';

/** Failures in a row after which a job is `degraded` (in GET /api/v3/system/jobs/ and /readyz); one success ends it. */
export const DEGRADED_AFTER_FAILURES = 3;
/** The jitter when a job names none: each wait is its interval ± 10 %. */
export const DEFAULT_JITTER = 0.1;
/** While a job keeps failing, its failure is logged again at most this often (a 1 s job failing is not 60 lines a minute). */
const FAILURE_LOG_EVERY_MS = 60_000;
/** The longest error message kept (the endpoint shows it, the state table stores it). */
const MAX_ERROR_LENGTH = 1_000;

/** A job's figures on this instance, as GET /api/v3/system/jobs/ shows them. */
export interface JobFigures {
  name: string;
  mode: JobMode;
  intervalSeconds: number;
  state: JobState;
  /** Runs started here (a cluster-once job's ticks where another instance leads it are not runs). */
  runs: number;
  failures: number;
  lastStartedAt: Date | null;
  lastDurationMs: number | null;
  /** The last run's error (null once a run succeeds). */
  lastError: string | null;
  /** When its timer fires next; null while it runs, and once stopped. */
  nextRunAt: Date | null;
}

/** What a job needs of its registry: a timer by name, whether this instance leads a cluster-once job, and the bounds. */
export interface JobEnvironment {
  /** Arms the job's one timer (`fire` after `ms`); `clear` disarms it. */
  timers: { set(name: string, fire: () => void, ms: number): void; clear(name: string): void };
  /** True when this instance leads the job now (takes the lead when nobody has it); throws when it cannot tell. */
  lead(name: string): Promise<boolean>;
  /** How long stop() waits for a run under way. */
  stopWaitMs: number;
  /** 0 ≤ x < 1 (Math.random; a test gives its own). */
  random(): number;
  logger: Logger;
}

/** The wait before a run: the interval ± `jitter` of it, `random` in [0, 1) picking where. */
export function jittered(intervalMs: number, jitter: number, random: number): number {
  return intervalMs * (1 + jitter * (2 * random - 1));
}

/**
 * One job of the registry: its timer, single-flight runs, the leadership check of a cluster-once job, its figures.
 * The wait starts when a run ends, so two runs never overlap here; a run asked for (runNow) while one runs is made
 * once right after it.
 */
export class ScheduledJob implements Job {
  readonly mode: JobMode;
  readonly intervalMs: number;
  private readonly jitter: number;
  private readonly atStart: boolean;
  private runs = 0;
  private failures = 0;
  private failuresInARow = 0;
  /** (times as epoch milliseconds: a tick makes no Date) */
  private lastStartedAt: number | null = null;
  private lastDurationMs: number | null = null;
  private lastError: string | null = null;
  private lastFailureLogged = 0;
  private nextRunAt: number | null = null;
  /** The run under way, and the one asked for meanwhile. */
  private current?: Promise<void>;
  private again?: Promise<void>;
  private armed = false;
  /** idle: registered, not started (runNow still works: the CLI, the medium tier); stopped: nothing more runs. */
  private phase: 'idle' | 'started' | 'stopped' = 'idle';

  constructor(
    readonly name: string,
    schedule: JobSchedule,
    private readonly work: () => unknown,
    private readonly env: JobEnvironment,
  ) {
    this.mode = schedule.mode;
    this.intervalMs = schedule.seconds * 1000;
    this.jitter = schedule.jitter ?? DEFAULT_JITTER;
    this.atStart = schedule.atStart ?? false;
  }

  get state(): JobState {
    return this.failuresInARow >= DEGRADED_AFTER_FAILURES ? 'degraded' : 'ok';
  }

  figures(): JobFigures {
    return {
      name: this.name,
      mode: this.mode,
      intervalSeconds: this.intervalMs / 1000,
      state: this.state,
      runs: this.runs,
      failures: this.failures,
      lastStartedAt: this.lastStartedAt === null ? null : new Date(this.lastStartedAt),
      lastDurationMs: this.lastDurationMs,
      lastError: this.lastError,
      nextRunAt: this.nextRunAt === null ? null : new Date(this.nextRunAt),
    };
  }

  start(): void {
    if (this.phase !== 'idle') return;
    this.phase = 'started';
    this.arm(this.atStart ? 0 : this.wait());
  }

  runNow(): Promise<void> {
    if (this.phase === 'stopped') return Promise.resolve();
    if (this.again) return this.again;
    if (!this.current) return this.begin();
    this.again = this.current.then(() => {
      this.again = undefined;
      return this.phase === 'stopped' ? undefined : this.begin();
    });
    return this.again;
  }

  async idle(): Promise<void> {
    for (let under = this.again ?? this.current; under; under = this.again ?? this.current) await under;
  }

  async stop(): Promise<void> {
    this.phase = 'stopped';
    if (this.armed) {
      this.armed = false;
      this.env.timers.clear(this.name);
    }
    this.nextRunAt = null;
    const under = this.again ?? this.current;
    if (!under) return;
    let timer: NodeJS.Timeout | undefined;
    // (a timer that bounds this one wait)
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.env.stopWaitMs)));
    const ended = await Promise.race([under.then(() => 'ended' as const), late]);
    clearTimeout(timer);
    if (ended === 'late') this.env.logger.warn(`${this.name}: still running after ${this.env.stopWaitMs} ms, not waited for`);
  }

  private wait(): number {
    return jittered(this.intervalMs, this.jitter, this.env.random());
  }

  private arm(ms: number): void {
    this.armed = true;
    this.nextRunAt = Date.now() + ms;
    this.env.timers.set(this.name, this.fire, ms);
  }

  /** The timer fired: run (or join the run asked for meanwhile), then wait again from its end. */
  private readonly fire = (): void => {
    this.armed = false;
    this.nextRunAt = null;
    void this.runNow().then(() => {
      if (this.phase === 'started' && !this.armed) this.arm(this.wait());
    });
  };

  private begin(): Promise<void> {
    const run = this.execute().finally(() => {
      if (this.current === run) this.current = undefined;
    });
    this.current = run;
    return run;
  }

  /** One run: the lead first for a cluster-once job; whatever it throws is counted here, never thrown on. */
  private async execute(): Promise<void> {
    const startedAt = Date.now();
    const started = performance.now();
    try {
      if (this.mode === 'cluster-once' && !(await this.env.lead(this.name))) return;
    } catch (err) {
      this.counted(startedAt, started, new Error(`could not tell whether this instance leads it: ${(err as Error).message}`));
      return;
    }
    this.lastStartedAt = startedAt;
    try {
      await this.work();
      this.counted(startedAt, started);
    } catch (err) {
      this.counted(startedAt, started, err);
    }
  }

  private counted(startedAt: number, started: number, err?: unknown): void {
    this.runs++;
    this.lastStartedAt = startedAt;
    this.lastDurationMs = Math.round((performance.now() - started) * 100) / 100;
    if (err === undefined) {
      if (this.failuresInARow >= DEGRADED_AFTER_FAILURES) this.env.logger.log(`${this.name}: ok again after ${this.failuresInARow} failures in a row`);
      this.failuresInARow = 0;
      this.lastError = null;
      return;
    }
    this.failures++;
    this.failuresInARow++;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR_LENGTH);
    this.lastError = message;
    const now = Date.now();
    if (this.failuresInARow === DEGRADED_AFTER_FAILURES) {
      this.env.logger.error(`${this.name}: degraded, ${DEGRADED_AFTER_FAILURES} failures in a row: ${message}`);
      this.lastFailureLogged = now;
    } else if (this.failuresInARow === 1 || now - this.lastFailureLogged >= FAILURE_LOG_EVERY_MS) {
      this.env.logger.warn(`${this.name} failed: ${message}`);
      this.lastFailureLogged = now;
    }
  }
}
