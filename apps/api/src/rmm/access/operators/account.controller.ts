import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { RuntimeConfig } from '../../../config/runtime-config';
import { GuardErrorCode } from '../../common/guard.errors';
import { ParseUuidPipe } from '../../common/id.pipe';
import type { AuthedRequest, Principal } from '../../common/principal';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireStepUp } from '../../common/scopes';
import { clearedSessionCookie, hasCsrfHeader } from '../../common/session-cookie';
import { OperatorSessionDto, ReauthDto, SessionsEndedDto, toOperatorSessionDto, TotpSetupDto } from './operators.dto';
import { OperatorsService } from './operators.service';
import { PrincipalResolver } from './principal-resolver';

const STEP_UP_401 = "{detail: 're-authentication required', step_up: true}: the session authenticated more than RMM_STEP_UP_MINUTES ago (docs/sso.md)";

/**
 * The signed-in operator's own account (docs/sso.md): re-authentication (step-up), their sessions, their TOTP. Only
 * a console session may call these (an API key is not one: 401); changes need X-Requested-With: rmm-console.
 */
@Controller('api/v3/auth')
@ApiTags('console sessions')
@ApiResponse({ status: 401, type: RmmErrorDto, description: "{detail: 'Invalid token'}: no live session" })
export class AccountController {
  constructor(
    private readonly operators: OperatorsService,
    private readonly resolver: PrincipalResolver,
    private readonly config: RuntimeConfig,
  ) {}

  @Post('reauth')
  @HttpCode(204)
  @ApiOperation({ summary: "Re-authenticate the session (step-up) with the operator's password, and its TOTP or recovery code when set up: dangerous actions are allowed for RMM_STEP_UP_MINUTES again" })
  @ApiBody({ type: ReauthDto })
  @ApiNoContentResponse()
  @ApiResponse({ status: 401, type: RmmErrorDto, description: "{detail: 'Invalid credentials'}; with totp_required: true when the code is missing or wrong" })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: 'Password sign-in is turned off (RMM_PASSWORD_LOGIN=false) for this operator; or the CSRF check failed' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: 'The account has no password: re-authenticate with a passkey or single sign-on' })
  @ApiResponse({ status: 429, type: RmmErrorDto, description: 'Too many failed sign-ins for this account or address (Retry-After)' })
  async reauth(@Body() body: ReauthDto, @Req() req: FastifyRequest): Promise<void> {
    const principal = await this.operator(req, true);
    // Audited as a sign-in attempt (who, how, from where), whatever the outcome.
    const attempt = ((req as AuthedRequest).signIn = { email: principal.name, method: 'password' });
    await this.operators.reauthenticate(principal, body, req.ip, attempt);
  }

  @Get('sessions')
  @ApiOperation({ summary: "The signed-in operator's live sessions (where, which browser, how, when), the current one marked" })
  @ApiOkResponse({ type: [OperatorSessionDto] })
  async sessions(@Req() req: FastifyRequest): Promise<OperatorSessionDto[]> {
    const principal = await this.operator(req, false);
    return (await this.operators.sessionsOf(principal.id)).map((s) => toOperatorSessionDto(s, principal.sessionId));
  }

  @Delete('sessions/:id')
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  @HttpCode(204)
  @ApiOperation({ summary: 'End one of your sessions (its WebSockets close); ending the current one signs this browser out (the cookie is cleared)' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such session of yours' })
  async endSession(@Param('id', ParseUuidPipe) id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const principal = await this.operator(req, true);
    await this.operators.endOwnSession(principal, id);
    if (id === principal.sessionId) void reply.header('Set-Cookie', clearedSessionCookie(this.secure));
  }

  @Delete('sessions')
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign out everywhere else: every session of yours but the current one ends' })
  @ApiOkResponse({ type: SessionsEndedDto })
  async endOtherSessions(@Req() req: FastifyRequest): Promise<SessionsEndedDto> {
    return { ended: await this.operators.endOtherSessions(await this.operator(req, true)) };
  }

  @Post('totp')
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  @RequireStepUp()
  @ApiOperation({ summary: 'Set up TOTP for yourself (replacing any earlier one): the otpauth URI and ten recovery codes, shown once' })
  @ApiCreatedResponse({ type: TotpSetupDto })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: STEP_UP_401 })
  async enableTotp(@Req() req: FastifyRequest): Promise<TotpSetupDto> {
    const { uri, recoveryCodes } = await this.operators.enableOwnTotp(await this.operator(req, true));
    return { otpauth_uri: uri, recovery_codes: recoveryCodes };
  }

  @Delete('totp')
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}: a change without X-Requested-With: rmm-console" })
  @HttpCode(204)
  @RequireStepUp()
  @ApiOperation({ summary: 'Remove your TOTP (your password alone signs in again)' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 401, type: RmmErrorDto, description: STEP_UP_401 })
  async disableTotp(@Req() req: FastifyRequest): Promise<void> {
    await this.operators.disableOwnTotp(await this.operator(req, true));
  }

  private get secure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }

  /**
   * The operator of the request's cookie (an API key is not a session: 401); a change needs the CSRF header. These
   * routes are outside the key guard, so the step-up of the TOTP routes is checked by the service (requireStepUp).
   */
  private async operator(req: FastifyRequest, change: boolean): Promise<Principal> {
    if (change && !hasCsrfHeader(req.headers)) throw new DomainError(GuardErrorCode.CsrfFailed, 'CSRF check failed');
    const { principal, via } = await this.resolver.resolve({ cookie: req.headers.cookie });
    if (via !== 'cookie') throw new DomainError(CommonErrorCode.Unauthorized, 'Invalid token');
    (req as AuthedRequest).principal = principal; // the audit log names who
    return principal;
  }
}
