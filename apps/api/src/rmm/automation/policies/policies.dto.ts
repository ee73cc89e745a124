import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ALERT_SEVERITIES, AlertSeverity, CHECK_TYPES, CheckType } from '@app/entities';
import { AGENT_ID_MESSAGE, ID_DIGITS_PATTERN, PG_INT_MAX } from '../../../common/values';
import { AGENT_ID_SCHEMA } from '../../common/agent-id';
import { IsOptionalNotNull } from '../../common/optional-not-null';
import { PageQueryDto } from '../../common/pagination.dto';
import { RUN_INTERVAL_DEFAULT, RUN_INTERVAL_MAX, RUN_INTERVAL_MIN } from '../checks/checks.dto';

export const POLICY_PLATFORMS = ['linux', 'darwin', 'windows'] as const;
export const POLICY_MONITORING_TYPES = ['server', 'workstation'] as const;
export const PRIORITY_DEFAULT = 500;
/** The most policies the server keeps (issue #31): the merge and the catalog stay small. */
export const MAX_POLICIES = 500;
/** Items per policy (a policy is a short list an operator reads, not a dump). */
export const MAX_ITEMS = 200;
const MAX_LIST = 1000;
const TAG_DOC = 'tags: 1–64 characters of letters, digits, space and `_ . : -`, compared lowercase';

