import { Body, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { ParseIdPipe } from '../../common/id.pipe';
import { setTotal } from '../../common/list-headers';
import { isPaged, PageQueryDto, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { CountsAsDeploymentCreation, RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { CreateDeploymentDto, DeploymentDto, toDeploymentDto } from './deployments.dto';
import { DeploymentsService } from './deployments.service';

@RmmController('agents/deployments', 'deployments')
export class DeploymentsController {
  constructor(private readonly deployments: DeploymentsService) {}

  @Post()
  @RequireScope('deployments:write')
  @CountsAsDeploymentCreation()
  @ApiOperation({ summary: 'Create a deployment: an installer download link for a site (max_registrations 1 makes it one-time). Scope: deployments:write. Also limited to 20 per minute per key' })
  @ApiCreatedResponse({ type: DeploymentDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error: unknown client, site of another client, past expiry, unknown arch' })
  async create(@Body() body: CreateDeploymentDto, @Req() req: AuthedRequest): Promise<DeploymentDto> {
    return toDeploymentDto(await this.deployments.create(body, req.principal), this.deployments.publicUrl);
  }

  @Get()
  @RequireScope('deployments:read')
  @ApiOperation({ summary: 'List active deployments (not revoked, not expired), by id. Scope: deployments:read' })
  @ApiOkResponse({ type: [DeploymentDto] })
  async list(@Query() q: PageQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DeploymentDto[]> {
    const [rows, total] = await this.deployments.listActive(pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map((d) => toDeploymentDto(d, this.deployments.publicUrl));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('deployments:write')
  @ApiOperation({ summary: 'Revoke a deployment: its download answers 410 from now on. Scope: deployments:write' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async revoke(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.deployments.revoke(id, clientFilter(req.principal));
  }
}
