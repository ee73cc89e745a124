import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { AGENT_STATUSES, AgentDisk, AgentStatus, MONITORING_TYPES, MonitoringType, Platform, PLATFORMS } from '@app/entities';
import { PageQueryDto } from '../../common/pagination.dto';
import { PG_INT_MAX, iso } from '../../../common/values';
import { AGENT_ID_SCHEMA, IsAgentId } from '../../common/agent-id';
import { MAX_TAGS, MAX_TAG_LENGTH, TAG_RULE } from '../../common/agent-tags';
import { IsOptionalNotNull } from '../../common/optional-not-null';
import type { AgentRow } from './agents.sql';

export class AgentFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Exact hostname' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  hostname?: string;

  @ApiPropertyOptional({ description: 'client id' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  client?: number;

  @ApiPropertyOptional({ description: 'site id' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  site?: number;

  @ApiPropertyOptional({ enum: MONITORING_TYPES })
  @IsOptional()
  @IsIn(MONITORING_TYPES as unknown as string[])
  monitoring_type?: MonitoringType;

  @ApiPropertyOptional({
    type: [String],
    description: `Agents carrying every tag given (repeat it: ?tag=finance&tag=paris); matched lowercase. At most ${MAX_TAGS}`,
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value : [value]))
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  tag?: string[];
}

/** Bulk bound: at most this many agents in one POST /api/v3/agents/tags/. */
const MAX_BULK_AGENTS = 5000;

const TAGS_DESCRIPTION = `Tags: at most ${MAX_TAGS}, each ${TAG_RULE}; stored lowercase, sorted, without duplicates`;
const MAINTENANCE_DESCRIPTION =
  'true: the agent is in maintenance until set false (its checks run and record, but no alert opens and no notification is sent; tasks with skip_in_maintenance are recorded skipped)';

/** PATCH /api/v3/agents/{id}/: what an operator may change on an agent (at least one field). */
export class UpdateAgentDto {
  @ApiPropertyOptional({ type: [String], example: ['finance', 'paris'], description: `Replaces the agent's tags. ${TAGS_DESCRIPTION}` })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(1000)
  tags?: unknown[];

  @ApiPropertyOptional({ enum: MONITORING_TYPES })
  @IsOptionalNotNull()
  @IsIn(MONITORING_TYPES as unknown as string[])
  monitoring_type?: MonitoringType;

  @ApiPropertyOptional({ description: MAINTENANCE_DESCRIPTION })
  @IsOptionalNotNull()
  @IsBoolean()
  maintenance?: boolean;
}

/** POST /api/v3/agents/tags/: tags added to and removed from many agents at once. */
export class BulkTagsDto {
  @ApiProperty({ type: [String], example: ['42', '43'], description: `Agent ids (strings, as agent_id), 1 to ${MAX_BULK_AGENTS}`, items: { type: 'string', ...AGENT_ID_SCHEMA } })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_AGENTS)
  @IsAgentId({ each: true })
  agents: string[];

  @ApiPropertyOptional({ type: [String], example: ['finance'], description: `Tags each agent gets (${TAG_RULE})` })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  add?: unknown[];

  @ApiPropertyOptional({ type: [String], example: ['old'], description: 'Tags taken off each agent' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  remove?: unknown[];
}

export class BulkTagsResultDto {
  @ApiProperty({ example: 2, description: 'How many of the agents had their tags changed (an agent that already had them is not counted)' })
  updated: number;
}

export class NamedRefDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
}

export class DiskDto {
  @ApiProperty({ example: 'C:' }) device: string;
  @ApiProperty({ example: '120.5 GB' }) free: string;
  @ApiProperty({ example: '475.8 GB' }) total: string;
  @ApiProperty({ example: 75, description: 'percent used' }) percent: number;
}

/** The spec's Agent. */
export class AgentDto {
  @ApiProperty({ example: '42', description: 'A decimal integer, as a string (see docs/decisions.md)' }) agent_id: string;
  @ApiProperty() hostname: string;
  @ApiProperty({ type: NamedRefDto, nullable: true }) client: NamedRefDto | null;
  @ApiProperty({ type: NamedRefDto, nullable: true }) site: NamedRefDto | null;
  @ApiProperty({ enum: PLATFORMS }) plat: Platform;
  @ApiProperty({ enum: MONITORING_TYPES }) monitoring_type: MonitoringType;
  @ApiProperty({ nullable: true, type: String }) operating_system: string | null;
  @ApiProperty({ example: '2.8.0' }) version: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_seen: string | null;
  @ApiProperty({ enum: AGENT_STATUSES }) status: AgentStatus;
  @ApiProperty({
    example: false,
    description:
      'True while the agent has registered but never connected (last_seen is null; its status is offline): its installation did not start it, or it ' +
      'cannot reach the server. The console shows "registered, never connected". Added beside status rather than as a status value, so clients that ' +
      'know only online, offline and overdue keep working (docs/decisions.md, "Registered, never connected")',
  })
  never_connected: boolean;
  @ApiProperty({ nullable: true, type: String }) logged_in_username: string | null;
  @ApiProperty({ nullable: true, type: String }) public_ip: string | null;
  @ApiProperty({ nullable: true, type: String }) local_ip: string | null;
  @ApiProperty({ nullable: true, type: String }) cpu_model: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'gigabytes' }) total_ram: number | null;
  @ApiProperty({ nullable: true, type: [DiskDto] }) disks: AgentDisk[] | null;
  @ApiProperty({ type: [String], example: ['finance'], maxLength: MAX_TAG_LENGTH, description: TAGS_DESCRIPTION }) tags: string[];
  @ApiProperty({
    description:
      'True while the agent is in maintenance: put there by an operator (PATCH {maintenance: true}), or inside a policy maintenance window (until maintenance_until). Its checks run and record; no alert opens, no notification is sent',
  })
  maintenance: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: "The end of the policy maintenance window the agent is in; null when in none (an operator's maintenance has no end)",
  })
  maintenance_until: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { site_code: 'NYC-1', admin_password: '********' },
    description: 'Every agent custom field by name: its value, else its default, else null; a secret "********" when set, null when not (docs/custom-fields.md)',
  })
  custom_fields: Record<string, unknown>;
}

