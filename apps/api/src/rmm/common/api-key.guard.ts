import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyScope } from '@app/entities';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { Callers, KeyUses } from './callers';
import { GuardErrorCode } from './guard.errors';
import { AuthedRequest, hasScope, permissionDenied, requireScope } from './principal';
import { hasCsrfHeader, isChange } from './session-cookie';
import { ALSO_SCOPE_KEY, AlsoRequiredScope, ANY_SCOPE_KEY, SCOPE_KEY, STEP_UP_KEY } from './scopes';
import { requireStepUp } from './step-up';
import { RuntimeConfig } from '../../config/runtime-config';

/** What a route asks of its caller, read from its decorators (RequireScope, AlsoRequireScope, RequireAnyScope, RequireStepUp). */
interface RouteRules {
  scope: ApiKeyScope | undefined;
  also: AlsoRequiredScope | undefined;
  anyOf: ApiKeyScope[] | undefined;
  /** true: the guard checks step-up; a string: the service does, in the case it names. */
  stepUp: true | string | undefined;
}

/**
 * Who calls /api/v3: an API key (X-API-KEY) or a signed-in operator (the console's `rmm_session` cookie).
 * 401 when neither is usable (missing, wrong, revoked, expired; a session ended or idle); 403 'CSRF check failed'
 * for a cookie-authenticated change without `X-Requested-With: rmm-console`; 403 when the route's scope (or one it
 * always needs besides, AlsoRequireScope without `when`) is not the caller's; 401 step_up for a RequireStepUp route
 * when an operator's session authenticated too long ago. Sets `req.principal`.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** Each handler's scopes, read from its metadata once (not twice per request). */
  private readonly routes = new WeakMap<object, RouteRules>();

  constructor(
    private readonly resolver: Callers,
    private readonly usage: KeyUses,
    private readonly reflector: Reflector,
    private readonly clock: Clock,
    private readonly config: RuntimeConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const { scope, also, anyOf, stepUp } = this.routeOf(context.getHandler());
    if (!scope) throw new Error(`route ${req.url} declares no scope`); // a programming error: every route names one
    const { principal, via } = await this.resolver.resolve(req.headers);
    if (via === 'cookie' && isChange(req.method) && !hasCsrfHeader(req.headers)) {
      throw new DomainError(GuardErrorCode.CsrfFailed, 'CSRF check failed');
    }
    if (!anyOf) requireScope(principal, scope);
    else if (!anyOf.some((s) => hasScope(principal, s))) throw permissionDenied();
    if (also && !also.when) requireScope(principal, also.scope);
    if (stepUp === true) requireStepUp(principal, this.clock.now(), this.config.stepUpMinutes);
    req.principal = principal;
    if (principal.kind === 'api_key') this.usage.touch(principal.id, this.clock.now());
    return true;
  }

  private routeOf(handler: object): RouteRules {
    let route = this.routes.get(handler);
    if (!route) {
      const fn = handler as () => unknown;
      route = {
        scope: this.reflector.get<ApiKeyScope | undefined>(SCOPE_KEY, fn),
        also: this.reflector.get<AlsoRequiredScope | undefined>(ALSO_SCOPE_KEY, fn),
        anyOf: this.reflector.get<ApiKeyScope[] | undefined>(ANY_SCOPE_KEY, fn),
        stepUp: this.reflector.get<true | string | undefined>(STEP_UP_KEY, fn),
      };
      this.routes.set(handler, route);
    }
    return route;
  }
}
