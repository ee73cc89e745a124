import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Job, Jobs, JobSchedule } from '../common/jobs/jobs';
import { ThisInstance } from '../common/instance';
import { ClusterLeadership } from './cluster-leadership';
import { InstanceJobFigures, JobStatesRepository } from './job-states.repository';
import { JobEnvironment, ScheduledJob } from './scheduled-job';

/** How often each instance writes its jobs' figures to job_states (one statement for all of them). */
export const JOB_REPORT_SECONDS = 5;
/** An instance whose figures are older than this is not listed (it stopped, or lost the database). */
export const JOB_FRESH_SECONDS = 30;
/** Its rows are deleted after this long without news (a killed instance never deletes its own). */
export const JOB_FORGET_SECONDS = 60;
/** How long a stop waits for a job's run under way (at shutdown, each job; they stop side by side). */
export const JOB_STOP_WAIT_MS = 10_000;
const MAX_JITTER = 0.5;

/**
 * The one periodic-job registry (docs/decisions.md, "Periodic jobs"): every loop of the server is a job here, with a
 * name, an interval with jitter, one run at a time on its instance, and a mode: every instance, or once across the
 * cluster (ClusterLeadership: an advisory lock per job, taken over within one interval when its holder dies). It
 * starts the jobs with the app and stops them at shutdown, waiting for a run under way up to JOB_STOP_WAIT_MS. A
 * run that throws is counted (3 in a row: `degraded`) and the schedule goes on. Its timers are Nest's
 * (@nestjs/schedule's SchedulerRegistry, one timeout per job, re-armed after each run: the jitter and the wait from
 * a run's end need a new delay every time, which @Interval's fixed setInterval cannot give).
 *
 * Each instance writes its jobs' figures to job_states every JOB_REPORT_SECONDS (the job `jobs.report`), and
 * GET /api/v3/system/jobs/ reads them for every instance; a context that serves no HTTP (the operator CLI, the
 * medium tier) runs no job, though each can still be run by hand (runNow, or the service's own method).
 */
@Injectable()
export class JobRegistry extends Jobs implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('jobs');
  private readonly jobs = new Map<string, ScheduledJob>();
  private readonly env: JobEnvironment;
  private started = false;
  private stopped = false;

  constructor(
    private readonly timers: SchedulerRegistry,
    private readonly leadership: ClusterLeadership,
    private readonly states: JobStatesRepository,
    private readonly instance: ThisInstance,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    super();
    this.env = {
      timers: {
        set: (name, fire, ms) => {
          const key = timerKey(name);
          if (this.timers.doesExist('timeout', key)) this.timers.deleteTimeout(key);
          // (unref: a timer never keeps a stopping process alive)
          this.timers.addTimeout(key, setTimeout(fire, ms).unref());
        },
        clear: (name) => {
          const key = timerKey(name);
          if (this.timers.doesExist('timeout', key)) this.timers.deleteTimeout(key);
        },
      },
      lead: (name) => this.leadership.lead(name),
      stopWaitMs: JOB_STOP_WAIT_MS,
      random: Math.random,
      logger: this.logger,
    };
    this.every('jobs.report', { seconds: JOB_REPORT_SECONDS, mode: 'every-instance', atStart: true }, () => this.states.report(this.instance.id, this.figures()));
    this.every('jobs.forget-gone-instances', { seconds: JOB_FORGET_SECONDS, mode: 'cluster-once' }, () => this.states.forgetSilent(JOB_FORGET_SECONDS));
  }

  every(name: string, schedule: JobSchedule, run: () => unknown): Job {
    if (this.jobs.has(name)) throw new Error(`a job named ${name} is already registered`);
    if (!(Number.isFinite(schedule.seconds) && schedule.seconds > 0)) throw new Error(`job ${name}: its interval must be a positive number of seconds`);
    if (schedule.jitter !== undefined && !(schedule.jitter >= 0 && schedule.jitter <= MAX_JITTER)) throw new Error(`job ${name}: its jitter must be between 0 and ${MAX_JITTER}`);
    const job = new ScheduledJob(name, schedule, run, this.env);
    this.jobs.set(name, job);
    if (this.started && !this.stopped) job.start();
    return job;
  }

  onApplicationBootstrap(): void {
    if (!this.adapterHost.httpAdapter?.getHttpServer()) return; // (the CLI's context: a command, then exit)
    this.started = true;
    for (const job of this.jobs.values()) job.start();
  }

  /** Every job stops (a run under way ends first, up to JOB_STOP_WAIT_MS); this instance's rows go, its leads with its connection. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all([...this.jobs.values()].map((job) => job.stop()));
    if (!this.started) return;
    await this.states.forget(this.instance.id).catch((err: Error) => this.logger.warn(`job figures of this instance not removed: ${err.message}`));
    await this.leadership.release();
  }

  /** This instance's id (as job_states and the endpoint name it). */
  get instanceId(): string {
    return this.instance.id;
  }

  /** This instance's jobs, by name. */
  figures(): ReturnType<ScheduledJob['figures']>[] {
    return [...this.jobs.values()].map((job) => job.figures());
  }

  /** The names of this instance's degraded jobs (/readyz). */
  degraded(): string[] {
    return [...this.jobs.values()].filter((job) => job.state === 'degraded').map((job) => job.name);
  }

  /** Every job of every instance heard from lately (this instance's from memory, the others' from job_states), by name then instance. */
  async everywhere(): Promise<InstanceJobFigures[]> {
    const others = await this.states.fresh(JOB_FRESH_SECONDS, this.instance.id);
    const mine = this.figures().map((f) => ({ ...f, instance: this.instance.id }));
    return [...mine, ...others].sort((a, b) => (a.name === b.name ? compare(a.instance, b.instance) : compare(a.name, b.name)));
  }
}

const timerKey = (name: string): string => `job:${name}`;
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
