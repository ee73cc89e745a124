import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ALERT_SEVERITIES, AlertSeverity, CHECK_STATUSES, CHECK_TYPES, CheckEntity, CheckResultEntity, CheckStatus, CheckType } from '@app/entities';
import { PageQueryDto } from '../../common/pagination.dto';
import { AGENT_ID_SCHEMA, IsAgentId } from '../../common/agent-id';
import { IsOptionalNotNull } from '../../common/optional-not-null';
import { ItemSourceDto, toItemSource } from '../../common/resources/item-source.dto';

const SETTINGS_DOC =
  'Per check type: diskspace {drive: "C:" or "/", threshold_percent 1-99 (alert below this % free)}; ' +
  'ping {target: host or IP}; cpuload {threshold_percent 1-100}; memory {threshold_percent 1-100}; ' +
  'winsvc {service_name}; script {script: script id, args?: string[], timeout?: 1-300 s}; ' +
  'eventlog {log_name: Application|System|Security|Setup, event_id?, event_type?: error|warning|information, search_text?}';

export const RUN_INTERVAL_MIN = 5;
export const RUN_INTERVAL_MAX = 86_400;
export const RUN_INTERVAL_DEFAULT = 120;
const RUN_INTERVAL_DOC = 'Seconds between two runs on the agent (it adds ±10 % jitter); a new or changed check runs at once';
const SEVERITY_DOC = 'The severity of the check_failure alert this check opens';
const ENABLED_DOC =
  'false: the check keeps its settings and history but its agent stops running it, and its open check_failure alert is resolved by system; true again: the agent runs it at once';

export class CheckFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ ...AGENT_ID_SCHEMA, description: 'agent id', example: '42' })
  @IsOptional()
  @IsAgentId()
  agent?: string;
}

export class CreateCheckDto {
  @ApiProperty({ ...AGENT_ID_SCHEMA, description: 'agent id (digits, as a string or a number)', example: '42' })
  @IsDefined()
  @IsAgentId()
  agent: string;

  @ApiProperty({ enum: CHECK_TYPES })
  @IsIn(CHECK_TYPES as unknown as string[])
  check_type: CheckType;

  @ApiPropertyOptional({ maxLength: 200, description: 'Default: made from the type and settings' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: SETTINGS_DOC, example: { drive: 'C:', threshold_percent: 10 } })
  @IsObject()
  settings: Record<string, unknown>;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 1, description: 'Consecutive failures before an alert' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(100)
  fails_b4_alert?: number;

  @ApiPropertyOptional({ minimum: RUN_INTERVAL_MIN, maximum: RUN_INTERVAL_MAX, default: RUN_INTERVAL_DEFAULT, description: RUN_INTERVAL_DOC })
  @IsOptionalNotNull()
  @IsInt()
  @Min(RUN_INTERVAL_MIN)
  @Max(RUN_INTERVAL_MAX)
  run_interval?: number;

  @ApiPropertyOptional({ enum: ALERT_SEVERITIES, default: 'warning', description: SEVERITY_DOC })
  @IsOptionalNotNull()
  @IsIn(ALERT_SEVERITIES as unknown as string[])
  severity?: AlertSeverity;

  @ApiPropertyOptional({ default: true, description: ENABLED_DOC })
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateCheckDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: `Replaces the settings; a name made from the settings (none was given) follows them. ${SETTINGS_DOC}` })
  @IsOptionalNotNull()
  @IsObject()
  settings?: Record<string, unknown>;

  @ApiPropertyOptional({ minimum: 1, maximum: 100 })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(100)
  fails_b4_alert?: number;

  @ApiPropertyOptional({ minimum: RUN_INTERVAL_MIN, maximum: RUN_INTERVAL_MAX, description: RUN_INTERVAL_DOC })
  @IsOptionalNotNull()
  @IsInt()
  @Min(RUN_INTERVAL_MIN)
  @Max(RUN_INTERVAL_MAX)
  run_interval?: number;

  @ApiPropertyOptional({ enum: ALERT_SEVERITIES, description: `${SEVERITY_DOC} (an alert already open keeps its own)` })
  @IsOptionalNotNull()
  @IsIn(ALERT_SEVERITIES as unknown as string[])
  severity?: AlertSeverity;

  @ApiPropertyOptional({ description: ENABLED_DOC })
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

/** The spec's Check, plus what it watches. */
export class CheckDto {
  @ApiProperty() id: number;
  @ApiProperty({ example: '42' }) agent: string;
  @ApiProperty({ enum: CHECK_TYPES }) check_type: CheckType;
  @ApiProperty() name: string;
  @ApiProperty({ enum: CHECK_STATUSES }) status: CheckStatus;
  @ApiProperty({ nullable: true, type: String }) more_info: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_run: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) settings: Record<string, unknown>;
  @ApiProperty() fails_b4_alert: number;
  @ApiProperty({ description: 'Consecutive failing results so far (0 after a passing one)' }) fail_count: number;
  @ApiProperty({ minimum: RUN_INTERVAL_MIN, maximum: RUN_INTERVAL_MAX, description: RUN_INTERVAL_DOC }) run_interval: number;
  @ApiProperty({ enum: ALERT_SEVERITIES, description: SEVERITY_DOC }) severity: AlertSeverity;
  @ApiProperty({ description: ENABLED_DOC }) enabled: boolean;
  @ApiProperty({ type: ItemSourceDto, description: "The agent's own check, or a policy's (managed by the policy: change it through the agent's policy overrides)" })
  source: ItemSourceDto;
}

export function toCheckDto(c: CheckEntity): CheckDto {
  const settings = c.checkType === 'script' && c.scriptId !== null ? { ...c.settings, script: c.scriptId } : c.settings;
  return {
    id: c.id,
    agent: String(c.agentId),
    check_type: c.checkType,
    name: c.name,
    status: c.status,
    more_info: c.moreInfo,
    last_run: c.lastRun ? c.lastRun.toISOString() : null,
    settings,
    fails_b4_alert: c.failsB4Alert,
    fail_count: c.failCount,
    run_interval: c.runInterval,
    severity: c.severity,
    enabled: c.enabled,
    source: toItemSource(c.policyCheck),
  };
}

/** One result of a check, as the agent reported it (GET /api/v3/checks/{id}/history/). */
export class CheckResultDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: CHECK_STATUSES }) status: CheckStatus;
  @ApiProperty({ nullable: true, type: String, description: 'What the agent saw (at most 4,000 characters)' }) more_info: string | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the server received the result' }) created_at: string;
}

export function toCheckResultDto(r: CheckResultEntity): CheckResultDto {
  return { id: r.id, status: r.status, more_info: r.moreInfo, created_at: r.createdAt.toISOString() };
}
