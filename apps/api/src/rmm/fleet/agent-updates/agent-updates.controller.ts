import { Get, HttpCode, Post, Req } from '@nestjs/common';
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

  @Post('resume')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({
    summary:
      'Resumes a halted rollout (RMM_AGENT_UPDATE_HALT_FAILURES): the offered version is offered again, its agent_update_halted alert is resolved by the caller. ' +
      'A rollout that is not halted is left as it is. Answers the rollout as GET does. Audited. Scope: admin',
  })
  @ApiOkResponse({ type: AgentUpdatesDto })
  async resume(@Req() req: AuthedRequest): Promise<AgentUpdatesDto> {
    await this.updates.resume(req.principal!.name);
    return toAgentUpdatesDto(await this.updates.status(clientFilter(req.principal)));
  }
}
