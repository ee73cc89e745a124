import { applyDecorators, Controller, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiExtension, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyScope } from '@app/entities';
import { API_KEY_SECURITY } from '../../common/http/openapi-security';
import { RmmErrorDto } from './rmm-error.dto';
import { ApiKeyGuard } from './api-key.guard';
import { RmmThrottlerGuard } from './rmm-throttler.guard';

export const SCOPE_KEY = 'rmm:scope';
export const DEPLOYMENT_CREATION_KEY = 'rmm:deployment-creation';
export const ALSO_SCOPE_KEY = 'rmm:also-scope';

/** A second scope a route needs besides its own: always, or only `when` (a case only the service can tell). */
export interface AlsoRequiredScope {
  scope: ApiKeyScope;
  when?: string;
}

/**
 * A controller of the management backend under /api/v3/{path}: X-API-KEY checked first (401/403), then
 * the per-key rate limit (429), and the common error answers documented.
 */
export function RmmController(path: string, tag: string): ClassDecorator {
  return applyDecorators(
    Controller(`api/v3/${path}`),
    UseGuards(ApiKeyGuard, RmmThrottlerGuard),
    ApiTags(tag),
    ApiSecurity(API_KEY_SECURITY),
    ApiResponse({ status: 401, type: RmmErrorDto, description: "{detail: 'Invalid token'}: missing, wrong, revoked or expired key" }),
    ApiResponse({ status: 403, type: RmmErrorDto, description: "{detail: 'permission denied'}: the key lacks the scope" }),
    ApiResponse({ status: 429, type: RmmErrorDto, description: "{detail: 'rate limited'}, with Retry-After (seconds)" }),
  );
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

/** Marks the route that the second limit (deployment creations per minute per key) also counts. */
export const CountsAsDeploymentCreation = (): MethodDecorator => SetMetadata(DEPLOYMENT_CREATION_KEY, true);
