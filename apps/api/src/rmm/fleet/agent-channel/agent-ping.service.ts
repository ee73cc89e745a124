import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { parseId } from '../../../common/values';
import { AgentPresenceService } from '../presence/agent-presence.service';
import { AgentPingDto } from './agent-ping.dto';

/**
 * GET /agent/v1/ping: checks an agent's credentials as the channel's upgrade does (X-Agent-Id and its bearer
 * secret), and nothing else: no presence (no connect, no online/offline, no event, no notification), no write.
 * `rmm-agent status` asks it, so that checking a stopped agent changes nothing an operator sees.
 */
@Injectable()
export class AgentPingService {
  constructor(
    private readonly presence: AgentPresenceService,
    private readonly clock: Clock,
  ) {}

  async ping(agentIdHeader: string | undefined, authorization: string | undefined): Promise<AgentPingDto> {
    const agentId = parseId(agentIdHeader);
    const secret = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (agentId === null || !secret || !(await this.presence.verifySecret(agentId, secret))) {
      throw new DomainError(CommonErrorCode.Unauthorized, 'Invalid agent credentials');
    }
    return { agent_id: String(agentId), server_time: this.clock.now().toISOString() };
  }
}
