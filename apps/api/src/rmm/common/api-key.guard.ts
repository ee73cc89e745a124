import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyScope } from '@app/entities';
import { Clock } from '../../common/clock';
import { ApiKeysService, requireScope } from '../api-keys/api-keys.service';
import { ApiKeyUsage } from '../api-keys/api-key-usage';
import { AuthedRequest, keyPrincipal } from './principal';
import { ALSO_SCOPE_KEY, AlsoRequiredScope, SCOPE_KEY } from './scopes';

/**
 * X-API-KEY: 401 when missing, wrong, revoked or expired; 403 when the route's scope is not among the key's, or
 * a scope it always needs besides (AlsoRequireScope without `when`). Sets `req.principal`.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly usage: ApiKeyUsage,
    private readonly reflector: Reflector,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const scope = this.reflector.get<ApiKeyScope | undefined>(SCOPE_KEY, context.getHandler());
    if (!scope) throw new Error(`route ${req.url} declares no scope`); // a programming error: every route names one
    const header = req.headers['x-api-key'];
    const key = await this.keys.authenticate(Array.isArray(header) ? header[0] : header, scope);
    const also = this.reflector.get<AlsoRequiredScope | undefined>(ALSO_SCOPE_KEY, context.getHandler());
    if (also && !also.when) requireScope(key, also.scope);
    req.principal = keyPrincipal(key);
    this.usage.touch(key.id, this.clock.now());
    return true;
  }
}
