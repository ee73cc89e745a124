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
  @ApiProperty({ example: 'http://localhost:3000/deploy/3f2b9c1e-8d4a-4f6b-9e2a-1c5d7b8e9f01' })
  download_url: string;

  /** The backend deployment's uuid. */
  @ApiProperty({ format: 'uuid', example: '3f2b9c1e-8d4a-4f6b-9e2a-1c5d7b8e9f01' })
  deployment_uuid: string;

  /** Request time plus 24 hours, ISO 8601 UTC: the expiry sent to the backend. */
  @ApiProperty({ example: '2026-11-23T13:30:00.000Z' })
  expires_at: string;
}

/** The function's error body; each response shows its own message. */
export class EnrollErrorDto {
  @ApiProperty()
  error: string;
}

export class EnrollmentStatusDto {
  /** pending, completed, expired or failed. A pending enrollment past its 24 hours reads expired. */
  @ApiProperty({ enum: ['pending', 'completed', 'expired', 'failed'] })
  status: string;

  /** The agent's id once an agent has registered with this deployment, else null. */
  @ApiProperty({ type: 'integer', nullable: true, example: 42 })
  agent_id: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'DESKTOP-42' })
  hostname: string | null;

  @ApiProperty({ example: '2026-11-23T13:30:00.000Z' })
  expires_at: string;
}

/** Default arch by platform (the spec's EnrollRequest table). */
export function defaultArch(platform: string): string {
  if (platform === 'windows') return 'amd64';
  if (platform === 'darwin') return 'amd64-mac';
  return 'amd64';
}
