import { Module } from '@nestjs/common';
import { AccessTokens } from '../../../platform/auth/access-tokens';
import { PlatformCallers } from '../../../platform/auth/platform-caller';
import { AuditHttpRecorder } from './audit-http';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/**
 * The audit log: the HTTP hook (AuditHttpRecorder), the batching writer (AuditService, also used by the CLI)
 * and GET /api/v3/audit/. PlatformCallers (stateless) is provided here too, to name the caller of an
 * /auth/v1/admin request by the data platform's own rules.
 */
@Module({
  controllers: [AuditController],
  providers: [AuditRepository, AuditService, AuditHttpRecorder, AccessTokens, PlatformCallers],
  exports: [AuditService],
})
export class AuditModule {}
