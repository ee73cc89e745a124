import { ApiProperty } from '@nestjs/swagger';
import { AGENT_UPDATE_STATUSES } from '@app/entities';
import type { UpdateCounts } from './agent-updates.repository';
import type { RolloutHalt } from './agent-updates.service';

export class AgentVersionCountDto {
  @ApiProperty({ example: '0.1.0', nullable: true, type: String, description: 'null: agents that never reported a version' }) version: string | null;
  @ApiProperty({ example: 120 }) agents: number;
}

export class AgentUpdateStatusCountsDto {
  @ApiProperty({ description: 'waiting for a slot (RMM_AGENT_UPDATE_CONCURRENCY), or for the agent to connect' }) pending: number;
  @ApiProperty({ description: 'offered (update.available sent), not yet back on the new version' }) running: number;
  @ApiProperty({ description: 'came back on the new version' }) done: number;
  @ApiProperty({ description: 'refused the binary (signature, hash, download), rolled back, or did not come back within 15 minutes' }) failed: number;
}

export class AgentUpdateFailureDto {
  @ApiProperty({ example: '42' }) agent_id: string;
  @ApiProperty({ example: 'ACME-WS-01' }) hostname: string;
  @ApiProperty({ example: '0.2.0', description: 'the version that failed' }) version: string;
  @ApiProperty({ example: '0.2.0 did not connect within 120 s', nullable: true, type: String }) error: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) at: string | null;
}

/** GET /api/v3/agents/updates/. */
export class AgentUpdatesDto {
  @ApiProperty({ example: '0.2.0', description: 'the agent version this server offers (RMM_AGENT_VERSION, default its own version)' }) version: string;
  @ApiProperty({ example: 50, description: 'RMM_AGENT_UPDATE_CONCURRENCY: at most this many agents update at once' }) concurrency: number;
  @ApiProperty({ type: [AgentVersionCountDto], description: 'how many agents (that the caller may see) run each version, most first' }) versions: AgentVersionCountDto[];
  @ApiProperty({ type: AgentUpdateStatusCountsDto, description: `updates to \`version\` by status (${AGENT_UPDATE_STATUSES.join(', ')})` }) updates: AgentUpdateStatusCountsDto;
  @ApiProperty({ type: [AgentUpdateFailureDto], description: 'the 20 latest failed updates, newest first' }) recent_failures: AgentUpdateFailureDto[];
  @ApiProperty({
    description:
      'true while the rollout of `version` is halted: more than RMM_AGENT_UPDATE_HALT_FAILURES updates to it failed within an hour, so it is offered to no agent until POST /api/v3/agents/updates/resume/',
  })
  halted: boolean;
  @ApiProperty({ nullable: true, type: String, example: '6 updates to 0.2.0 failed within an hour (more than RMM_AGENT_UPDATE_HALT_FAILURES, 5); the last: ACME-WS-01: 0.2.0 did not connect within 120 s', description: 'why it halted (null when not halted)' })
  halted_reason: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'when it halted (null when not halted)' }) halted_at: string | null;
}

export const toAgentUpdatesDto = (s: UpdateCounts & { version: string; concurrency: number; halt: RolloutHalt | null }): AgentUpdatesDto => ({
  version: s.version,
  concurrency: s.concurrency,
  halted: s.halt !== null,
  halted_reason: s.halt?.reason ?? null,
  halted_at: s.halt ? s.halt.at.toISOString() : null,
  versions: s.versions.map((v) => ({ version: v.version, agents: v.agents })),
  updates: { ...s.statuses },
  recent_failures: s.failures.map((f) => ({ agent_id: String(f.agentId), hostname: f.hostname, version: f.version, error: f.error, at: f.at ? f.at.toISOString() : null })),
});
