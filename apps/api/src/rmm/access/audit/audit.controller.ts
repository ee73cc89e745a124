import { Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { setTotal } from '../../common/list-headers';
import { isPaged, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { AuditEntryDto, AuditFilterDto, auditFilterOf, toAuditEntryDto } from './audit.dto';
import { AuditService } from './audit.service';

/** The audit log of mutating calls (/api/v3, /auth/v1/admin, the operator CLI): admin keys only. */
@RmmController('audit', 'audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @RequireScope('admin')
  @ApiOperation({
    summary:
      'The audit log, newest first: every POST/PUT/PATCH/DELETE on /api/v3 and /auth/v1/admin (refusals included) and every CLI command that changes something; filters actor_kind, key, method, path (prefix), status, since, until. Scope: admin',
  })
  @ApiOkResponse({ type: [AuditEntryDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  async list(@Query() q: AuditFilterDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<AuditEntryDto[]> {
    const [rows, total] = await this.audit.list(auditFilterOf(q), pageOf(q));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toAuditEntryDto);
  }
}
