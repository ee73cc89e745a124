import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { PlatformCallers } from './platform-caller';
import { PlatformApiKeyGuard } from './api-key.guard';
import { AdminCreateUserDto, AdminUserListDto, GoTrueErrorDto, GoTrueUserDto, PasswordGrantDto, TokenResponseDto } from './auth.dto';
import { AuthService, TokenResponse } from './auth.service';
import { GoTrueUser } from './user.mapper';

@ApiTags('data platform: auth (GoTrue-compatible)')
// The apikey header is the data-key security scheme (openapi/swagger.ts), so "Authorize" fills it for every call.
@ApiResponse({ status: 401, description: "apikey missing or unknown: the gateway's {message}" })
@UseGuards(PlatformApiKeyGuard)
@Controller('auth/v1')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly callers: PlatformCallers,
  ) {}

  @Post('token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in (grant_type=password) or refresh a session (grant_type=refresh_token)' })
  @ApiQuery({
    name: 'grant_type',
    required: true,
    enum: ['password', 'refresh_token'],
    example: 'password',
    description: 'password: the body is {email, password}; refresh_token: the body is {refresh_token}. Anything else: 400 unsupported_grant_type',
  })
  @ApiBody({ type: PasswordGrantDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiResponse({ status: 400, type: GoTrueErrorDto, description: 'invalid_credentials, refresh_token_not_found, refresh_token_already_used' })
  @ApiResponse({
    status: 429,
    type: GoTrueErrorDto,
    description:
      'over_request_rate_limit, with Retry-After (seconds): too many failed sign-ins for the account or the client address, or too many sign-ins in progress',
  })
  token(@Query('grant_type') grantType: unknown, @Body() body: unknown, @Req() req: FastifyRequest): Promise<TokenResponse> {
    // request.ip: the connection's peer, or the client X-Forwarded-For names when the peer is a TRUST_PROXY proxy.
    return this.auth.token(grantType, body, req.ip);
  }

  @Get('user')
  @ApiOperation({ summary: 'The user of the bearer access token' })
  @ApiOkResponse({ type: GoTrueUserDto })
  @ApiResponse({ status: 401, description: "apikey missing or unknown (the gateway's {message}), or no bearer token (no_authorization)" })
  @ApiResponse({ status: 403, type: GoTrueErrorDto, description: 'bad_jwt, user_not_found, session_not_found' })
  user(@Headers() headers: FastifyRequest['headers']): Promise<GoTrueUser> {
    return this.auth.user(this.callers.bearerOf(headers));
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({ summary: "End the bearer's session (scope=local), all of the user's (global, the default) or all others" })
  @ApiQuery({
    name: 'scope',
    required: false,
    enum: ['global', 'local', 'others'],
    description: "global (the default): all the user's sessions; local: this one; others: all but this one. Anything else: 400",
  })
  @ApiResponse({ status: 204, description: 'Sessions ended; their refresh tokens no longer work' })
  @ApiResponse({ status: 400, type: GoTrueErrorDto, description: 'validation_failed: Unsupported logout scope' })
  @ApiResponse({ status: 401, description: "apikey missing or unknown (the gateway's {message}), or no bearer token (no_authorization)" })
  logout(@Headers() headers: FastifyRequest['headers'], @Query('scope') scope: unknown): Promise<void> {
    return this.auth.logout(this.callers.bearerOf(headers), scope);
  }

  @Post('admin/users')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a user (service-role key). No user_profiles row is made: insert it through /rest/v1.' })
  @ApiBody({ type: AdminCreateUserDto })
  @ApiOkResponse({ type: GoTrueUserDto })
  @ApiResponse({ status: 400, type: GoTrueErrorDto, description: 'validation_failed: email over 254 characters, password over 1024, user_metadata deeper than 8 levels or over 16 KiB' })
  @ApiResponse({ status: 422, type: GoTrueErrorDto, description: 'email_exists, weak_password' })
  @ApiResponse({ status: 429, type: GoTrueErrorDto, description: 'over_request_rate_limit, Retry-After: 1: too many passwords being hashed now' })
  async adminCreate(@Req() req: FastifyRequest, @Body() body: unknown): Promise<GoTrueUser> {
    return this.auth.adminCreate(await this.callers.resolveForAuth(req), body);
  }

  @Get('admin/users')
  @ApiOperation({ summary: 'List users (service-role key), page and per_page' })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 }, description: 'Page number, from 1 (anything else: 1)' })
  @ApiQuery({
    name: 'per_page',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
    description: 'Users per page (anything else: 50; at most 1000)',
  })
  @ApiOkResponse({ type: AdminUserListDto })
  async adminList(@Req() req: FastifyRequest, @Query('page') page: unknown, @Query('per_page') perPage: unknown) {
    return this.auth.adminList(await this.callers.resolveForAuth(req), page, perPage);
  }

  @Get('admin/users/:id')
  @ApiOperation({ summary: 'One user (service-role key)' })
  @ApiOkResponse({ type: GoTrueUserDto })
  @ApiResponse({ status: 404, type: GoTrueErrorDto, description: 'user_not_found' })
  async adminGet(@Req() req: FastifyRequest, @Param('id') id: string): Promise<GoTrueUser> {
    return this.auth.adminGet(await this.callers.resolveForAuth(req), id);
  }

  @Delete('admin/users/:id')
  @ApiOperation({ summary: 'Delete a user with their profile, sessions and enrollment rows (service-role key)' })
  @ApiOkResponse({ description: 'Deleted: an empty object', schema: { type: 'object', example: {} } })
  @ApiResponse({ status: 404, type: GoTrueErrorDto, description: 'user_not_found' })
  async adminDelete(@Req() req: FastifyRequest, @Param('id') id: string): Promise<Record<string, never>> {
    return this.auth.adminDelete(await this.callers.resolveForAuth(req), id);
  }
}