/** The agent detail object: the Agent plus patches_pending, wmi_detail and record times. */
export class AgentDetailDto extends AgentDto {
  @ApiProperty() patches_pending: number;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) wmi_detail: Record<string, unknown> | null;
  @ApiProperty({ nullable: true, type: Number, description: 'The deployment the agent last enrolled through' }) deployment: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'vm',
    description:
      "The name the device gives itself (the hostname it sent at registration, kept current by its heartbeat facts). The agent's hostname is " +
      'the one the enrollment function was asked for when the device enrolled through it, else the same as this. Null only for an agent recorded without one',
  })
  os_hostname: string | null;
  @ApiProperty({
    description:
      "check.result messages of this agent dropped for coming before their check's spacing, max(run_interval / 2, 5 s) (written every 10 s; docs/security.md, N2). An agent that keeps sending faster than its checks run is closed 1008",
  })
  check_results_dropped: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: "when the agent's record last changed: its facts (sent with heartbeats) or a re-enrollment; heartbeats that change nothing move last_seen, not this" })
  updated_at: string;
}


/**
 * The one mapper of the agent resource: a row of agents.sql.ts (the list's columns) to the spec's Agent, in the
 * spec's field order. The REST routes, the events WebSockets (hello, agent.updated) and the bench's baseline answer
 * through it and toAgentDetailDto; nothing maps an entity.
 */
export function toAgentDto(r: AgentRow): AgentDto {
  return {
    agent_id: String(r.id),
    hostname: r.hostname,
    client: r.client_id !== null && r.client_name !== null ? { id: r.client_id, name: r.client_name } : null,
    site: r.site_id !== null && r.site_name !== null ? { id: r.site_id, name: r.site_name } : null,
    plat: r.plat as Platform,
    monitoring_type: r.monitoring_type as MonitoringType,
    operating_system: r.operating_system,
    version: r.version,
    last_seen: iso(r.last_seen),
    status: r.status as AgentStatus,
    never_connected: r.last_seen === null,
    logged_in_username: r.logged_in_username,
    public_ip: r.public_ip,
    local_ip: r.local_ip,
    cpu_model: r.cpu_model,
    total_ram: r.total_ram,
    disks: r.disks as AgentDisk[] | null,
    tags: r.tags,
    maintenance: r.in_maintenance,
    maintenance_until: iso(r.maintenance_until),
    custom_fields: r.custom_fields ?? {},
  };
}

/** A row of AGENT_DETAIL_SQL (the detail's columns) to the agent detail object: the Agent and its record's fields. */
export function toAgentDetailDto(r: AgentRow): AgentDetailDto {
  return {
    ...toAgentDto(r),
    patches_pending: r.patches_pending,
    wmi_detail: r.wmi_detail,
    deployment: r.deployment_id,
    os_hostname: r.os_hostname,
    check_results_dropped: Number(r.check_results_dropped ?? 0),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
