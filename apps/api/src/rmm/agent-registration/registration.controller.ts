import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RmmErrorDto } from '../common/rmm-error.dto';
import { RegisterAgentDto, RegisteredAgentDto } from './registration.dto';
import { RegistrationService } from './registration.service';

/** Agent-facing routes (/agent/v1): not under the X-API-KEY guard; an agent's secret opens nothing under /api/v3. */
@ApiTags('agent')
@Controller('agent/v1')
export class RegistrationController {
  constructor(private readonly registration: RegistrationService) {}

  /** Authorization: Bearer <deployment uuid> (the enrollment token the installer carries). */
  @Post('register')
  @HttpCode(200)
  @ApiOperation({ summary: "Register a device as an agent of the deployment's client and site; the same hostname under the same client keeps its agent_id" })
  @ApiOkResponse({ type: RegisteredAgentDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: '{detail: "unknown deployment: …"}: no deployment has this token' })
  @ApiResponse({ status: 410, type: RmmErrorDto, description: '{detail: "deployment revoked: …"} or {detail: "deployment expired: …"}' })
  register(@Headers('authorization') authorization: string | undefined, @Body() body: RegisterAgentDto): Promise<RegisteredAgentDto> {
    return this.registration.register(/^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1], body);
  }
}
