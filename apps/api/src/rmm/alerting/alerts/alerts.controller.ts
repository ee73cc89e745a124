import { Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { ParseIdPipe } from '../../common/id.pipe';
import { setTotal } from '../../common/list-headers';
import { isPaged, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { AlertDto, toAlertDto } from '../../common/resources/alert.dto';
import { AlertFilterDto } from './alerts.dto';
import { AlertsService } from './alerts.service';

@RmmController('alerts', 'alerts')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such alert' })
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Get()
  @RequireScope('alerts:read')
  @ApiOperation({ summary: 'List active alerts (resolved=true: resolved ones); filters agent, severity, alert_type, snoozed. Scope: alerts:read' })
  @ApiOkResponse({ type: [AlertDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  async list(@Query() q: AlertFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AlertDto[]> {
    const filter = { agentId: q.agent === undefined ? undefined : Number(q.agent), severity: q.severity, alertType: q.alert_type, resolved: q.resolved ?? false, snoozed: q.snoozed };
    const [rows, total] = await this.alerts.list(filter, pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toAlertDto);
  }

  @Get(':id')
  @RequireScope('alerts:read')
  @ApiOperation({ summary: 'One alert. Scope: alerts:read' })
  @ApiOkResponse({ type: AlertDto })
  async get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<AlertDto> {
    return toAlertDto(await this.alerts.get(id, clientFilter(req.principal)));
  }

  @Post(':id/acknowledge')
  @HttpCode(200)
  @RequireScope('alerts:write')
  @ApiOperation({ summary: 'Mark an alert seen, not resolved (records the key name and time; the first acknowledgement stays). Scope: alerts:write' })
  @ApiOkResponse({ type: AlertDto })
  async acknowledge(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<AlertDto> {
    return toAlertDto(await this.alerts.acknowledge(id, req.principal!.name, clientFilter(req.principal)));
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @RequireScope('alerts:write')
  @ApiOperation({ summary: 'Resolve an alert: it leaves the active list. Scope: alerts:write' })
  @ApiOkResponse({ type: AlertDto })
  async resolve(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<AlertDto> {
    return toAlertDto(await this.alerts.resolve(id, req.principal!.name, clientFilter(req.principal)));
  }
}
