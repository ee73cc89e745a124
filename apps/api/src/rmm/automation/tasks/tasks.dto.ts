import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { TaskEntity } from '@app/entities';
import { PageQueryDto } from '../../common/pagination.dto';
import { PG_INT_MAX, iso } from '../../../common/values';
import { AGENT_ID_SCHEMA, IsAgentId } from '../../common/agent-id';
import { IsOptionalNotNull } from '../../common/optional-not-null';

const QUEUE_IF_OFFLINE =
  'true: a run whose agent is not connected at its due time is queued for the agent (a queued script run, sent when it next connects, expiring after a day) and the task run, status queued, ends with that run\'s outcome; false: it ends agent_offline at once';

const SKIP_IN_MAINTENANCE =
  'true: while the agent is in maintenance (docs/policies.md, "Maintenance"), a due run is recorded with status skipped and not sent; false: it runs as usual';

export class TaskFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ ...AGENT_ID_SCHEMA, description: 'agent id' })
  @IsOptional()
  @IsAgentId()
  agent?: string;
}

export const PREVIEW_RUNS = 5;

export class SchedulePreviewQueryDto {
  @ApiProperty({ example: '0 3 * * 1-5', maxLength: 200, description: 'A cron expression in UTC, as a task\'s schedule' })
  @IsString()
  @MaxLength(200)
  schedule: string;
}

/** The next due times of a schedule, as a task with it would run (GET /api/v3/tasks/schedule-preview/). */
export class SchedulePreviewDto {
  @ApiProperty({ example: '0 3 * * 1-5' }) schedule: string;
  @ApiProperty({
    type: [String],
    format: 'date-time',
    description: `The next ${PREVIEW_RUNS} due times after now (UTC), the first being the next_run_at a task with this schedule would get`,
    example: ['2026-11-30T03:00:00.000Z', '2026-12-01T03:00:00.000Z'],
  })
  next_runs: string[];
}

export class CreateTaskDto {
  @ApiProperty({ example: 'Nightly cleanup', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ ...AGENT_ID_SCHEMA, example: '42', description: 'agent id' })
  @IsDefined()
  @IsAgentId()
  agent: string;

  @ApiProperty({ example: 3, description: 'script id' })
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  script: number;

  @ApiProperty({
    example: '0 3 * * *',
    description: 'Cron expression in UTC: 5 fields (minute hour day month weekday), or 6 whose first is seconds (`*/2 * * * * *`: every 2 seconds; every second is the finest)',
  })
  @IsString()
  @MaxLength(200)
  schedule: string;

  @ApiPropertyOptional({ default: true })
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ default: false, description: QUEUE_IF_OFFLINE })
  @IsOptionalNotNull()
  @IsBoolean()
  queue_if_offline?: boolean;
  @ApiPropertyOptional({ default: false, description: SKIP_IN_MAINTENANCE })
  @IsOptionalNotNull()
  @IsBoolean()
  skip_in_maintenance?: boolean;
}

export class UpdateTaskDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ description: 'script id' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  script?: number;

  @ApiPropertyOptional({ description: 'Cron expression in UTC: 5 fields, or 6 with seconds first; next_run_at restarts from now' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(200)
  schedule?: string;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ description: QUEUE_IF_OFFLINE })
  @IsOptionalNotNull()
  @IsBoolean()
  queue_if_offline?: boolean;
  @ApiPropertyOptional({ description: SKIP_IN_MAINTENANCE })
  @IsOptionalNotNull()
  @IsBoolean()
  skip_in_maintenance?: boolean;
}

export class TaskDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ example: '42' }) agent: string;
  @ApiProperty({ description: 'script id' }) script: number;
  @ApiProperty({ example: '0 3 * * *' }) schedule: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ description: QUEUE_IF_OFFLINE }) queue_if_offline: boolean;
  @ApiProperty({ description: SKIP_IN_MAINTENANCE }) skip_in_maintenance: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'Next run (UTC); null while disabled' }) next_run_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When the newest run started' }) last_run_at: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Return code of the newest finished run (null when it had none: timed out, agent offline, interrupted)' }) last_retcode: number | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export const toTaskDto = (t: TaskEntity): TaskDto => ({
  id: t.id,
  name: t.name,
  agent: String(t.agentId),
  script: t.scriptId,
  schedule: t.schedule,
  enabled: t.enabled,
  queue_if_offline: t.queueIfOffline,
  skip_in_maintenance: t.skipInMaintenance,
  next_run_at: iso(t.nextRunAt),
  last_run_at: iso(t.lastRunAt),
  last_retcode: t.lastRetcode,
  created_at: t.createdAt.toISOString(),
});
