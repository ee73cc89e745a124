import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class RmmFieldErrorDto {
  @ApiProperty({ nullable: true, type: String, example: 'site' }) field: string | null;
  @ApiProperty({ example: 'site 9 does not belong to client 1' }) message: string;
}

/** The management backend's error body (the spec's Errors table). Each response shows its own example (openapi/swagger.ts). */
export class RmmErrorDto {
  @ApiProperty({ description: 'validation error | Invalid token | permission denied | Not found | rate limited | server error, or a reason' })
  detail: string;

  @ApiPropertyOptional({ type: [RmmFieldErrorDto], description: 'With 400 validation error: the fields at fault' })
  errors?: RmmFieldErrorDto[];

  @ApiPropertyOptional({ type: [String], description: 'With 404 from GET /agent/v1/download/{target}: the targets there are' })
  targets?: string[];
}
