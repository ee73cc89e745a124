import { ApiProperty } from '@nestjs/swagger';
import { TASK_RUN_STATUSES, TaskRunEntity, TaskRunStatus } from '@app/entities';
import { iso } from '../../../common/values';

/** One firing of a task (GET /api/v3/tasks/{id}/runs/). */
export class TaskRunDto {
  @ApiProperty({ example: 17 }) id: number;
  @ApiProperty({ example: 3, description: 'task id' }) task: number;
  @ApiProperty({ example: '42', pattern: '^\\d{1,10}$', description: 'the agent it ran on' }) agent: string;
  @ApiProperty({ format: 'date-time', description: 'the due time of the schedule this run is for (one run per due time)' }) due_at: string;
  @ApiProperty({ format: 'date-time', description: 'when the server took it up' }) started_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'null while running' }) finished_at: string | null;
  @ApiProperty({
    enum: TASK_RUN_STATUSES,
    description:
      'running; succeeded (return code 0); failed (non-zero return code); timed_out (killed at the script\'s time-out, or no answer by then); agent_offline (the agent was not connected to the server that fired it: no script was sent; with queue_if_offline: its queued run expired); interrupted (the agent or the server went mid-run); queued (queue_if_offline: the agent was not connected at the due time, its script run waits for it; the run ends with that script run\'s outcome, failed when it is cancelled)',
  })
  status: TaskRunStatus;
  @ApiProperty({ nullable: true, type: Number, description: 'the script\'s return code; null when it has none (running, timed out, agent offline, interrupted)' }) retcode: number | null;
  @ApiProperty({ description: 'at most 64 KiB; stdout_truncated says when it was cut' }) stdout: string;
  @ApiProperty({ description: 'at most 64 KiB; stderr_truncated says when it was cut' }) stderr: string;
  @ApiProperty() stdout_truncated: boolean;
  @ApiProperty() stderr_truncated: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'the script run that carried it (GET /api/v3/agents/{agent_id}/runs/{run_id}/; its live output is the events WebSocket\'s script.output); null when none was sent' })
  script_run: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'agent refused: interpreter not found: cmd', description: 'why the run did not succeed (the reason its task_failure alert gives); null for a run that succeeded or is running' })
  error: string | null;
}

export const toTaskRunDto = (r: TaskRunEntity): TaskRunDto => ({
  id: r.id,
  task: r.taskId,
  agent: String(r.agentId),
  due_at: r.dueAt.toISOString(),
  started_at: r.startedAt.toISOString(),
  finished_at: iso(r.finishedAt),
  status: r.status,
  retcode: r.retcode,
  stdout: r.stdout,
  stderr: r.stderr,
  stdout_truncated: r.stdoutTruncated,
  stderr_truncated: r.stderrTruncated,
  error: r.error,
  script_run: r.scriptRunId,
});
