import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { RuntimeConfig } from '../../../config/runtime-config';
import { GuardErrorCode } from '../../common/guard.errors';
import type { AuthedRequest, Principal } from '../../common/principal';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { hasCsrfHeader, sessionCookie } from '../../common/session-cookie';
import { PasskeyAnswerDto, SessionDto, toSessionDto } from '../operators/operators.dto';
import { PrincipalResolver } from '../operators/principal-resolver';
import { userAgentOf } from '../operators/user-agent';
import { PasskeyCeremonyDto, PasskeyDto, RegisterPasskeyDto, RenamePasskeyDto, toPasskeyDto } from './passkeys.dto';
import { Ceremony, PasskeysService } from './passkeys.service';

const ceremony = (c: Ceremony): PasskeyCeremonyDto => ({ challenge_id: c.challengeId, options: c.options });

/**
 * Passkeys (docs/sso.md, "Passkeys"): the signed-in operator's own (by the rmm_session cookie; changes need
 * X-Requested-With: rmm-console), sign-in with one alone (public), and step-up with one.
 */
@Controller('api/v3/auth/passkeys')
@ApiTags('passkeys')
export class PasskeysController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly resolver: PrincipalResolver,
    private readonly config: RuntimeConfig,
  ) {}

  @Post('options')
  @HttpCode(200)
  @ApiOperation({ summary: "Begin registering a passkey: the browser's creation options (discoverable, user verification required) and the challenge's id" })
  @ApiOkResponse({ type: PasskeyCeremonyDto })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: 'No live session' })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  async registrationOptions(@Req() req: FastifyRequest): Promise<PasskeyCeremonyDto> {
    return ceremony(await this.passkeys.registrationOptions(await this.session(req)));
  }

  @Post()
  @ApiOperation({ summary: "Register a passkey: the browser's answer to the creation options" })
  @ApiCreatedResponse({ type: PasskeyDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'The challenge is unknown, used or expired, or the answer does not verify (origin, RP id, user verification)' })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: 'No live session' })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  async register(@Body() body: RegisterPasskeyDto, @Req() req: FastifyRequest): Promise<PasskeyDto> {
    return toPasskeyDto(await this.passkeys.register(await this.session(req), body));
  }

  @Get()
  @ApiOperation({ summary: "The signed-in operator's passkeys" })
  @ApiOkResponse({ type: [PasskeyDto] })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: 'No live session' })
  async list(@Req() req: FastifyRequest): Promise<PasskeyDto[]> {
    return (await this.passkeys.list(await this.session(req))).map(toPasskeyDto);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename one of your passkeys' })
  @ApiOkResponse({ type: PasskeyDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'Not one of your passkeys' })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: 'No live session' })
  async rename(@Param('id') id: string, @Body() body: RenamePasskeyDto, @Req() req: FastifyRequest): Promise<PasskeyDto> {
    return toPasskeyDto(await this.passkeys.rename(await this.session(req), id, body.name));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove one of your passkeys (it no longer signs in)' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'Not one of your passkeys' })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: 'No live session' })
  async remove(@Param('id') id: string, @Req() req: FastifyRequest): Promise<void> {
    await this.passkeys.remove(await this.session(req), id);
  }

  @Post('sign-in/options')
  @HttpCode(200)
  @ApiOperation({ summary: 'Begin signing in with a passkey alone (public): request options without allowCredentials (discoverable credentials)' })
  @ApiOkResponse({ type: PasskeyCeremonyDto })
  @ApiResponse({ status: 429, type: RmmErrorDto, description: 'Too many failed sign-ins from this address, or more than 60 sign-ins begun from it within a minute (Retry-After)' })
  async signInOptions(@Req() req: FastifyRequest): Promise<PasskeyCeremonyDto> {
    return ceremony(await this.passkeys.signInOptions(req.ip));
  }

  @Post('sign-in')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with a passkey: sets the HttpOnly cookie rmm_session as POST /api/v3/auth/login does (allowed when RMM_PASSWORD_LOGIN=false)' })
  @ApiBody({ type: PasskeyAnswerDto })
  @ApiOkResponse({ type: SessionDto })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: "{detail: 'Invalid credentials'}: unknown passkey, used or expired challenge, a counter that did not increase, a disabled operator" })
  @ApiResponse({ status: 429, type: RmmErrorDto, description: 'Too many failed sign-ins from this address (Retry-After)' })
  async signIn(@Body() body: PasskeyAnswerDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionDto> {
    // The attempt rides on the request for the audit log (who tried, how), whatever the outcome.
    const attempt = ((req as AuthedRequest).signIn = { email: null, method: 'passkey' });
    const { operator, token } = await this.passkeys.signIn(body, req.ip, attempt, userAgentOf(req));
    void reply.header('Set-Cookie', sessionCookie(token, this.config.sessionMaxHours * 3600, this.config.publicUrl.startsWith('https:')));
    return toSessionDto(operator);
  }

  @Post('step-up/options')
  @HttpCode(200)
  @ApiOperation({ summary: "Begin re-authenticating this session with a passkey (step-up): request options limited to the operator's passkeys" })
  @ApiOkResponse({ type: PasskeyCeremonyDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'The operator has no passkey' })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: 'No live session' })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  async stepUpOptions(@Req() req: FastifyRequest): Promise<PasskeyCeremonyDto> {
    return ceremony(await this.passkeys.stepUpOptions(await this.session(req)));
  }

  @Post('step-up')
  @HttpCode(204)
  @ApiOperation({ summary: 'Re-authenticate this session with a passkey: dangerous actions are allowed for RMM_STEP_UP_MINUTES again' })
  @ApiBody({ type: PasskeyAnswerDto })
  @ApiNoContentResponse()
  @ApiResponse({ status: 401, type: RmmErrorDto, description: "{detail: 'Invalid credentials'}: the answer does not verify, or no live session" })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  async stepUp(@Body() body: PasskeyAnswerDto, @Req() req: FastifyRequest): Promise<void> {
    await this.passkeys.stepUp(await this.session(req), body);
  }

  /** The operator of the request's cookie (an API key is not a session: 401); a change needs the CSRF header. */
  private async session(req: FastifyRequest): Promise<Principal> {
    if (req.method !== 'GET' && !hasCsrfHeader(req.headers)) throw new DomainError(GuardErrorCode.CsrfFailed, 'CSRF check failed');
    const { principal, via } = await this.resolver.resolve({ cookie: req.headers.cookie });
    if (via !== 'cookie') throw new DomainError(CommonErrorCode.Unauthorized, 'Invalid token');
    (req as AuthedRequest).principal = principal; // the audit log names who
    return principal;
  }
}
