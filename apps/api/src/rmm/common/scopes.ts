import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiKeyScope } from '@app/entities';

export const SCOPE_KEY = 'rmm:scope';
export const DEPLOYMENT_CREATION_KEY = 'rmm:deployment-creation';
export const ALSO_SCOPE_KEY = 'rmm:also-scope';
export const ANY_SCOPE_KEY = 'rmm:any-scope';
export const STEP_UP_KEY = 'rmm:step-up';

/** A second scope a route needs besides its own: always, or only `when` (a case only the service can tell). */
export interface AlsoRequiredScope {
  scope: ApiKeyScope;
  when?: string;
}

/** The scope a route needs (`admin` keys have every scope); shown in the OpenAPI document as x-required-scope. */
export function RequireScope(scope: ApiKeyScope): MethodDecorator {
  return applyDecorators(SetMetadata(SCOPE_KEY, scope), ApiExtension('x-required-scope', scope));
}

/**
 * A scope the route needs besides RequireScope's (`scripts:run` where a request makes code run on an agent),
 * shown in the OpenAPI document as x-also-requires-scope (and x-also-requires-scope-when). Without `when`,
 * ApiKeyGuard refuses a key without it (403) as it does for the route's own scope. With `when`, only that case
 * needs it, and the route's service refuses it (requireScope / hasScope) once it knows, before it writes anything.
 */
export function AlsoRequireScope(scope: ApiKeyScope, when?: string): MethodDecorator {
  const also: AlsoRequiredScope = when ? { scope, when } : { scope };
  return applyDecorators(
    SetMetadata(ALSO_SCOPE_KEY, also),
    ApiExtension('x-also-requires-scope', scope),
    ...(when ? [ApiExtension('x-also-requires-scope-when', when)] : []),
  );
}

/**
 * A dangerous action (docs/sso.md, "Step-up"): an operator's session must have authenticated within
 * RMM_STEP_UP_MINUTES, else 401 {detail: 're-authentication required', step_up: true}. `when` names the case when
 * only some requests of the route are dangerous (the service then calls requireStepUp itself). API keys are
 * unaffected: their scopes decide. Shown in the OpenAPI document as x-step-up (and x-step-up-when).
 */
export function RequireStepUp(when?: string): MethodDecorator {
  return applyDecorators(SetMetadata(STEP_UP_KEY, when ?? true), ApiExtension('x-step-up', true), ...(when ? [ApiExtension('x-step-up-when', when)] : []));
}

/** Marks the route that the second limit (deployment creations per minute per key) also counts. */
export const CountsAsDeploymentCreation = (): MethodDecorator => SetMetadata(DEPLOYMENT_CREATION_KEY, true);

/**
 * A route any of several scopes admits (the custom fields' definitions: agents:read for the agents', clients:read for
 * the sites' and clients'): the guard asks for one of them, the service answers what each allows. The first is the
 * route's x-required-scope; all of them are x-required-scope-any.
 */
export function RequireAnyScope(first: ApiKeyScope, ...others: ApiKeyScope[]): MethodDecorator {
  return applyDecorators(SetMetadata(SCOPE_KEY, first), SetMetadata(ANY_SCOPE_KEY, [first, ...others]), ApiExtension('x-required-scope', first), ApiExtension('x-required-scope-any', [first, ...others]));
}
