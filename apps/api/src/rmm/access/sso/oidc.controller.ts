import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RuntimeConfig } from '../../../config/runtime-config';
import type { AuthedRequest, SignInAttempt } from '../../common/principal';
import { sessionCookie, sessionTokenOf } from '../../common/session-cookie';
import { userAgentOf } from '../operators/user-agent';
import { OidcFlightCookie } from './oidc-cookie';
import { OIDC_FLIGHT_SECONDS, OidcService } from './oidc.service';

/**
 * Sign-in through the OpenID provider (docs/sso.md): a browser's round trip, so every answer is a redirect — to the
 * provider, back to the console page, or to the sign-in page with `?error=<code>` (never a token or a reason).
 */
@Controller('api/v3/auth/oidc')
@ApiTags('console sessions')
export class OidcController {
  constructor(
    private readonly oidc: OidcService,
    private readonly config: RuntimeConfig,
  ) {}

  @Get('login')
  @ApiOperation({ summary: 'Begin a sign-in at the OpenID provider: 302 there (sets the rmm_oidc cookie for the callback); with step_up=1 and a session, re-authenticate it (max_age=0)' })
  @ApiQuery({ name: 'return_to', required: false, description: 'A console page (/app/…) to come back to; anything else: /app/' })
  @ApiQuery({ name: 'step_up', required: false, description: '1: re-authenticate the current session instead of starting a new one' })
  @ApiResponse({ status: 302, description: 'To the provider; to /app/sign-in?error=not_configured (or oidc_failed) when it cannot begin' })
  async login(@Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const { url, challengeId } = await this.oidc.start(query.return_to, query.step_up === '1', sessionTokenOf(req.headers), req.ip);
      redirect(reply, url, OidcFlightCookie.set(challengeId, OIDC_FLIGHT_SECONDS, this.secure));
    } catch (err) {
      redirect(reply, signInPage(this.oidc.failureCode(err)));
    }
  }

  @Get('callback')
  @ApiOperation({ summary: "The provider's redirect back: sets rmm_session and 302 to the page the sign-in began on; any failure 302 to /app/sign-in?error=<code>" })
  @ApiResponse({ status: 302, description: 'To the console page (signed in), or /app/sign-in?error=oidc_failed|state_mismatch|no_access|email_in_use|no_email|disabled|provider_refused|step_up_mismatch|rate_limited|not_configured' })
  async callback(@Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // The attempt rides on the request for the audit log (audit-http.ts records a GET that carries one).
    const attempt: SignInAttempt = ((req as AuthedRequest).signIn = { email: null, method: 'oidc' });
    const cleared = OidcFlightCookie.clear(this.secure);
    try {
      const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const outcome = await this.oidc.callback(
        { query: search, params: query, challengeId: OidcFlightCookie.of(req.headers), sessionToken: sessionTokenOf(req.headers), address: req.ip, userAgent: userAgentOf(req) },
        attempt,
      );
      const cookies = outcome.kind === 'session' ? [cleared, sessionCookie(outcome.token, outcome.maxAgeSeconds, this.secure)] : [cleared];
      redirect(reply, outcome.returnTo, ...cookies);
    } catch (err) {
      delete attempt.operator; // a refusal is audited as the account tried, not as the operator
      redirect(reply, signInPage(this.oidc.failureCode(err)), cleared);
    }
  }

  private get secure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }
}

const signInPage = (code: string): string => `/app/sign-in?error=${encodeURIComponent(code)}`;

function redirect(reply: FastifyReply, location: string, ...cookies: string[]): void {
  if (cookies.length > 0) void reply.header('set-cookie', cookies);
  void reply.code(302).header('location', location).header('cache-control', 'no-store').send();
}
