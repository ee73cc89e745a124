import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Documentation of the bodies only: the service reads them itself, to answer in GoTrue's error format. */
export class PasswordGrantDto {
  @ApiPropertyOptional({ example: 'tech@acme.test', description: 'grant_type=password' })
  email?: string;
  @ApiPropertyOptional({ example: 'correct horse battery staple', description: 'grant_type=password' })
  password?: string;
  @ApiPropertyOptional({ description: 'grant_type=refresh_token: a refresh token, usable once' })
  refresh_token?: string;
}

export class GoTrueUserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'authenticated' }) aud: string;
  @ApiProperty({ example: 'authenticated' }) role: string;
  @ApiProperty() email: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) email_confirmed_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_sign_in_at: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) app_metadata: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) user_metadata: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class TokenResponseDto {
  @ApiProperty({ description: 'HS256 JWT signed with JWT_SECRET: sub, role, aud, exp, email, session_id' }) access_token: string;
  @ApiProperty({ example: 'bearer' }) token_type: string;
  @ApiProperty({ example: 3600 }) expires_in: number;
  @ApiProperty({ description: 'Unix seconds' }) expires_at: number;
  @ApiProperty({ description: 'Single use' }) refresh_token: string;
  @ApiProperty({ type: GoTrueUserDto }) user: GoTrueUserDto;
}

export class AdminCreateUserDto {
  @ApiProperty() email: string;
  @ApiProperty({ minLength: 6 }) password: string;
  @ApiPropertyOptional({ description: 'true: the address counts as confirmed (this server sends no mail)' }) email_confirm?: boolean;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) user_metadata?: Record<string, unknown>;
}

export class AdminUserListDto {
  @ApiProperty({ type: [GoTrueUserDto] }) users: GoTrueUserDto[];
  @ApiProperty({ example: 'authenticated' }) aud: string;
  @ApiProperty() total: number;
}

export class GoTrueErrorDto {
  @ApiProperty({
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'With X-Supabase-Api-Version: 2024-01-01: the error code (invalid_credentials …); else the HTTP status',
  })
  code: string | number;
  @ApiPropertyOptional({ description: 'Versioned format' }) message?: string;
  @ApiPropertyOptional({ description: 'Legacy format' }) error_code?: string;
  @ApiPropertyOptional({ description: 'Legacy format' }) msg?: string;
}
