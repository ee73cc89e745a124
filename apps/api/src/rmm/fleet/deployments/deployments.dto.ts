import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { Arch, ARCHES, DeploymentEntity } from '@app/entities';
import { INSTALL_FLAGS_MAX_LENGTH } from '@app/entities/deployment.entity';
import { PG_INT_MAX } from '../../../common/values';
import { IsOptionalNotNull } from '../../common/optional-not-null';

export class CreateDeploymentDto {
  @ApiProperty({ description: 'client id', example: 1 })
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  client: number;

  @ApiProperty({ description: 'site id; the site must belong to the client', example: 1 })
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  site: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'ISO 8601, in the future. Default: 24 hours from now' })
  @IsOptionalNotNull()
  @IsISO8601({ strict: true })
  expires?: string;

  @ApiPropertyOptional({ enum: ARCHES, default: 'amd64' })
  @IsOptionalNotNull()
  @IsIn(ARCHES as unknown as string[])
  arch?: Arch;

  @ApiPropertyOptional({
    nullable: true,
    description: 'Extra command-line arguments for the installer: one line, no control characters (U+0000-U+001F, U+007F)',
    maxLength: INSTALL_FLAGS_MAX_LENGTH,
  })
  @IsOptional()
  @IsString()
  @MaxLength(INSTALL_FLAGS_MAX_LENGTH)
  // eslint-disable-next-line no-control-regex
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'install_flags must not contain control characters' })
  install_flags?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: 'integer',
    minimum: 1,
    description: 'How many successful registrations (re-enrollments included) the link may make; 1 makes it a one-time link. Absent or null: any number until expiry or revocation',
    example: 1,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  max_registrations?: number | null;
}

/** The spec's Deployment, plus arch and created_at. */
export class DeploymentDto {
  @ApiProperty() id: number;
  @ApiProperty({ format: 'uuid' }) uuid: string;
  @ApiProperty({ description: 'client id' }) client: number;
  @ApiProperty({ description: 'site id' }) site: number;
  @ApiProperty({ format: 'date-time' }) expiry: string;
  @ApiProperty({ nullable: true, type: String }) install_flags: string | null;
  @ApiProperty({ description: 'Installer download under PUBLIC_URL; no key needed, works until expiry or revocation' }) download_url: string;
  @ApiProperty({ enum: ARCHES }) arch: Arch;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ nullable: true, type: 'integer', description: 'Successful registrations the link may make (null: any number); once reached, register and download answer 410 "deployment used up"' })
  max_registrations: number | null;
  @ApiProperty({ type: 'integer', description: 'Successful registrations made through it so far (re-enrollments included)' }) registrations: number;
}

export function toDeploymentDto(d: DeploymentEntity, publicUrl: string): DeploymentDto {
  return {
    id: d.id,
    uuid: d.uuid,
    client: d.clientId,
    site: d.siteId,
    expiry: d.expiresAt.toISOString(),
    install_flags: d.installFlags,
    download_url: downloadUrl(publicUrl, d.uuid),
    arch: d.arch,
    created_at: d.createdAt.toISOString(),
    max_registrations: d.maxRegistrations,
    registrations: d.registrations,
  };
}

export const DOWNLOAD_PREFIX = '/deploy';
export const downloadUrl = (publicUrl: string, uuid: string): string => `${publicUrl.replace(/\/+$/, '')}${DOWNLOAD_PREFIX}/${uuid}`;
