import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { ScriptEntity, ScriptRunStatus, TaskRunEntity, TaskRunStatus } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { IN_MAINTENANCE } from '../../common/maintenance';
import { Page } from '../../common/pagination.dto';

/** A task whose due time has come, locked by the claiming transaction. */
export interface DueTask {
  id: number;
  name: string;
  agentId: number;
  scriptId: number;
  schedule: string;
  dueAt: Date;
  queueIfOffline: boolean;
  /** skip_in_maintenance and its agent is in maintenance now: the due time is recorded `skipped`, nothing is sent. */
  skip: boolean;
}

/** A run just claimed: its row exists (status running), the task has moved on to its next due time. */
export interface ClaimedRun {
  runId: number;
  taskId: number;
  taskName: string;
  agentId: number;
  scriptId: number;
  dueAt: Date;
  startedAt: Date;
  queueIfOffline: boolean;
}

/** A queued task run whose script run has ended (queue_if_offline): what the task run's outcome follows. */
export interface EndedQueuedRun {
  runId: number;
  taskId: number;
  taskName: string;
  agentId: number;
  scriptRunId: number;
  status: ScriptRunStatus;
  retcode: number | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timeoutSeconds: number;
  error: string | null;
}

export interface TaskRunOutcome {
  status: Exclude<TaskRunStatus, 'running' | 'queued'>;
  retcode: number | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  finishedAt: Date;
}

/** A run some server left `running` and the sweep closed. */
export interface SweptRun {
  runId: number;
  taskId: number;
  taskName: string;
  agentId: number;
}

/** The `error` of a run skipped for maintenance: why it did not run. */
const SKIPPED_REASON = 'skipped: the agent was in maintenance';

/** Runs kept per task (the oldest finished ones beyond it are deleted as new ones finish). */
export const TASK_RUNS_KEPT = 200;
/** Seconds past a run's script time-out after which a run still `running` is taken for dead (as script runs'). */
const STALE_AFTER_TIMEOUT_SECONDS = 65;

