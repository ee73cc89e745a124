import { Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { AgentUpdatesDto, toAgentUpdatesDto } from './agent-updates.dto';
import { AgentUpdatesService } from './agent-updates.service';

@RmmController('agents/updates', 'agents')
export class AgentUpdatesController {
  constructor(private readonly updates: AgentUpdatesService) {}

  @Get()
  @RequireScope('agents:read')
  @ApiOperation({
    summary: "The staged rollout of the server's agent version: how many agents run each version, and updates pending, running, done and failed. Scope: agents:read",
  })
  @ApiOkResponse({ type: AgentUpdatesDto })
  async status(@Req() req: AuthedRequest): Promise<AgentUpdatesDto> {
    return toAgentUpdatesDto(await this.updates.status(clientFilter(req.principal)));
  }
}
