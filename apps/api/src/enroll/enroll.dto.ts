import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The function's JSON body. Parsed by the function itself at step 4 of the processing order. */
export class EnrollRequestDto {
  /** Must be a non-empty string. */
  @ApiProperty({ example: 'DESKTOP-42' })
  hostname: string;

  /** windows, darwin or linux; only presence is checked. */
  @ApiProperty({ example: 'windows' })
  platform: string;

  /** amd64, arm64, amd64-mac…; passed through. Default: amd64 (windows), amd64-mac (darwin), amd64 (others). */
  @ApiPropertyOptional({ example: 'amd64' })
  arch?: string;
}

export class EnrollResponseDto {
  /** The backend deployment's download_url. */
  @ApiProperty()
  download_url: string;

  /** The backend deployment's uuid. */
  @ApiProperty()
  deployment_uuid: string;

  /** Request time plus 24 hours, ISO 8601 UTC: the expiry sent to the backend. */
  @ApiProperty({ example: '2026-11-23T13:30:00.000Z' })
  expires_at: string;
}

export class EnrollErrorDto {
  @ApiProperty({ example: 'Missing Bearer token' })
  error: string;
}

export class EnrollmentStatusDto {
  /** pending, completed, expired or failed. A pending enrollment past its 24 hours reads expired. */
  @ApiProperty({ enum: ['pending', 'completed', 'expired', 'failed'] })
  status: string;

  /** The agent's id once an agent has registered with this deployment, else null. */
  @ApiProperty({ type: Number, nullable: true })
  agent_id: number | null;

  @ApiProperty({ type: String, nullable: true })
  hostname: string | null;

  @ApiProperty()
  expires_at: string;
}

/** Default arch by platform (the spec's EnrollRequest table). */
export function defaultArch(platform: string): string {
  if (platform === 'windows') return 'amd64';
  if (platform === 'darwin') return 'amd64-mac';
  return 'amd64';
}
