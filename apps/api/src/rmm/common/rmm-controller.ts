import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { API_KEY_SECURITY } from '../../common/http/openapi-security';
import { ApiKeyGuard } from './api-key.guard';
import { RmmErrorDto } from './rmm-error.dto';
import { RmmThrottlerGuard } from './rmm-throttler.guard';

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

