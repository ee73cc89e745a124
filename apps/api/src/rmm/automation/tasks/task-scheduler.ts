import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { DomainError } from '../../../common/errors/domain-error';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { TransactionHost } from '../../../database/transaction-host';
import { AlertsService } from '../../alerting/alerts/alerts.service';
import { RmmEvents } from '../../common/bus/rmm-events';
import { NotificationOutbox } from '../../alerting/notifications/notification-outbox';
import { ScriptRunsErrorCode } from '../script-runs/script-runs.errors';
import { RUN_OUTPUT_CAP, ScriptRunsService } from '../script-runs/script-runs.service';
import { AgentReconnection } from './agent-reconnection';
import { nextAfterClaim } from './schedule';
import { ClaimedRun, EndedQueuedRun, TaskRunOutcome, TaskRunsRepository } from './task-runs.repository';

const STALE_SWEEP_MS = 60_000;
/** Queued task runs followed per tick (the rest on the next). */
const FOLLOW_BATCH = 100;
/** The severity of a task_failure alert (tasks have no severity of their own). */
export const TASK_FAILURE_SEVERITY = 'warning';

const cap = (text: string): { text: string; truncated: boolean } => ({ text: text.slice(0, RUN_OUTPUT_CAP), truncated: text.length > RUN_OUTPUT_CAP });

/**
 * Tasks that fire: every RMM_TASK_TICK_MS each instance (the job `tasks.claim`, on every instance: each claims for
 * its own free slots, and SKIP LOCKED spreads the due tasks over them) claims the tasks that are due in PostgreSQL (one
 * transaction: lock the due rows FOR UPDATE SKIP LOCKED, insert each one's task_runs row, advance next_run_at
 * past both the due time and now), then runs their scripts on their agents outside the transaction. A due time
 * has at most one run whatever the number of instances (the lock, and UQ_task_runs_due), and no timer in
 * memory decides anything: a restarted server picks up where the database says.
 */
