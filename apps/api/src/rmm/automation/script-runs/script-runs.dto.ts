import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { SCRIPT_OUTPUT_MODES, SCRIPT_RUN_STATUSES, ScriptOutputMode, ScriptRunEntity, ScriptRunStatus } from '@app/entities';
import { iso, PG_INT_MAX } from '../../../common/values';
import { IsOptionalNotNull } from '../../common/optional-not-null';
import { PageQueryDto } from '../../common/pagination.dto';

/** How long a queued run waits for its agent unless told otherwise (runscript's expires_in), in seconds: a day. */
export const QUEUE_EXPIRES_IN_DEFAULT = 86_400;
/** The longest a queued run may wait (expires_in), in seconds: a week. */
export const QUEUE_EXPIRES_IN_MAX = 604_800;

/** The answer of runscript with output wait or collector, once the script has finished. */
export class ScriptRunResultDto {
  @ApiProperty({ example: 17, description: 'the run id (GET /api/v3/agents/{agent_id}/runs/{run_id}/)' }) id: number;
  @ApiProperty({ example: '1.532', description: 'seconds' }) execution_time: string;
  @ApiProperty({ nullable: true, type: Number, description: 'null when the script was killed at its time-out' }) retcode: number | null;
  @ApiProperty() stdout: string;
  @ApiProperty() stderr: string;
  @ApiProperty({ description: 'true when the agent killed the script at its time-out' }) timed_out: boolean;
}

/** The answer of runscript with output forget (accepted, running), or with queue: true for an agent not connected (queued). */
export class ScriptRunAcceptedDto {
  @ApiProperty({ example: 17 }) id: number;
  @ApiProperty({ enum: ['running', 'queued'], example: 'running', description: 'running: sent to the agent; queued: waits for the agent to connect' }) status: 'running' | 'queued';
}

export class ScriptRunDto {
  @ApiProperty({ example: 17 }) id: number;
  @ApiProperty({ example: '42', pattern: '^\\d{1,10}$' }) agent: string;
  @ApiProperty({ nullable: true, type: Number, description: 'script id (null once unknown)' }) script: number | null;
  @ApiProperty({ example: 'Disk cleanup' }) script_name: string;
  @ApiProperty({ example: 'bash' }) shell: string;
  @ApiProperty({ type: [String] }) args: string[];
  @ApiProperty({ enum: SCRIPT_OUTPUT_MODES }) output: ScriptOutputMode;
  @ApiProperty({ example: 90 }) timeout: number;
  @ApiProperty({ nullable: true, type: Number, description: 'id of the API key that asked' }) requested_by_key: number | null;
  @ApiProperty({
    enum: SCRIPT_RUN_STATUSES,
    description:
      'queued (waits for its agent: runscript with queue: true, or a task with queue_if_offline), running, finished, failed, timed_out, interrupted; cancelled (a queued run cancelled by DELETE) and expired (a queued run whose expires_at passed first) were never sent',
  })
  status: ScriptRunStatus;
  @ApiProperty({ nullable: true, type: Number }) retcode: number | null;
  @ApiProperty({ description: 'at most 64 KiB; stdout_truncated says when it was cut' }) stdout: string;
  @ApiProperty() stderr: string;
  @ApiProperty() stdout_truncated: boolean;
  @ApiProperty() stderr_truncated: boolean;
  @ApiProperty() timed_out: boolean;
  @ApiProperty({ nullable: true, type: String, example: '1.532' }) execution_time: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'when it was sent to the agent; null while queued, and for a run never sent' }) started_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) finished_at: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'agent sent an invalid answer: /result/retcode must be <= 4294967295',
    description: 'why the run did not finish as the script ended it (agent refused, invalid answer, agent disconnected, no answer); null once finished or while running',
  })
  error: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'a queued run: when it stops waiting for its agent (then expired); null for a run sent at once' })
  expires_at: string | null;
}

export class ScriptRunFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SCRIPT_OUTPUT_MODES, description: 'e.g. collector: the newest collector run of a script is its latest value' })
  @IsOptional()
  @IsIn(SCRIPT_OUTPUT_MODES)
  output?: ScriptOutputMode;

  @ApiPropertyOptional({ description: 'script id' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  script?: number;

  @ApiPropertyOptional({ enum: SCRIPT_RUN_STATUSES, description: 'e.g. queued: the runs waiting for the agent to connect' })
  @IsOptional()
  @IsIn(SCRIPT_RUN_STATUSES)
  status?: ScriptRunStatus;
}

export const toScriptRunDto = (r: ScriptRunEntity): ScriptRunDto => ({
  id: r.id,
  agent: String(r.agentId),
  script: r.scriptId,
  script_name: r.scriptName,
  shell: r.shell,
  args: r.args,
  output: r.output,
  timeout: r.timeoutSeconds,
  requested_by_key: r.requestedByKeyId,
  status: r.status,
  retcode: r.retcode,
  stdout: r.stdout,
  stderr: r.stderr,
  stdout_truncated: r.stdoutTruncated,
  stderr_truncated: r.stderrTruncated,
  timed_out: r.timedOut,
  execution_time: r.executionTime === null ? null : r.executionTime.toFixed(3),
  created_at: r.createdAt.toISOString(),
  started_at: iso(r.startedAt),
  finished_at: iso(r.finishedAt),
  error: r.error,
  expires_at: iso(r.expiresAt),
});

/** The body of runscript (POST /api/v3/agents/{agent_id}/runscript/). */
export class RunScriptDto {
  @ApiProperty({ description: 'script id', example: 3 })
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  script: number;

  @ApiPropertyOptional({ enum: ['wait', 'forget', 'collector'], default: 'wait' })
  @IsOptionalNotNull()
  @IsIn(['wait', 'forget', 'collector'])
  output?: 'wait' | 'forget' | 'collector';

  @ApiPropertyOptional({
    example: 'site_code',
    description:
      'output collector only: the agent custom field the trimmed stdout (at most 4 KiB) is stored in when the run finishes with return code 0 (docs/custom-fields.md); a value the field refuses fails the run (422, the reason as detail)',
  })
  @IsOptionalNotNull()
  @IsString()
  @Matches(/^[a-z][a-z0-9_]{0,63}$/, { message: 'custom_field must be the name of an agent custom field' })
  custom_field?: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      "Arguments; default: the script's default args. {{agent.hostname}}, {{agent.<field>}}, {{site.name}}, {{site.<field>}}, {{client.name}}, {{client.<field>}} are filled in when the run is sent (docs/custom-fields.md); the run keeps them as given",
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(4096, { each: true })
  args?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 300, default: 90, description: 'seconds' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(300)
  timeout?: number;

  @ApiPropertyOptional({
    default: false,
    description:
      'true: an agent that is not connected gets the run when it next connects (202 {id, status: "queued"}, instead of 409), in the order queued, one at a time; a connected agent runs it at once as with output forget (202 {id, status: "running"}). output must then be forget or left out',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  queue?: boolean;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: QUEUE_EXPIRES_IN_MAX,
    default: QUEUE_EXPIRES_IN_DEFAULT,
    description: 'seconds a queued run waits for its agent before it becomes expired (never sent); only with queue: true',
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(QUEUE_EXPIRES_IN_MAX)
  expires_in?: number;
}
