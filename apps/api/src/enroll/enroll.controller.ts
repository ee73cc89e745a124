import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { USER_JWT_SECURITY } from '../common/http/openapi-security';
import { rawBodyOf } from '../common/http/body-parsers';
import { EnrollErrorDto, EnrollmentStatusDto, EnrollRequestDto, EnrollResponseDto } from './enroll.dto';
import { EnrollService } from './enroll.service';

@ApiTags('enrollment function')
@ApiBearerAuth(USER_JWT_SECURITY)
@Controller('functions/v1/enroll-rmm')
export class EnrollController {
  constructor(private readonly enroll: EnrollService) {}

  // The token comes from the Authorization header, which the user-jwt security scheme documents (a header
  // parameter besides it would make Swagger UI ask for the token twice).
  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'enrollRmm',
    summary: "Issue a 24-hour agent deployment for the caller's tenant",
    description:
      "Needs the user's access token (Authorize: user-jwt). Checks run in this order: method (405), bearer token (401), " +
      'profile (404), body JSON (400), fields (400), backend call (502). hostname is at most 255 characters and platform 32, ' +
      'neither with control characters (400). A user gets ENROLL_RATE_LIMIT_PER_USER_PER_MINUTE enrollments a minute ' +
      '(429 with Retry-After). Errors: {error}.',
  })
  @ApiBody({ type: EnrollRequestDto })
  @ApiOkResponse({ type: EnrollResponseDto })
  @ApiBadRequestResponse({
    type: EnrollErrorDto,
    description: 'Invalid JSON body / hostname and platform are required / hostname or platform too long or holding control characters',
  })
  @ApiUnauthorizedResponse({ type: EnrollErrorDto, description: 'Missing Bearer token / Invalid user token' })
  @ApiNotFoundResponse({ type: EnrollErrorDto, description: 'User profile not found' })
  @ApiTooManyRequestsResponse({ type: EnrollErrorDto, description: "The user's enrollments or requests per minute are spent; Retry-After says when to retry" })
  @ApiBadGatewayResponse({ type: EnrollErrorDto, description: 'Deployment creation failed (the backend refused, failed or did not answer in time)' })
  enrollRmm(@Req() req: FastifyRequest, @Body() _body?: unknown): Promise<EnrollResponseDto> {
    return this.enroll.enroll({ method: req.method, authorization: req.headers.authorization, rawBody: rawBodyOf(req) });
  }

  @Get('status')
  @ApiOperation({
    operationId: 'enrollmentStatus',
    summary: "The caller's own enrollment by deployment uuid",
    description:
      "Poll it after running the installer: pending until the agent registers, then completed with its agent_id. Needs the user's " +
      'access token (Authorize: user-jwt), no backend key. Errors: {error}.',
  })
  @ApiQuery({
    name: 'deployment_uuid',
    required: true,
    description: 'The deployment_uuid POST /functions/v1/enroll-rmm answered',
    schema: { type: 'string', format: 'uuid', example: '3f2b9c1e-8d4a-4f6b-9e2a-1c5d7b8e9f01' },
  })
  @ApiOkResponse({ type: EnrollmentStatusDto })
  @ApiBadRequestResponse({ type: EnrollErrorDto, description: 'deployment_uuid is required' })
  @ApiUnauthorizedResponse({ type: EnrollErrorDto, description: 'Missing Bearer token / Invalid user token' })
  @ApiNotFoundResponse({ type: EnrollErrorDto, description: "Enrollment not found (unknown, or another user's)" })
  @ApiTooManyRequestsResponse({ type: EnrollErrorDto, description: "The user's requests per minute are spent; Retry-After says when to retry" })
  @ApiBadGatewayResponse({ type: EnrollErrorDto, description: 'Data platform unavailable (it failed or did not answer in time)' })
  enrollmentStatus(@Req() req: FastifyRequest, @Query('deployment_uuid') uuid?: unknown): Promise<EnrollmentStatusDto> {
    return this.enroll.status(req.headers.authorization, uuid);
  }
}
