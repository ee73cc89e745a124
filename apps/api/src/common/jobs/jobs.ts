import type { JobMode } from '@app/entities';

/**
 * The periodic-job registry, as every loop of the server sees it: a port, so that anything from the ground up (the
 * rate limiter here, every feature) registers its loops without importing the registry, which needs the database
 * and sits above common/ (apps/api/src/jobs/, provided by JobsModule). No other code runs a timer loop.
 */
export type { JobMode };

export interface JobSchedule {
  /** The time between the end of one run and the start of the next (sub-second intervals allowed). */
  seconds: number;
  /** every-instance: the job acts on what this instance holds; cluster-once: one instance at a time does it for all. */
  mode: JobMode;
  /** Each wait is the interval ± this fraction of it, at random (default 0.1; 0: none; at most 0.5). */
  jitter?: number;
  /** The first run as soon as the registry starts (default: one interval after). */
  atStart?: boolean;
}

/** What registering a job gives back: runs outside the schedule, and its own stop. */
export interface Job {
  /**
   * Runs the job now on this instance, or once more right after the run under way (any number of calls meanwhile
   * make one run), whatever the schedule; resolves when that run has ended, and never rejects (a failure is counted
   * and logged like a scheduled run's). A cluster-once job runs only where this instance leads it. Nothing after
   * stop().
   */
  runNow(): Promise<void>;
  /** Resolves when no run of it is under way or asked for on this instance. */
  idle(): Promise<void>;
  /** Stops its timer; resolves once the run under way has ended, or after the registry's stop bound. */
  stop(): Promise<void>;
}

export abstract class Jobs {
  /**
   * Registers a job: `run` every `schedule.seconds` (with jitter), one run at a time on this instance; a run that
   * throws (or rejects) is counted and logged, and the schedule goes on. The registry starts it with the app (at
   * once when registered later) and stops it at shutdown. `name` is unique: what GET /api/v3/system/jobs/ shows.
   */
  abstract every(name: string, schedule: JobSchedule, run: () => unknown): Job;
}
