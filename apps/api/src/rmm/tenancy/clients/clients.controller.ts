import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { setTotal } from '../../common/list-headers';
import { isPaged, PageQueryDto, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { ClientDto, CreateClientDto, PatchClientDto, RenameDto, SiteDto, toClientDto, toSiteDto } from './clients.dto';
import { ClientsService } from './clients.service';

@RmmController('clients', 'clients and sites')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such client or site' })
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Get()
  @RequireScope('clients:read')
  @ApiOperation({ summary: 'List clients with their sites. Scope: clients:read' })
  @ApiOkResponse({ type: [ClientDto] })
  async list(@Query() q: PageQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<ClientDto[]> {
    const [rows, total] = await this.clients.listPage(pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toClientDto);
  }

  @Post()
  @RequireScope('admin')
  @ApiOperation({ summary: 'Create a client (and optionally its first site). Scope: admin' })
  @ApiCreatedResponse({ type: ClientDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error, or the name is taken' })
  async create(@Body() body: CreateClientDto): Promise<ClientDto> {
    return toClientDto(await this.clients.createClientWithSite(body.name, body.site_name, body.agent_update));
  }

  @Get(':id')
  @RequireScope('clients:read')
  @ApiOperation({ summary: 'One client with its sites. Scope: clients:read' })
  @ApiOkResponse({ type: ClientDto })
  async get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<ClientDto> {
    return toClientDto(await this.clients.get(id, clientFilter(req.principal)));
  }

  @Put(':id')
  @RequireScope('clients:write')
  @ApiOperation({ summary: 'Rename a client. Scope: clients:write' })
  @ApiOkResponse({ type: ClientDto })
  async rename(@Param('id', ParseIdPipe) id: number, @Body() body: RenameDto, @Req() req: AuthedRequest): Promise<ClientDto> {
    return toClientDto(await this.clients.renameClient(id, body.name, clientFilter(req.principal)));
  }

  @Patch(':id')
  @RequireScope('clients:write')
  @ApiOperation({ summary: "Change a client: its name, and whether its agents update themselves (agent_update auto | off). Scope: clients:write" })
  @ApiOkResponse({ type: ClientDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error, no field given, or the name is taken' })
  async patch(@Param('id', ParseIdPipe) id: number, @Body() body: PatchClientDto, @Req() req: AuthedRequest): Promise<ClientDto> {
    return toClientDto(await this.clients.updateClient(id, { name: body.name, agentUpdate: body.agent_update }, clientFilter(req.principal)));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('admin')
  @ApiOperation({ summary: 'Delete a client with its sites and deployments; refused (400) while it has agents. Scope: admin' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 400, type: RmmErrorDto, description: '{detail: "client N still has M agent(s): delete or move them first"}' })
  async remove(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.clients.deleteClient(id, clientFilter(req.principal));
  }

  @Get(':id/sites')
  @RequireScope('clients:read')
  @ApiOperation({ summary: "List a client's sites. Scope: clients:read" })
  @ApiOkResponse({ type: [SiteDto] })
  async sites(@Param('id', ParseIdPipe) id: number, @Query() q: PageQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SiteDto[]> {
    const [rows, total] = await this.clients.sitesOf(id, pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toSiteDto);
  }

  @Post(':id/sites')
  @RequireScope('clients:write')
  @ApiOperation({ summary: 'Create a site under a client. Scope: clients:write' })
  @ApiCreatedResponse({ type: SiteDto })
  async createSite(@Param('id', ParseIdPipe) id: number, @Body() body: RenameDto, @Req() req: AuthedRequest): Promise<SiteDto> {
    return toSiteDto(await this.clients.createSite(id, body.name, clientFilter(req.principal)));
  }

  @Put(':id/sites/:siteId')
  @RequireScope('clients:write')
  @ApiOperation({ summary: 'Rename a site. Scope: clients:write' })
  @ApiOkResponse({ type: SiteDto })
  async renameSite(@Param('id', ParseIdPipe) id: number, @Param('siteId', ParseIdPipe) siteId: number, @Body() body: RenameDto, @Req() req: AuthedRequest): Promise<SiteDto> {
    return toSiteDto(await this.clients.renameSite(id, siteId, body.name, clientFilter(req.principal)));
  }

  @Delete(':id/sites/:siteId')
  @HttpCode(204)
  @RequireScope('clients:write')
  @ApiOperation({ summary: 'Delete a site and its deployments; refused (400) while it has agents. Scope: clients:write' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 400, type: RmmErrorDto, description: '{detail: "site N still has M agent(s): delete or move them first"}' })
  async removeSite(@Param('id', ParseIdPipe) id: number, @Param('siteId', ParseIdPipe) siteId: number, @Req() req: AuthedRequest): Promise<void> {
    await this.clients.deleteSite(id, siteId, clientFilter(req.principal));
  }
}
