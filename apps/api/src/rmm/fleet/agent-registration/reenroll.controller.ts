import { HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/id.pipe';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { RmmController } from '../../common/rmm-controller';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope } from '../../common/scopes';
import { ReenrollAllowedDto, toReenrollAllowedDto } from './registration.dto';
import { RegistrationService } from './registration.service';

/**
 * The operator's answer to an enrollment_conflict (issue #30, finding N1): a route of the agents' resource, served
 * here because re-enrollment is registration's rule. Audited like every /api/v3 write.
 */
@RmmController('agents', 'agents')
export class ReenrollController {
  constructor(private readonly registration: RegistrationService) {}

  @Post(':agentId/reenroll')
  @HttpCode(200)
  @RequireScope('agents:write')
  @ApiOperation({
    operationId: 'agentsAllowReenrollment',
    summary:
      "Allow the next registration of this agent's hostname (in its client) within 24 h to take the agent over without its current secret: same agent id, a new secret, the old secret stops working (its connection is closed 4001). Used once; the agent's open enrollment_conflict alert is resolved then. For a reinstalled device whose state file is gone (a new disk, a reinstalled OS, a cloned image); otherwise a registration of an enrolled hostname without the agent's current secret is 409. Calling it again moves the deadline. Scope: agents:write",
  })
  @ApiOkResponse({ type: ReenrollAllowedDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent (or one of a client the caller may not see)' })
  async allow(@Param('agentId', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<ReenrollAllowedDto> {
    return toReenrollAllowedDto(await this.registration.allowReenrollment(id, clientFilter(req.principal)));
  }
}