export class PolicyTargetsDto {
  @ApiPropertyOptional({ type: [Number], description: 'client ids (any of them)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(PG_INT_MAX, { each: true })
  clients?: number[];

  @ApiPropertyOptional({ type: [Number], description: 'site ids (any of them)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(PG_INT_MAX, { each: true })
  sites?: number[];

  @ApiPropertyOptional({ type: [String], description: `the agent carries any of these ${TAG_DOC}` })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsString({ each: true })
  tags_any?: string[];

  @ApiPropertyOptional({ type: [String], description: `the agent carries all of these ${TAG_DOC}` })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsString({ each: true })
  tags_all?: string[];

  @ApiPropertyOptional({ enum: POLICY_PLATFORMS, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(POLICY_PLATFORMS as unknown as string[], { each: true })
  platforms?: string[];

  @ApiPropertyOptional({ enum: POLICY_MONITORING_TYPES, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(POLICY_MONITORING_TYPES as unknown as string[], { each: true })
  monitoring_types?: string[];
}

export class PolicyExclusionsDto {
  @ApiPropertyOptional({ type: [String], description: 'agent ids (strings of digits, as agent ids are elsewhere)', example: ['42'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsString({ each: true })
  @Matches(ID_DIGITS_PATTERN, { each: true, message: `each value in $property ${AGENT_ID_MESSAGE}` })
  agents?: string[];

  @ApiPropertyOptional({ type: [Number] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(PG_INT_MAX, { each: true })
  clients?: number[];

  @ApiPropertyOptional({ type: [Number] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(PG_INT_MAX, { each: true })
  sites?: number[];

  @ApiPropertyOptional({ type: [String], description: `any of these ${TAG_DOC}` })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsString({ each: true })
  tags?: string[];
}

export class PolicyCheckInputDto {
  @ApiProperty({ enum: CHECK_TYPES })
  @IsIn(CHECK_TYPES as unknown as string[])
  check_type: CheckType;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'as a check of this type on one agent (POST /api/v3/checks/)', example: { drive: 'C:', threshold_percent: 10 } })
  @IsObject()
  settings: Record<string, unknown>;

  @ApiPropertyOptional({ minimum: RUN_INTERVAL_MIN, maximum: RUN_INTERVAL_MAX, default: RUN_INTERVAL_DEFAULT })
  @IsOptionalNotNull()
  @IsInt()
  @Min(RUN_INTERVAL_MIN)
  @Max(RUN_INTERVAL_MAX)
  run_interval?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 1 })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(100)
  fails_b4_alert?: number;

  @ApiPropertyOptional({ enum: ALERT_SEVERITIES, default: 'warning' })
  @IsOptionalNotNull()
  @IsIn(ALERT_SEVERITIES as unknown as string[])
  alert_severity?: AlertSeverity;

  @ApiPropertyOptional({ maxLength: 200, description: 'Default: made from the type and settings' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;
}

export class PolicyTaskInputDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ description: 'script id' })
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  script: number;

  @ApiPropertyOptional({ type: [String], description: "the script's arguments" })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(4096, { each: true })
  args?: string[];

  @ApiProperty({ example: '0 3 * * *', description: 'Cron expression in UTC, as a task\'s schedule (5 fields, or 6 with seconds first)' })
  @IsString()
  @MaxLength(200)
  schedule: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 86400, nullable: true, type: Number, description: "seconds; null: the script's default" })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(86400)
  timeout?: number | null;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  queue_if_offline?: boolean;

  @ApiPropertyOptional({ default: false, description: 'true: a run due while the agent is in maintenance is recorded as skipped' })
  @IsOptionalNotNull()
  @IsBoolean()
  skip_in_maintenance?: boolean;
}

export class MaintenanceWindowDto {
  @ApiProperty({ example: '0 22 * * 6', description: '5-field cron expression: when each window starts' })
  @IsString()
  @MaxLength(200)
  schedule: string;

  @ApiProperty({ minimum: 1, maximum: 1440 })
  @IsInt()
  @Min(1)
  @Max(1440)
  duration_minutes: number;

  @ApiProperty({ example: 'Europe/Berlin', description: 'IANA time zone of the schedule' })
  @IsString()
  @MaxLength(100)
  timezone: string;
}

/** The fields of a policy a body may give besides its name (every one optional). */
export class PolicyFieldsDto {
  @ApiPropertyOptional({ maxLength: 2000, nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({ default: true, description: 'false: the policy matches no agent' })
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ default: false, description: "true: its items win over the agent's own and cannot be overridden per agent" })
  @IsOptionalNotNull()
  @IsBoolean()
  enforced?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: PRIORITY_DEFAULT, description: 'lower applies first (wins the merge)' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(1000)
  priority?: number;

  @ApiPropertyOptional({ type: PolicyTargetsDto, description: 'every kind given must match (any of its values; tags_all: all); none: every agent' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => PolicyTargetsDto)
  targets?: PolicyTargetsDto;

  @ApiPropertyOptional({ type: PolicyExclusionsDto, description: 'any exclusion wins over the targets' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => PolicyExclusionsDto)
  exclude?: PolicyExclusionsDto;

  @ApiPropertyOptional({ type: [PolicyCheckInputDto], description: 'replaces the list; an item whose key stays keeps its id (and the agents\' state of it)' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => PolicyCheckInputDto)
  checks?: PolicyCheckInputDto[];

  @ApiPropertyOptional({ type: [PolicyTaskInputDto], description: 'replaces the list; an item whose key stays keeps its id' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => PolicyTaskInputDto)
  tasks?: PolicyTaskInputDto[];

  @ApiPropertyOptional({ type: [MaintenanceWindowDto] })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => MaintenanceWindowDto)
  maintenance_windows?: MaintenanceWindowDto[];
}

export class CreatePolicyDto extends PolicyFieldsDto {
  @ApiProperty({ maxLength: 200, example: 'Finance servers' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;
}

/** PATCH: only what is given changes. */
export class UpdatePolicyDto extends PolicyFieldsDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;
}

/** A preview: a whole policy, or `{id, ...changes}` to a saved one. */
export class PreviewPolicyDto extends UpdatePolicyDto {
  @ApiPropertyOptional({ description: 'a saved policy: the rest of the body are changes to it' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  id?: number;
}

export class PolicyListQueryDto extends PageQueryDto {}

// ---- answers ----

export class PolicyTargetsOutDto {
  @ApiPropertyOptional({ type: [Number] }) clients?: number[];
  @ApiPropertyOptional({ type: [Number] }) sites?: number[];
  @ApiPropertyOptional({ type: [String] }) tags_any?: string[];
  @ApiPropertyOptional({ type: [String] }) tags_all?: string[];
  @ApiPropertyOptional({ type: [String], enum: POLICY_PLATFORMS }) platforms?: string[];
  @ApiPropertyOptional({ type: [String], enum: POLICY_MONITORING_TYPES }) monitoring_types?: string[];
}

export class PolicyExclusionsOutDto {
  @ApiPropertyOptional({ type: [String], example: ['42'] }) agents?: string[];
  @ApiPropertyOptional({ type: [Number] }) clients?: number[];
  @ApiPropertyOptional({ type: [Number] }) sites?: number[];
  @ApiPropertyOptional({ type: [String] }) tags?: string[];
}

export class PolicyCheckDto {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'diskspace:C:', description: 'the merge key (docs/policies.md, "The merge")' }) key: string;
  @ApiProperty({ enum: CHECK_TYPES }) check_type: CheckType;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) settings: Record<string, unknown>;
  @ApiProperty() run_interval: number;
  @ApiProperty() fails_b4_alert: number;
  @ApiProperty({ enum: ALERT_SEVERITIES }) alert_severity: AlertSeverity;
}

export class PolicyTaskDto {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'task:3:[]:0 3 * * *' }) key: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'script id' }) script: number;
  @ApiProperty({ type: [String] }) args: string[];
  @ApiProperty() schedule: string;
  @ApiProperty({ nullable: true, type: Number }) timeout: number | null;
  @ApiProperty() queue_if_offline: boolean;
  @ApiProperty() skip_in_maintenance: boolean;
}

export class MaintenanceWindowOutDto {
  @ApiProperty() schedule: string;
  @ApiProperty() duration_minutes: number;
  @ApiProperty() timezone: string;
}

export class PolicyDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty() enforced: boolean;
  @ApiProperty() priority: number;
  @ApiProperty({ type: PolicyTargetsOutDto }) targets: PolicyTargetsOutDto;
  @ApiProperty({ type: PolicyExclusionsOutDto }) exclude: PolicyExclusionsOutDto;
  @ApiProperty({ type: [PolicyCheckDto] }) checks: PolicyCheckDto[];
  @ApiProperty({ type: [PolicyTaskDto] }) tasks: PolicyTaskDto[];
  @ApiProperty({ type: [MaintenanceWindowOutDto] }) maintenance_windows: MaintenanceWindowOutDto[];
  @ApiProperty({ description: 'how many agents the policy matches now' }) agents: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class PreviewAgentDto {
  @ApiProperty({ ...AGENT_ID_SCHEMA, example: '42' }) id: string;
  @ApiProperty() hostname: string;
}

export class PolicyPreviewDto {
  @ApiProperty({ description: 'how many agents the policy would match' }) agents: number;
  @ApiProperty({ description: 'agents that would start matching (compared with the saved policy)' }) total_added: number;
  @ApiProperty({ description: 'agents that would stop matching' }) total_removed: number;
  @ApiProperty({ type: [PreviewAgentDto], description: 'the first 50 added, by id' }) added: PreviewAgentDto[];
  @ApiProperty({ type: [PreviewAgentDto], description: 'the first 50 removed, by id' }) removed: PreviewAgentDto[];
}

export class PolicyRefDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
}

/** Where an effective item comes from, and why it applies (`reason`, for a policy). */
export class EffectiveSourceDto {
  @ApiProperty({ enum: ['agent', 'policy'] }) type: 'agent' | 'policy';
  @ApiPropertyOptional({ type: PolicyRefDto }) policy?: PolicyRefDto;
  @ApiPropertyOptional() enforced?: boolean;
  @ApiPropertyOptional({ example: 'tag finance', description: 'what matched: "tag finance", "client Acme", "all agents"' }) reason?: string;
}

class EffectiveItemFieldsDto {
  @ApiProperty({ nullable: true, type: Number, description: "the agent's check/task row of this item (its state), when there is one" }) id: number | null;
  @ApiProperty() key: string;
  @ApiProperty({ type: EffectiveSourceDto }) source: EffectiveSourceDto;
  @ApiProperty({ description: "an override adjusts this item's settings on this agent" }) overridden: boolean;
  @ApiProperty({ description: 'an override disables it on this agent (it keeps its key)' }) disabled: boolean;
  @ApiProperty({ type: EffectiveSourceDto, nullable: true, description: 'for an item that lost the merge: the source of the one that won its key' }) shadowed_by: EffectiveSourceDto | null;
}

export class EffectiveCheckDto extends EffectiveItemFieldsDto {
  @ApiProperty({ enum: CHECK_TYPES }) check_type: CheckType;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) settings: Record<string, unknown>;
  @ApiProperty() run_interval: number;
  @ApiProperty() fails_b4_alert: number;
  @ApiProperty({ enum: ALERT_SEVERITIES }) alert_severity: AlertSeverity;
}

export class EffectiveTaskDto extends EffectiveItemFieldsDto {
  @ApiProperty() name: string;
  @ApiProperty() script: number;
  @ApiProperty({ type: [String] }) args: string[];
  @ApiProperty() schedule: string;
  @ApiProperty({ nullable: true, type: Number }) timeout: number | null;
  @ApiProperty() queue_if_offline: boolean;
  @ApiProperty() skip_in_maintenance: boolean;
}

export class MaintenanceSourceDto {
  @ApiProperty({ enum: ['agent', 'policy'] }) type: 'agent' | 'policy';
  @ApiPropertyOptional({ type: PolicyRefDto }) policy?: PolicyRefDto;
}

export class EffectiveMaintenanceDto {
  @ApiProperty() active: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'end of the window in force; null for manual maintenance or none' }) until: string | null;
  @ApiProperty({ type: MaintenanceSourceDto, nullable: true }) source: MaintenanceSourceDto | null;
}

export class EffectivePolicyDto {
  @ApiProperty({ type: [EffectiveCheckDto] }) checks: EffectiveCheckDto[];
  @ApiProperty({ type: [EffectiveTaskDto] }) tasks: EffectiveTaskDto[];
  @ApiProperty({ type: EffectiveMaintenanceDto }) maintenance: EffectiveMaintenanceDto;
}
