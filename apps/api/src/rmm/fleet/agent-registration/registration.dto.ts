import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { MONITORING_TYPES, MonitoringType, Platform, PLATFORMS } from '@app/entities';
import { AGENT_HOSTNAME_MAX, AGENT_HOSTNAME_PATTERN } from '../../../common/values';

/** No control characters (they would end up in logs, installers and the UI). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const PRINTABLE = /^[^\u0000-\u001f\u007f]*$/;

export class RegisterDiskDto {
  @ApiProperty({ example: '/' }) @IsString() @MaxLength(255) @Matches(PRINTABLE) device: string;
  @ApiProperty({ example: '120.5 GB' }) @IsString() @MaxLength(32) free: string;
  @ApiProperty({ example: '475.8 GB' }) @IsString() @MaxLength(32) total: string;
  @ApiProperty({ example: 75, description: 'percent used' }) @IsInt() @Min(0) @Max(100) percent: number;
}

/** The facts a device reports when it registers (and, later, with every heartbeat). */
export class RegisterAgentDto {
  @ApiProperty({
    example: 'acme-ws-01',
    description:
      "The device's own name (stored as the agent's os_hostname). It is also the agent's hostname, which with the client identifies the agent " +
      'across re-enrollments, unless the deployment was made by the enrollment function: then the hostname the function was asked for is',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(AGENT_HOSTNAME_MAX)
  @Matches(AGENT_HOSTNAME_PATTERN, { message: 'hostname must not start with a space nor contain control characters' })
  hostname: string;

  @ApiProperty({ enum: PLATFORMS }) @IsIn(PLATFORMS) plat: Platform;
  @ApiPropertyOptional({ example: 'Ubuntu 24.04.1 LTS' }) @IsOptional() @IsString() @MaxLength(255) @Matches(PRINTABLE) operating_system?: string;
  @ApiPropertyOptional({ example: 'x64' }) @IsOptional() @IsString() @MaxLength(32) @Matches(PRINTABLE) arch?: string;
  @ApiProperty({ example: '0.1.0', description: 'agent software version' }) @IsString() @MinLength(1) @MaxLength(64) @Matches(PRINTABLE) version: string;
  @ApiPropertyOptional({ example: 'Intel(R) Core(TM) i7' }) @IsOptional() @IsString() @MaxLength(255) @Matches(PRINTABLE) cpu_model?: string;
  @ApiPropertyOptional({ example: 15.6, description: 'gigabytes' }) @IsOptional() @IsNumber() @Min(0) @Max(1_000_000) total_ram?: number;
  @ApiPropertyOptional({ type: [RegisterDiskDto] }) @IsOptional() @IsArray() @ArrayMaxSize(64) @ValidateNested({ each: true }) @Type(() => RegisterDiskDto) disks?: RegisterDiskDto[];
  @ApiPropertyOptional({ example: '203.0.113.7' }) @IsOptional() @IsString() @MaxLength(64) @Matches(PRINTABLE) public_ip?: string;
  @ApiPropertyOptional({ example: '10.0.0.12' }) @IsOptional() @IsString() @MaxLength(255) @Matches(PRINTABLE) local_ip?: string;
  @ApiPropertyOptional({ example: 'alice' }) @IsOptional() @IsString() @MaxLength(255) @Matches(PRINTABLE) logged_in_username?: string;
  @ApiPropertyOptional({ enum: MONITORING_TYPES, default: 'workstation' }) @IsOptional() @IsIn(MONITORING_TYPES) monitoring_type?: MonitoringType;

  @ApiPropertyOptional({
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    pattern: '^[0-9a-fA-F]{64}$',
    description:
      "Hex SHA-256 of the platform's machine id (Linux /etc/machine-id, macOS IOPlatformUUID, Windows MachineGuid), never the raw id; " +
      'stored hashed, as a fact (the enrollment_conflict alert says whether it matches). It proves nothing: any local user can read a machine id',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'hardware_id must be the hex SHA-256 of the machine id (64 hex characters)' })
  hardware_id?: string;

  @ApiPropertyOptional({
    example: '42',
    pattern: '^\\d{1,10}$',
    description: "With agent_secret, from the previous installation's state file: proves a re-enrollment of this hostname is the same installation. Both or neither",
  })
  @ValidateIf((o: RegisterAgentDto) => o.agent_id !== undefined || o.agent_secret !== undefined)
  @IsString({ message: 'agent_id is required with agent_secret (a string of digits)' })
  @Matches(/^\d{1,10}$/, { message: 'agent_id must be a string of digits' })
  agent_id?: string;

  @ApiPropertyOptional({ description: "The current agent secret, with agent_id (the previous installation's state file). Both or neither" })
  @ValidateIf((o: RegisterAgentDto) => o.agent_id !== undefined || o.agent_secret !== undefined)
  @IsString({ message: 'agent_secret is required with agent_id' })
  @MinLength(1)
  @MaxLength(200)
  @Matches(PRINTABLE)
  agent_secret?: string;
}

/** The answer to a registration: the agent's id and its secret, shown this once. */
export class RegisteredAgentDto {
  @ApiProperty({ example: '42', pattern: '^\\d{1,10}$', description: 'The agent id: the same for every re-enrollment of this hostname under this client (proven by the secret, or allowed by an operator)' })
  agent_id: string;

  @ApiProperty({ description: 'The secret the agent authenticates with; shown only in this answer, stored as a hash. A re-enrollment replaces it' })
  agent_secret: string;

  @ApiProperty({
    example: 'ACME-WS-01',
    description:
      'The name the agent is registered under (its hostname in the agent list): the hostname the enrollment function was asked for when it made ' +
      "the deployment, else the hostname sent. The name sent is kept as the agent's os_hostname",
  })
  hostname: string;

  @ApiProperty({ example: 1, description: 'client id' }) client: number;
  @ApiProperty({ example: 1, description: 'site id (the deployment\'s)' }) site: number;
  @ApiProperty({ example: false, description: "True when this hostname was already enrolled under this client and the request carried the agent's current secret, or an operator allowed the re-enrollment (the same agent_id is kept)" }) reenrolled: boolean;
}

/** The answer to POST /api/v3/agents/{id}/reenroll/. */
export class ReenrollAllowedDto {
  @ApiProperty({
    example: '2026-11-29T10:15:00.000Z',
    format: 'date-time',
    description: "Until when the next registration of the agent's hostname may take the agent over (now + 24 h); used once",
  })
  allowed_until: string;
}

export const toReenrollAllowedDto = (until: Date): ReenrollAllowedDto => ({ allowed_until: until.toISOString() });
