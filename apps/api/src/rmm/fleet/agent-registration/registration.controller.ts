import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RmmErrorDto } from '../../common/rmm-error.dto';
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
  @ApiOperation({
    summary: "Register a device as an agent of the deployment's client and site; the same hostname under the same client keeps its agent_id when the request proves it is the same installation",
    description:
      'A hostname already enrolled in the client is re-enrolled (same agent_id, new secret) only with that agent\'s current `agent_id` + `agent_secret` ' +
      '(its state file), or once within 24 h of an operator\'s `POST /api/v3/agents/{id}/reenroll/`; otherwise 409 and one open `enrollment_conflict` alert ' +
      'on the enrolled agent. The `hardware_id` is stored as a fact and proves nothing. ' +
      'Limited to RMM_REGISTER_RATE_LIMIT_PER_MINUTE (20) attempts per minute per deployment.',
  })
  @ApiOkResponse({ type: RegisteredAgentDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: '{detail: "unknown deployment: …"}: no deployment has this token' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: '{detail: "hostname already enrolled by another device"}: the hostname has an agent in this client, the request did not carry its current secret and no operator allowed a re-enrollment (POST /api/v3/agents/{id}/reenroll/, or delete the old agent)' })
  @ApiResponse({ status: 410, type: RmmErrorDto, description: '{detail: "deployment revoked: …"}, {detail: "deployment expired: …"} or {detail: "deployment used up: …"} (max_registrations reached)' })
  @ApiResponse({ status: 429, type: RmmErrorDto, description: '{detail: "rate limited"}: too many registrations through this deployment this minute; Retry-After says when to retry' })
  register(@Headers('authorization') authorization: string | undefined, @Body() body: RegisterAgentDto, @Req() req: FastifyRequest): Promise<RegisteredAgentDto> {
    return this.registration.register(/^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1], body, { ip: req.ip ?? null });
  }
}
