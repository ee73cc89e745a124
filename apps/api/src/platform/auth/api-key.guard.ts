import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PlatformCallers } from './platform-caller';

/** Every /auth/v1 request carries the anon or the service-role key in `apikey` (Supabase's gateway rule). */
@Injectable()
export class PlatformApiKeyGuard implements CanActivate {
  constructor(private readonly callers: PlatformCallers) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    this.callers.requireApiKey(req.headers, req.query as Record<string, unknown>);
    return true;
  }
}
