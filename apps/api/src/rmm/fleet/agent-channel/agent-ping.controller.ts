import { Controller, Get, Headers } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { AgentPingDto } from './agent-ping.dto';
import { AgentPingService } from './agent-ping.service';

/** Agent-facing (/agent/v1): the agent's own credentials, not an X-API-KEY. */
@ApiTags('agent')
@Controller('agent/v1')
export class AgentPingController {
  constructor(private readonly pings: AgentPingService) {}

  @Get('ping')
  @ApiOperation({
    summary: "Check an agent's credentials without connecting: registers no presence (the agent stays as it is in the console, no event, no notification)",
    description:
      "Needs the agent's credentials from its state.json: `X-Agent-Id` and `Authorization: Bearer <agent secret>`, as the channel's upgrade. " +
      '`rmm-agent status` calls it (docs/agent-protocol.md, "Checking the credentials without connecting"). Errors: {detail}.',
  })
  @ApiHeader({ name: 'X-Agent-Id', required: true, description: "The agent's id (state.json agent_id)" })
  @ApiOkResponse({ type: AgentPingDto })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: "{detail: 'Invalid token'}: no X-Agent-Id, no bearer, or the secret is not this agent's (deleted, re-enrolled)" })
  ping(@Headers('x-agent-id') agentId: string | undefined, @Headers('authorization') authorization: string | undefined): Promise<AgentPingDto> {
    return this.pings.ping(agentId, authorization);
  }
}
