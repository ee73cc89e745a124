import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ALERT_SEVERITIES, ALERT_TYPES, AlertSeverity, AlertType } from '@app/entities';
import { PageQueryDto } from '../../common/pagination.dto';
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
