import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { TERMINAL_END_REASONS, TerminalEndReason, TerminalSessionEntity } from '@app/entities';
import { iso } from '../../../common/values';
import { IsAgentId } from '../../common/agent-id';
import { IsOptionalNotNull } from '../../common/optional-not-null';
import { PageQueryDto } from '../../common/pagination.dto';

/** The largest width and height a terminal may be opened or resized to. */
export const TERMINAL_SIZE_MAX = 1000;
/** Seconds the WebSocket ticket of a new session is valid (expires_in). */
export const TICKET_SECONDS = 60;

/** POST /api/v3/agents/{agent_id}/terminal/ */
export class OpenTerminalDto {
  @ApiProperty({ minimum: 1, maximum: TERMINAL_SIZE_MAX, example: 80, description: 'columns' })
  @IsInt()
  @Min(1)
  @Max(TERMINAL_SIZE_MAX)
  cols: number;

  @ApiProperty({ minimum: 1, maximum: TERMINAL_SIZE_MAX, example: 24, description: 'rows' })
  @IsInt()
  @Min(1)
  @Max(TERMINAL_SIZE_MAX)
  rows: number;

  @ApiPropertyOptional({
    maxLength: 255,
    example: '/bin/bash',
    description: "The shell to run (a program the agent's user may run); default: the agent's (bash or sh, zsh on macOS, PowerShell on Windows)",
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(255)
  // printable: no control characters (a shell's name is shown in lists and logs)
  @Matches(/^[^\p{Cc}]+$/u, { message: 'shell must be printable text' })
  shell?: string;
}

/** The answer to POST /api/v3/agents/{agent_id}/terminal/: the one-time WebSocket ticket. */
export class TerminalTicketDto {
  @ApiProperty({ format: 'uuid' }) session_id: string;
  @ApiProperty({ example: '/rmm/terminal/6f1c…/', description: 'the WebSocket to open (same host), by the same caller, once, within expires_in seconds' }) url: string;
  @ApiProperty({ example: TICKET_SECONDS }) expires_in: number;
}

/** GET /api/v3/terminal-sessions/ */
export class TerminalSessionFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ pattern: '^\\d{1,10}$', description: "only this agent's sessions" })
  @IsOptional()
  @IsAgentId()
  agent?: string;
}

export class TerminalSessionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '42', pattern: '^\\d{1,10}$' }) agent_id: string;
  @ApiProperty({ example: 'tech@example.com', description: "who opened it: the operator's e-mail or the key's name" }) opened_by: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'when the WebSocket was accepted; null: not (yet)' }) opened_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) closed_at: string | null;
  @ApiProperty({ description: 'bytes from the caller to the shell' }) bytes_in: number;
  @ApiProperty({ description: 'bytes from the shell to the caller' }) bytes_out: number;
  @ApiProperty({
    nullable: true,
    enum: TERMINAL_END_REASONS,
    description: 'null while open; exit (the shell exited), closed (the caller closed it), idle, max_duration, agent_offline, ended_by_admin, expired (the ticket was never used)',
  })
  end_reason: TerminalEndReason | null;
  @ApiProperty({ nullable: true, type: Number, description: "the shell's exit code (end_reason exit)" }) exit_code: number | null;
}

export const toTerminalSessionDto = (s: TerminalSessionEntity): TerminalSessionDto => ({
  id: s.id,
  agent_id: String(s.agentId),
  opened_by: s.openedBy,
  created_at: iso(s.createdAt)!,
  opened_at: iso(s.openedAt),
  closed_at: iso(s.closedAt),
  bytes_in: s.bytesIn,
  bytes_out: s.bytesOut,
  end_reason: s.endReason,
  exit_code: s.exitCode,
});