@Injectable()
export class TaskRunsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get runs(): Repository<TaskRunEntity> {
    return this.tx.repo(TaskRunEntity);
  }

  /**
   * Inside the claiming transaction: the enabled tasks due at `now`, oldest due first, locked (FOR UPDATE
   * SKIP LOCKED: another instance claiming at the same moment takes other tasks, or none). A task whose
   * previous run is still running (or queued for its agent) is not due yet: it waits for that run to end (one
   * run of a task at a time; an offline agent's queue holds at most one run of each task). `skip`: the task skips
   * maintenance and its agent is in it.
   */
  lockDue(now: Date, limit: number): Promise<DueTask[]> {
    return this.tx.rows<DueTask>(
      `SELECT t.id, t.name, t.agent_id AS "agentId", t.script_id AS "scriptId", t.schedule, t.next_run_at AS "dueAt", t.queue_if_offline AS "queueIfOffline",
              (t.skip_in_maintenance AND EXISTS (SELECT 1 FROM agents a WHERE a.id = t.agent_id AND ${IN_MAINTENANCE})) AS skip
         FROM tasks t WHERE t.enabled AND t.next_run_at <= $1
          AND NOT EXISTS (SELECT 1 FROM task_runs r WHERE r.task_id = t.id AND r.status IN ('running', 'queued'))
        ORDER BY t.next_run_at, t.id LIMIT $2 FOR UPDATE OF t SKIP LOCKED`,
      [now, limit],
    );
  }

  /** The run of a due time; null when that due time already has one (UQ_task_runs_due: never two). */
  async insertRun(task: DueTask, startedAt: Date): Promise<number | null> {
    const rows = await this.tx.rows<{ id: number }>(
      `WITH created AS (
         INSERT INTO task_runs (task_id, agent_id, due_at, started_at, status) VALUES ($1, $2, $3, $4, 'running')
         ON CONFLICT ON CONSTRAINT "UQ_task_runs_due" DO NOTHING RETURNING id)
       SELECT id FROM created`,
      [task.id, task.agentId, task.dueAt, startedAt],
    );
    return rows[0]?.id ?? null;
  }

  /** The due time's run, recorded `skipped` (its agent is in maintenance); null when that due time already has a run. */
  async insertSkipped(task: DueTask, at: Date): Promise<number | null> {
    const rows = await this.tx.rows<{ id: number }>(
      `WITH created AS (
         INSERT INTO task_runs (task_id, agent_id, due_at, started_at, finished_at, status, error) VALUES ($1, $2, $3, $4, $4, 'skipped', $5)
         ON CONFLICT ON CONSTRAINT "UQ_task_runs_due" DO NOTHING RETURNING id)
       SELECT id FROM created`,
      [task.id, task.agentId, task.dueAt, at, SKIPPED_REASON],
    );
    return rows[0]?.id ?? null;
  }

  /** Moves the task to its next due time (null: it has none) and records when it last ran. */
  async advance(taskId: number, nextRunAt: Date | null, ranAt: Date | null): Promise<void> {
    await this.tx.exec(`UPDATE tasks SET next_run_at = $2, last_run_at = COALESCE($3, last_run_at) WHERE id = $1`, [taskId, nextRunAt, ranAt]);
  }

  script(id: number): Promise<ScriptEntity | null> {
    return this.tx.repo(ScriptEntity).findOneBy({ id });
  }

  async setScriptRun(runId: number, scriptRunId: number): Promise<void> {
    await this.runs.update({ id: runId }, { scriptRunId });
  }

  /** The run waits for its agent: its script run is queued (queue_if_offline). */
  async markQueued(runId: number, scriptRunId: number): Promise<void> {
    await this.tx.exec(`UPDATE task_runs SET status = 'queued', script_run_id = $2 WHERE id = $1 AND status = 'running'`, [runId, scriptRunId]);
  }

  /** Queued task runs whose script run has ended (IDX_task_runs_queued), oldest first. */
  endedQueued(limit: number): Promise<EndedQueuedRun[]> {
    return this.tx.rows<EndedQueuedRun>(
      `SELECT r.id AS "runId", r.task_id AS "taskId", t.name AS "taskName", r.agent_id AS "agentId", s.id AS "scriptRunId", s.status, s.retcode,
              s.stdout, s.stderr, s.stdout_truncated AS "stdoutTruncated", s.stderr_truncated AS "stderrTruncated", s.timeout_seconds AS "timeoutSeconds", s.error
         FROM task_runs r JOIN script_runs s ON s.id = r.script_run_id JOIN tasks t ON t.id = r.task_id
        WHERE r.status = 'queued' AND s.status NOT IN ('queued', 'running')
        ORDER BY r.id LIMIT $1`,
      [limit],
    );
  }

  /**
   * Records the end of a run still `running` or `queued` (an outcome never overwrites another); false when it had one
   * already. The task's last_retcode follows, unless a later run of it has started since.
   */
  async finish(runId: number, outcome: TaskRunOutcome, error: string | null = null): Promise<boolean> {
    const rows = await this.tx.rows<{ taskId: number }>(
      `WITH changed AS (
         UPDATE task_runs SET status = $2, retcode = $3, stdout = $4, stderr = $5, stdout_truncated = $6, stderr_truncated = $7, finished_at = $8, error = $9
          WHERE id = $1 AND status IN ('running', 'queued') RETURNING task_id, started_at)
       , task AS (
         UPDATE tasks t SET last_retcode = $3 FROM changed c
          WHERE t.id = c.task_id AND (t.last_run_at IS NULL OR t.last_run_at <= c.started_at) RETURNING t.id)
       SELECT task_id AS "taskId" FROM changed`,
      [runId, outcome.status, outcome.retcode, outcome.stdout, outcome.stderr, outcome.stdoutTruncated, outcome.stderrTruncated, outcome.finishedAt, error],
    );
    return rows.length > 0;
  }

  /** Keeps the newest TASK_RUNS_KEPT runs of a task (never one still running or queued). */
  async prune(taskId: number): Promise<void> {
    await this.tx.exec(
      `DELETE FROM task_runs WHERE task_id = $1 AND status NOT IN ('running', 'queued')
          AND id <= (SELECT id FROM task_runs WHERE task_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
      [taskId, TASK_RUNS_KEPT],
    );
  }

  /**
   * Runs nobody will finish (their server died): still running 65 s past their script's time-out (a run that
   * never got to send its script: 65 s after it started), plus `waitSeconds`: a run claimed just after a start
   * may wait that long for its agent to reconnect before it sends its script (agent-reconnection.ts). Safe on
   * several instances: a run another instance still waits for is younger than that.
   */
  interruptStale(now: Date, waitSeconds: number): Promise<SweptRun[]> {
    return this.tx.rows<SweptRun>(
      `WITH changed AS (
         UPDATE task_runs r SET status = 'interrupted', finished_at = $1
          WHERE r.status = 'running'
            AND r.started_at + (COALESCE((SELECT s.timeout_seconds FROM script_runs s WHERE s.id = r.script_run_id), 0) + ${STALE_AFTER_TIMEOUT_SECONDS} + $2) * interval '1 second' < $1
         RETURNING r.id, r.task_id, r.agent_id)
       SELECT c.id AS "runId", c.task_id AS "taskId", c.agent_id AS "agentId", t.name AS "taskName"
         FROM changed c JOIN tasks t ON t.id = c.task_id`,
      [now, waitSeconds],
    );
  }

  /** A task's runs, newest first (IDX_task_runs_task). */
  list(taskId: number, page: Page): Promise<[TaskRunEntity[], number]> {
    return this.runs.findAndCount({ where: { taskId }, order: { id: 'DESC' }, skip: page.offset, take: page.limit });
  }

  findById(taskId: number, id: number): Promise<TaskRunEntity | null> {
    return this.runs.findOneBy({ taskId, id });
  }
}
