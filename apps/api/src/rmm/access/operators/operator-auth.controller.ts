import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { originVerdict } from '../../../common/http/origin';
import { RuntimeConfig } from '../../../config/runtime-config';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { userAgentOf } from './user-agent';
import { LoginDto, MeDto, toMeDto, SignInMethodsDto, OriginQueryDto, OriginVerdictDto, SessionDto, SessionStateDto, toSessionDto, toSessionStateDto } from './operators.dto';
import { GuardErrorCode } from '../../common/guard.errors';
import { OperatorsService } from './operators.service';
import { PrincipalResolver } from './principal-resolver';
import { clearedSessionCookie, hasCsrfHeader, sessionCookie } from '../../common/session-cookie';
import type { AuthedRequest } from '../../common/principal';

/** The console's sign-in: POST login sets the `rmm_session` cookie, GET me names its operator (GET session the same without a 401), POST logout ends it. */
@Controller('api/v3/auth')
@ApiTags('console sessions')
export class OperatorAuthController {
  constructor(
    private readonly operators: OperatorsService,
    private readonly resolver: PrincipalResolver,
    private readonly config: RuntimeConfig,
  ) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign an operator in: sets the HttpOnly cookie rmm_session (SameSite=Strict)' })
  @ApiBody({ type: LoginDto })
  @ApiOkResponse({ type: SessionDto })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: "{detail: 'Invalid credentials'} for any wrong part; when the password was right and a second factor is missing or wrong: totp_required: true (the account has TOTP) and/or passkey_required: true with passkey_options and challenge_id (it has passkeys: finish with passkey in the body; docs/sso.md)" })
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'password sign-in is turned off: …'}: RMM_PASSWORD_LOGIN=false and the operator is not break-glass (said only after the password was right)" })
  @ApiResponse({ status: 429, type: RmmErrorDto, description: 'Too many failed sign-ins for this account or address (Retry-After)' })
  async login(@Body() body: LoginDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionDto> {
    // The attempt rides on the request for the audit log (who tried, how), whatever the outcome.
    const attempt = ((req as AuthedRequest).signIn = { email: null, method: 'password' });
    const { operator, token } = await this.operators.signIn(body, req.ip, attempt, userAgentOf(req) ?? undefined);
    void reply.header('Set-Cookie', sessionCookie(token, this.config.sessionMaxHours * 3600, this.secure));
    return toSessionDto(operator);
  }

  @Get('methods')
  @ApiOperation({ summary: 'How an operator may sign in here (public: the sign-in page asks first): password, the OpenID provider (its button label), passkeys' })
  @ApiOkResponse({ type: SignInMethodsDto })
  methods(): SignInMethodsDto {
    return { password: this.config.passwordLogin, oidc: this.config.oidc ? { button: this.config.oidc.button } : null, passkeys: true, step_up_minutes: this.config.stepUpMinutes };
  }

  @Get('me')
  @ApiOperation({ summary: "The signed-in operator (by the rmm_session cookie): role, clients and scopes; when the session last authenticated, and the account's methods (password, TOTP, passkeys, single sign-on)" })
  @ApiOkResponse({ type: MeDto })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: 'No live session' })
  async me(@Req() req: FastifyRequest): Promise<MeDto> {
    return toMeDto(await this.operators.account(await this.session(req)));
  }

  @Get('session')
  @ApiOperation({
    summary:
      "Whether the request carries a live session, and its operator: 200 {signed_in: false, operator: null} when it does not (a page asks this first, so a signed-out visit logs no 401 in the browser's console); an API key is not a session",
  })
  @ApiOkResponse({ type: SessionStateDto })
  async sessionState(@Req() req: FastifyRequest): Promise<SessionStateDto> {
    const principal = await this.session(req).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === CommonErrorCode.Unauthorized) return null;
      throw err;
    });
    return toSessionStateDto(principal ? await this.operators.get(principal.id) : null);
  }

  @Get('origin')
  @ApiOperation({
    summary:
      "Whether the console at a page origin may open the events WebSockets with its session, and if not why and which setting would allow it: a browser learns nothing of a refused upgrade but that it failed, so the console asks (docs/events.md)",
  })
  @ApiOkResponse({ type: OriginVerdictDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: '`origin` is not an http(s) origin' })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: 'No live session' })
  async origin(@Query() query: OriginQueryDto, @Req() req: FastifyRequest): Promise<OriginVerdictDto> {
    await this.session(req);
    return originVerdict(query.origin, this.config);
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: the session is deleted server-side and the cookie cleared (needs X-Requested-With: rmm-console)' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'CSRF check failed'}" })
  async logout(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    if (!hasCsrfHeader(req.headers)) throw new DomainError(GuardErrorCode.CsrfFailed, 'CSRF check failed');
    void reply.header('Set-Cookie', clearedSessionCookie(this.secure));
    const principal = await this.session(req).catch(() => null);
    if (!principal) return;
    (req as AuthedRequest).principal = principal; // the audit log names who signed out
    await this.operators.signOut(principal.id, principal.sessionId!);
  }

  private get secure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }

  /** The operator of the request's cookie (an API key is not a session: 401). */
  private async session(req: FastifyRequest) {
    const { principal, via } = await this.resolver.resolve({ cookie: req.headers.cookie });
    if (via !== 'cookie') throw new DomainError(CommonErrorCode.Unauthorized, 'Invalid token');
    return principal;
  }
}
