import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { AUDIT_ACTOR_KINDS, AuditActorKind, AuditChanges, AuditLogEntity } from '@app/entities';
import { PG_INT_MAX } from '../../../common/values';
import { PageQueryDto } from '../../common/pagination.dto';
import { AUDITED_METHODS, AuditedMethod, MAX_TARGET_LENGTH } from './audit-entry';
import { AuditFilter } from './audit.repository';

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

export class AuditFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: AUDIT_ACTOR_KINDS })
  @IsOptional()
  @IsIn(AUDIT_ACTOR_KINDS as unknown as string[])
  actor_kind?: AuditActorKind;

  @ApiPropertyOptional({ minimum: 1, description: "An API key's id: that key's calls (refused ones included)" })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  key?: number;

  @ApiPropertyOptional({ enum: AUDITED_METHODS, description: 'HTTP method (CLI rows have none)' })
  @IsOptional()
  @Transform(upper)
  @IsIn(AUDITED_METHODS as unknown as string[])
  method?: AuditedMethod;

  @ApiPropertyOptional({ maxLength: MAX_TARGET_LENGTH, example: '/api/v3/clients/', description: 'Target starts with this (a path prefix)' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TARGET_LENGTH)
  path?: string;

  @ApiPropertyOptional({ minimum: 100, maximum: 599, description: 'HTTP status answered' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(599)
  status?: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'At or after this time (ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Before this time (ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;
}

export const auditFilterOf = (q: AuditFilterDto): AuditFilter => ({
  actorKind: q.actor_kind,
  keyId: q.key,
  method: q.method,
  pathPrefix: q.path,
  status: q.status,
  since: q.since === undefined ? undefined : new Date(q.since),
  until: q.until === undefined ? undefined : new Date(q.until),
});

/** One mutating call: who, what, on what, from where, with what outcome. Never a secret. */
export class AuditEntryDto {
  @ApiProperty() id: number;
  @ApiProperty({ format: 'date-time', description: 'When the outcome was known' }) at: string;
  @ApiProperty({ enum: AUDIT_ACTOR_KINDS }) actor_kind: AuditActorKind;
  @ApiProperty({ nullable: true, type: String, description: "API key id, operator id, or the user's uuid; null for service_role, cli, anonymous" })
  actor_id: string | null;
  @ApiProperty({ nullable: true, type: String, description: "API key name, operator's or user's e-mail, service_role, or the CLI's OS user; for a console sign-in that failed (anonymous), the e-mail tried" })
  actor_name: string | null;
  @ApiProperty({ nullable: true, type: String, enum: AUDITED_METHODS, description: 'null for a CLI command' }) method: AuditedMethod | null;
  @ApiProperty({ example: 'DELETE /api/v3/clients/{id}/', description: 'Method and route, or the CLI command (apikey revoke)' })
  action: string;
  @ApiProperty({ example: '/api/v3/clients/7/', description: 'The path as requested (no query), or the CLI arguments without secrets' })
  target: string;
  @ApiProperty({ nullable: true, type: String }) client_address: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'HTTP status; null for a CLI command' }) status: number | null;
  @ApiProperty({ example: '204', description: "The HTTP status as text (a console sign-in adds its method: '200 password+totp', '401 password'), or 'ok' / 'error: <message>' for the CLI" }) outcome: string;
  @ApiProperty({ nullable: true, type: String, description: 'X-Request-Id of the request' }) request_id: string | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'What the change did, where the resource records it (policies): {before, after}, null for a side that does not exist',
  })
  changes: AuditChanges | null;
}

export const toAuditEntryDto = (a: AuditLogEntity): AuditEntryDto => ({
  id: Number(a.id),
  at: a.at.toISOString(),
  actor_kind: a.actorKind,
  actor_id: a.actorId,
  actor_name: a.actorName,
  method: a.method as AuditedMethod | null,
  action: a.action,
  target: a.target,
  client_address: a.clientAddress,
  status: a.status,
  outcome: a.outcome,
  request_id: a.requestId,
  changes: a.changes ?? null,
});
