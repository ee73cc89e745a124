import { Body, Get, Param, Put, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/id.pipe';
import { AuthedRequest, clientFilter, hasScope } from '../../common/principal';
import { RmmController } from '../../common/rmm-controller';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { AlsoRequireScope, RequireScope } from '../../common/scopes';
import { PolicyOverrideDto, PolicyOverrideOutDto } from './overrides.dto';
import { OverridesService } from './overrides.service';

/** An agent's policy overrides under /api/v3/agents/{agent_id}/policy-overrides/ (docs/policies.md, "Overrides"). */
@RmmController('agents', 'agents')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent' })
export class OverridesController {
  constructor(private readonly overrides: OverridesService) {}

  @Get(':agentId/policy-overrides')
  @RequireScope('agents:read')
  @ApiOperation({ operationId: 'agentsPolicyOverrides', summary: "The agent's overrides of its policies' items. Scope: agents:read" })
  @ApiOkResponse({ type: [PolicyOverrideOutDto] })
  list(@Param('agentId', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<PolicyOverrideOutDto[]> {
    return this.overrides.list(id, clientFilter(req.principal));
  }

  @Put(':agentId/policy-overrides')
  @RequireScope('agents:write')
  @AlsoRequireScope('scripts:run', "for an override that changes a script check's settings")
  @ApiOperation({
    operationId: 'agentsSetPolicyOverrides',
    summary:
      "Replace the agent's overrides: each disables or adjusts (settings, run_interval, fails_b4_alert) one item of a non-enforced policy on this agent only; the agent gets its new list at once. Scope: agents:write, and scripts:run for an override that changes a script check's settings",
  })
  @ApiBody({ type: [PolicyOverrideDto] })
  @ApiOkResponse({ type: [PolicyOverrideOutDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error: no such policy, no item with that key, settings invalid for the check type' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: '{detail: "enforced by policy <name>"}: an enforced policy\'s items cannot be overridden' })
  replace(@Param('agentId', ParseIdPipe) id: number, @Body() body: PolicyOverrideDto[], @Req() req: AuthedRequest): Promise<PolicyOverrideOutDto[]> {
    return this.overrides.replace(id, body, clientFilter(req.principal), hasScope(req.principal!, 'scripts:run'));
  }
}
