import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ApiKeyEntity, ApiKeyScope } from '@app/entities';
import { Clock } from '../../common/clock';
import { DomainError, ErrorKind } from '../../common/errors/domain-error';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { ApiKeyUsage } from '../api-keys/api-key-usage';
import { SCOPE_KEY } from './scopes';

/** The verified key of a request, for handlers that record who did something. */
export type KeyedRequest = FastifyRequest & { apiKey?: ApiKeyEntity };

export const hasScope = (key: ApiKeyEntity, scope: ApiKeyScope): boolean => key.scopes.includes('admin') || key.scopes.includes(scope);

/** X-API-KEY: 401 when missing, wrong, revoked or expired; 403 when the route's scope is not among the key's. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly usage: ApiKeyUsage,
    private readonly reflector: Reflector,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<KeyedRequest>();
    const header = req.headers['x-api-key'];
    const secret = Array.isArray(header) ? header[0] : header;
    const now = this.clock.now();
    const key = secret ? await this.keys.verify(secret, now) : null;
    if (!key) throw new DomainError(ErrorKind.Unauthorized, 'Invalid token');
    req.apiKey = key;
    this.usage.touch(key.id, now);
    const scope = this.reflector.get<ApiKeyScope | undefined>(SCOPE_KEY, context.getHandler());
    if (!scope) throw new Error(`route ${req.url} declares no scope`); // a programming error: every route names one
    if (!hasScope(key, scope)) throw new DomainError(ErrorKind.Forbidden, 'permission denied');
    return true;
  }
}
