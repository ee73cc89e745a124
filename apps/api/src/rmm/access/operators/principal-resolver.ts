import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { Callers, ResolvedCaller } from '../../common/callers';
import { keyPrincipal } from '../../common/principal';
import { OperatorsService } from './operators.service';
import { sessionTokenOf } from '../../common/session-cookie';

/**
 * The caller of a management request or WebSocket upgrade, for every surface that takes them (the HTTP guard,
 * both event WebSockets): X-API-KEY (or `queryKey`, a WebSocket's ?api_key=) first — a key that is given but
 * wrong is refused even when a cookie comes with it —, else the console's `rmm_session` cookie. Unauthorized
 * ('Invalid token') when neither names a usable key or live session. Scopes are the caller's to check.
 */
@Injectable()
export class PrincipalResolver extends Callers {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly operators: OperatorsService,
  ) {
    super();
  }

  async resolve(headers: IncomingHttpHeaders, queryKey?: string): Promise<ResolvedCaller> {
    const header = headers['x-api-key'];
    const secret = (Array.isArray(header) ? header[0] : header) || queryKey;
    if (secret) {
      const key = await this.keys.verify(secret);
      if (key) return { principal: keyPrincipal(key), via: 'api_key' };
      throw unauthorized();
    }
    const token = sessionTokenOf(headers);
    const principal = token ? await this.operators.principalOf(token) : null;
    if (principal) return { principal, via: 'cookie' };
    throw unauthorized();
  }
}

const unauthorized = (): DomainError => new DomainError(CommonErrorCode.Unauthorized, 'Invalid token');