@Injectable()
export class TaskScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('tasks');
  private readonly claimer: Job;
  private readonly sweeper: Job;
  private ticking?: Promise<void>;
  private stopped = false;
  /** Aborted at shutdown: runs still waiting for their agent after the start (agent-reconnection.ts) stop waiting. */
  private stopping = new AbortController();
  /** Runs this instance carries, by task_runs id. */
  private readonly inFlight = new Map<number, { run: ClaimedRun; done: Promise<void> }>();

  constructor(
    private readonly repo: TaskRunsRepository,
    private readonly tx: TransactionHost,
    private readonly scriptRuns: ScriptRunsService,
    private readonly alerts: AlertsService,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
    private readonly config: RuntimeConfig,
    private readonly reconnection: AgentReconnection,
    private readonly outbox: NotificationOutbox,
    jobs: Jobs,
  ) {
    this.claimer = jobs.every('tasks.claim', { seconds: config.taskTickMs / 1000, mode: 'every-instance' }, () => this.tick());
    // At start and every minute, once across the cluster: runs left `running` by a server that died.
    this.sweeper = jobs.every('tasks.stale-runs', { seconds: STALE_SWEEP_MS / 1000, mode: 'cluster-once', atStart: true }, () => this.sweep());
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.stopping = new AbortController();
  }

  /**
   * Stops claiming; runs still in flight here, those waiting for their agent included, are recorded interrupted
   * (their answers will not be heard).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.claimer.stop(), this.sweeper.stop()]);
    await this.ticking;
    const now = this.clock.now();
    const carried = [...this.inFlight.values()];
    this.stopping.abort();
    await Promise.all(
      carried.map(({ run }) =>
        this.finish(run, { status: 'interrupted', retcode: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, finishedAt: now }, 'the server stopped mid-run').catch(
          (err: Error) => this.logger.warn(`task run ${run.runId} not closed: ${err.message}`),
        ),
      ),
    );
  }

  /** One claim now (then on schedule); resolves when the claimed runs have been started, not finished. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.ticking) return this.ticking;
    this.ticking = this.claimAndStart().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  /** Resolves when every run this instance carries has finished (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  private async claimAndStart(): Promise<void> {
    await this.followQueued().catch((err: Error) => this.logger.warn(`queued task runs not followed: ${err.message}`));
    const free = this.config.taskMaxConcurrentRuns - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await this.claim(free);
    for (const run of claimed) {
      const done = this.carry(run)
        .catch(async (err: Error) => {
          // (the database, most likely): closed as failed if it can be, else the stale sweep closes it later
          this.logger.warn(`task run ${run.runId} (task ${run.taskId}) failed: ${err.message}`);
          await this.finish(run, this.outcome('failed'), 'the server could not carry it').catch(() => undefined);
        })
        .finally(() => this.inFlight.delete(run.runId));
      this.inFlight.set(run.runId, { run, done });
    }
  }

  /**
   * The claiming transaction: lock due tasks, one run row per due time, next_run_at moved past now. A task that skips
   * maintenance, whose agent is in it, gets its run recorded `skipped` here and is not carried.
   */
  private claim(limit: number): Promise<ClaimedRun[]> {
    return this.tx.run(async () => {
      const now = this.clock.now();
      const due = await this.repo.lockDue(now, limit);
      const claimed: ClaimedRun[] = [];
      for (const task of due) {
        let next: Date | null;
        try {
          next = nextAfterClaim(task.schedule, task.dueAt, now);
        } catch {
          next = null; // a schedule that no longer parses (written around the API): the task stops, it does not spin
          this.logger.warn(`task ${task.id} has an invalid schedule; it will not run again until it is changed`);
        }
        if (task.skip) {
          // skip_in_maintenance: the due time is recorded, nothing is sent, no alert either way.
          const skipped = await this.repo.insertSkipped(task, now);
          await this.repo.advance(task.id, next, null);
          if (skipped !== null) this.events.emit('task.run', { agentId: task.agentId, taskId: task.id, runId: skipped, status: 'skipped', retcode: null });
          continue;
        }
        const runId = await this.repo.insertRun(task, now);
        await this.repo.advance(task.id, next, runId === null ? null : now);
        if (runId !== null) {
          claimed.push({ runId, taskId: task.id, taskName: task.name, agentId: task.agentId, scriptId: task.scriptId, dueAt: task.dueAt, startedAt: now, queueIfOffline: task.queueIfOffline });
        }
      }
      return claimed;
    });
  }

  /** Runs the task's script on its agent (through script runs, so it streams like runscript) and records the end. */
  private async carry(run: ClaimedRun): Promise<void> {
    this.events.emit('task.run', { agentId: run.agentId, taskId: run.taskId, runId: run.runId, status: 'running', retcode: null });
    if (!(await this.agentBack(run))) return;
    const script = await this.repo.script(run.scriptId);
    if (!script) {
      await this.finish(run, this.outcome('failed'), `its script ${run.scriptId} is gone`);
      return;
    }
    const result = await this.scriptRuns.runForServer(run.agentId, script, (scriptRunId) => this.repo.setScriptRun(run.runId, scriptRunId));
    if (!result.sent && run.queueIfOffline) {
      // queue_if_offline: the run waits in the agent's queue; followQueued ends it with that run's outcome. The queued
      // script run and the task run pointing at it are written together (and announced, script.queued then task.run,
      // once both are there): never a queued script run that its task run does not know, nor the reverse.
      try {
        await this.tx.run(async () => {
          const queued = await this.scriptRuns.enqueue(run.agentId, script, { requestedByKeyId: null });
          await this.repo.markQueued(run.runId, queued.id);
          this.events.emit('task.run', { agentId: run.agentId, taskId: run.taskId, runId: run.runId, status: 'queued', retcode: null });
        });
      } catch (err) {
        // The agent's queue is at its bound (RMM_QUEUE_MAX_PER_AGENT, or its bytes): the run is not queued.
        if (!(err instanceof DomainError && err.code === ScriptRunsErrorCode.QueueFull)) throw err;
        await this.finish(run, this.outcome('agent_offline'), `the agent was not connected at ${run.dueAt.toISOString()} and has too many queued runs`);
      }
      return;
    }
    if (!result.sent) {
      await this.finish(run, this.outcome('agent_offline'), `the agent was not connected at ${run.dueAt.toISOString()}`);
      return;
    }
    const ended = this.fromScriptRun({ ...result.outcome, timeoutSeconds: result.timeoutSeconds });
    await this.finish(run, ended.outcome, ended.reason);
  }

  /**
   * The task run's outcome from its script run's: succeeded for return code 0, else failed, timed_out,
   * interrupted; a queued script run that expired: agent_offline; one cancelled: failed (no alert: an operator
   * decided it). `reason` (a failure's, for its alert and `error`) is undefined for a success.
   */
  private fromScriptRun(
    o: Pick<EndedQueuedRun, 'status' | 'retcode' | 'stdout' | 'stderr' | 'stdoutTruncated' | 'stderrTruncated' | 'error' | 'timeoutSeconds'>,
  ): { outcome: TaskRunOutcome; reason?: string; alert: boolean } {
    const stdout = cap(o.stdout);
    const stderr = cap(o.stderr);
    const base = { stdout: stdout.text, stderr: stderr.text, stdoutTruncated: o.stdoutTruncated || stdout.truncated, stderrTruncated: o.stderrTruncated || stderr.truncated, finishedAt: this.clock.now() };
    switch (o.status) {
      case 'finished':
        if (o.retcode === 0) return { outcome: { ...base, status: 'succeeded', retcode: 0 }, alert: true };
        return { outcome: { ...base, status: 'failed', retcode: o.retcode }, reason: o.retcode === null ? 'it ended without a return code' : `it exited with ${o.retcode}`, alert: true };
      case 'timed_out':
        return { outcome: { ...base, status: 'timed_out', retcode: null }, reason: `it timed out after ${o.timeoutSeconds} s`, alert: true };
      case 'failed':
        return { outcome: { ...base, status: 'failed', retcode: null }, reason: o.error ?? 'the agent could not run it', alert: true };
      case 'expired':
        return { outcome: this.outcome('agent_offline'), reason: 'the agent did not connect before its queued run expired', alert: true };
      case 'cancelled':
        return { outcome: this.outcome('failed'), reason: 'its queued run was cancelled', alert: false };
      case 'interrupted':
      case 'queued':
      case 'running':
        return { outcome: { ...base, status: 'interrupted', retcode: null }, reason: 'the agent went away mid-run', alert: true };
    }
  }

  /**
   * Queued task runs (queue_if_offline) whose script run has ended, on whichever instance: each ends with that
   * run's outcome, once (TaskRunsRepository.finish changes a queued run once). Derived from the database on
   * every tick, so a restart or another instance sending the run changes nothing.
   */
  private async followQueued(): Promise<void> {
    for (const q of await this.repo.endedQueued(FOLLOW_BATCH)) {
      const ended = this.fromScriptRun(q);
      await this.finish(q, ended.outcome, ended.reason, ended.alert);
    }
  }

  /**
   * Just after a start, a run whose agent is not connected yet waits for it to reconnect (agent-reconnection.ts;
   * the run holds its slot meanwhile). False when the server is stopping: beforeApplicationShutdown records it.
   */
  private async agentBack(run: ClaimedRun): Promise<boolean> {
    await this.reconnection.waitFor(run.agentId, this.stopping.signal);
    return !this.stopped;
  }

  private outcome(status: TaskRunOutcome['status']): TaskRunOutcome {
    return { status, retcode: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, finishedAt: this.clock.now() };
  }

  /**
   * Records the end of a run (once: a run already closed, e.g. at shutdown, is left alone), announces task.run,
   * and opens the task's task_failure alert (`reason` given: the run failed) or resolves it (succeeded).
   */
  private async finish(run: Pick<ClaimedRun, 'runId' | 'taskId' | 'taskName' | 'agentId'>, outcome: TaskRunOutcome, reason?: string, alert = true): Promise<void> {
    // The run's end, its task.run notification (a run that did not succeed) and its task_failure alert (opened or
    // resolved) in one transaction: a run is never seen ended without its alert. task.run, then the alert's
    // event, are announced once it has committed.
    const closed = await this.tx.run(async () => {
      if (!(await this.repo.finish(run.runId, outcome, reason ?? null))) return false;
      if (outcome.status !== 'succeeded') await this.outbox.failedRuns([run.runId]);
      this.events.emit('task.run', { agentId: run.agentId, taskId: run.taskId, runId: run.runId, status: outcome.status, retcode: outcome.retcode });
      if (alert) await this.alertOn(run, outcome.status, reason);
      return true;
    });
    if (!closed) return;
    await this.repo.prune(run.taskId).catch((err: Error) => this.logger.warn(`task ${run.taskId} runs not pruned: ${err.message}`));
  }

  private async alertOn(run: Pick<ClaimedRun, 'taskId' | 'taskName' | 'agentId'>, status: TaskRunOutcome['status'], reason: string | undefined): Promise<void> {
    if (status === 'succeeded') {
      await this.alerts.resolveBySystem({ alertType: 'task_failure', id: run.taskId });
      return;
    }
    await this.alerts.raise({
      alertType: 'task_failure',
      agentId: run.agentId,
      taskId: run.taskId,
      severity: TASK_FAILURE_SEVERITY,
      message: `Task "${run.taskName}" ${status === 'agent_offline' ? 'could not run' : 'failed'}: ${reason ?? status}`,
    });
  }

  /** Runs left `running` by a server that died are closed as interrupted (and alert like any failed run). */
  private async sweep(): Promise<void> {
    await this.tx.run(async () => {
      const runs = await this.repo.interruptStale(this.clock.now(), this.config.agentOfflineAfterSeconds);
      await this.outbox.failedRuns(runs.map((r) => r.runId));
      for (const run of runs) {
        this.events.emit('task.run', { agentId: run.agentId, taskId: run.taskId, runId: run.runId, status: 'interrupted', retcode: null });
        await this.alertOn(run, 'interrupted', 'the server carrying it stopped mid-run');
      }
    });
  }
}
