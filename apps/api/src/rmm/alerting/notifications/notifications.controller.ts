import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { setTotal } from '../../common/list-headers';
import { isPaged, PageQueryDto, pageOf } from '../../common/pagination.dto';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope, RequireStepUp } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { CreateNotificationDto, DeliveryDto, NotificationDto, PatchNotificationDto, TestResultDto, toDeliveryDto, toNotificationDto } from './notifications.dto';
import { NotificationsService } from './notifications.service';

@RmmController('notifications', 'notifications')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such channel (or one the key may not see)' })
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @RequireScope('notifications:read')
  @ApiOperation({ summary: 'List notification channels (secrets and header values are never answered). Scope: notifications:read' })
  @ApiOkResponse({ type: [NotificationDto] })
  async list(@Query() q: PageQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<NotificationDto[]> {
    const [rows, total] = await this.notifications.list(pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toNotificationDto);
  }

  @Post()
  @RequireScope('notifications:write')
  @RequireStepUp()
  @ApiOperation({ summary: 'Create a notification channel: webhook, email, slack or teams (docs/notifications.md). Scope: notifications:write' })
  @ApiCreatedResponse({ type: NotificationDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (url, to, headers, events, clients; e-mail without SMTP_URL; a private address)' })
  async create(@Body() body: CreateNotificationDto, @Req() req: AuthedRequest): Promise<NotificationDto> {
    return toNotificationDto(await this.notifications.create(body, clientFilter(req.principal)));
  }

  @Get(':id')
  @RequireScope('notifications:read')
  @ApiOperation({ summary: 'One notification channel. Scope: notifications:read' })
  @ApiOkResponse({ type: NotificationDto })
  async get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<NotificationDto> {
    return toNotificationDto(await this.notifications.get(id, clientFilter(req.principal)));
  }

  @Patch(':id')
  @RequireScope('notifications:write')
  @RequireStepUp('when url, to, secret or headers change')
  @ApiOperation({ summary: 'Change a channel (not its type); enabled: true turns on a channel a 410 disabled. Scope: notifications:write' })
  @ApiOkResponse({ type: NotificationDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error, or no field given' })
  async patch(@Param('id', ParseIdPipe) id: number, @Body() body: PatchNotificationDto, @Req() req: AuthedRequest): Promise<NotificationDto> {
    return toNotificationDto(await this.notifications.update(id, body, clientFilter(req.principal), req.principal));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('notifications:write')
  @ApiOperation({ summary: 'Delete a channel and its deliveries (pending ones are not sent). Scope: notifications:write' })
  @ApiNoContentResponse()
  async remove(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.notifications.remove(id, clientFilter(req.principal));
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequireScope('notifications:write')
  @ApiOperation({ summary: 'Send a test notification (notification.test) now, once, and answer how it went. Scope: notifications:write' })
  @ApiOkResponse({ type: TestResultDto })
  async test(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<TestResultDto> {
    const r = await this.notifications.test(id, clientFilter(req.principal));
    return { delivered: r.delivered, status_code: r.statusCode, error: r.error, delivery: toDeliveryDto(r.delivery) };
  }

  @Get(':id/deliveries')
  @RequireScope('notifications:read')
  @ApiOperation({ summary: "A channel's deliveries, newest first (status pending | delivered | failed, attempts, last status and error). Scope: notifications:read" })
  @ApiOkResponse({ type: [DeliveryDto] })
  async deliveries(@Param('id', ParseIdPipe) id: number, @Query() q: PageQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DeliveryDto[]> {
    const [rows, total] = await this.notifications.deliveries(id, pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toDeliveryDto);
  }
}
