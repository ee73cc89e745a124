import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ALERT_SEVERITIES, ALERT_TYPES, AlertEntity, AlertSeverity, AlertType } from '@app/entities';
import { PageQueryDto } from '../../common/pagination.dto';
import { iso } from '../../../common/values';
import { AGENT_ID_SCHEMA, IsAgentId } from '../../common/agent-id';

/** "true"/"false" in a query string; anything else stays as it is and fails @IsBoolean. */
const bool = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class AlertFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ ...AGENT_ID_SCHEMA, description: 'agent id' })
  @IsOptional()
  @IsAgentId()
  agent?: string;

  @ApiPropertyOptional({ enum: ALERT_SEVERITIES })
  @IsOptional()
  @IsIn(ALERT_SEVERITIES as unknown as string[])
  severity?: AlertSeverity;

  @ApiPropertyOptional({ enum: ALERT_TYPES })
  @IsOptional()
  @IsIn(ALERT_TYPES as unknown as string[])
  alert_type?: AlertType;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'false (default): active alerts; true: resolved ones' })
  @IsOptional()
  @Transform(bool)
  @IsBoolean()
  resolved?: boolean;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(bool)
  @IsBoolean()
  snoozed?: boolean;
}

/** The spec's Alert, plus who acknowledged or resolved it and when. */
export class AlertDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ALERT_TYPES }) alert_type: AlertType;
  @ApiProperty({ example: '42' }) agent: string;
  @ApiProperty({ enum: ALERT_SEVERITIES }) severity: AlertSeverity;
  @ApiProperty() message: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty() snoozed: boolean;
  @ApiProperty() resolved: boolean;
  @ApiProperty({ description: 'Seen (acknowledged), whether or not resolved' }) acknowledged: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) acknowledged_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Name of the API key that acknowledged it' }) acknowledged_by: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) resolved_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Name of the API key that resolved it' }) resolved_by: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'check id, for check_failure' }) check: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'task id, for task_failure' }) task: number | null;
}


export const toAlertDto = (a: AlertEntity): AlertDto => ({
  id: a.id,
  alert_type: a.alertType,
  agent: String(a.agentId),
  severity: a.severity,
  message: a.message,
  created_at: a.createdAt.toISOString(),
  snoozed: a.snoozed,
  resolved: a.resolved,
  acknowledged: a.acknowledged,
  acknowledged_at: iso(a.acknowledgedAt),
  acknowledged_by: a.acknowledgedBy,
  resolved_at: iso(a.resolvedAt),
  resolved_by: a.resolvedBy,
  check: a.checkId,
  task: a.taskId,
});
