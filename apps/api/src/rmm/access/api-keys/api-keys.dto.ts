import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { API_KEY_SCOPES, ApiKeyEntity, ApiKeyScope } from '@app/entities';
import { iso, PG_INT_MAX } from '../../../common/values';
import { IsOptionalNotNull } from '../../common/optional-not-null';

/** The most clients one key may be limited to. */
export const MAX_KEY_CLIENTS = 1000;

export class CreateApiKeyDto {
  @ApiProperty({ example: 'psa-integration', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true, example: ['agents:read', 'deployments:write'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(API_KEY_SCOPES.length)
  @IsIn(API_KEY_SCOPES as unknown as string[], { each: true })
  scopes: ApiKeyScope[];

  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time', description: 'When the key stops working (future). Or use expires_in. Left out or null: the key does not expire' })
  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string | null;

  @ApiPropertyOptional({ example: '30d', description: 'Lifetime from now: 90m, 12h, 30d, 4w' })
  @IsOptionalNotNull()
  @Matches(/^\d{1,6}[smhdw]$/)
  expires_in?: string;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    nullable: true,
    maxItems: MAX_KEY_CLIENTS,
    example: [1, 2],
    description:
      'The only clients the key may see and act in (each must exist; at least one). Left out or null: every client. A key limited to some clients may only create keys limited to some of its own',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_KEY_CLIENTS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(PG_INT_MAX, { each: true })
  clients?: number[] | null;
}

export class ApiKeyDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The first characters of the secret, to recognise it' }) prefix: string;
  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true }) scopes: ApiKeyScope[];
  @ApiProperty({ nullable: true, type: 'integer', isArray: true, description: 'The only clients the key may see and act in; null: every client' }) clients: number[] | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) expires_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) revoked_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'Kept to within 10 seconds' }) last_used_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The secret: shown this once, stored only as a hash' }) key: string;
}


export function toApiKeyDto(k: ApiKeyEntity): ApiKeyDto {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    clients: k.clients ?? null,
    expires_at: iso(k.expiresAt),
    revoked_at: iso(k.revokedAt),
    last_used_at: iso(k.lastUsedAt),
    created_at: k.createdAt.toISOString(),
  };
}
