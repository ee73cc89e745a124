import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { fieldInvalid } from '../../../common/errors/domain-error';
import { AuthedRequest, clientFilter } from '../../common/principal';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { jsonStream, setTotal } from '../../common/list-headers';
import { isPaged, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { changeActor } from '../../access/audit/audit-change';
import { AgentDetailDto, AgentDto, AgentFilterDto, BulkTagsDto, BulkTagsResultDto, UpdateAgentDto } from './agents.dto';
import type { Readable } from 'node:stream';
import { AgentsService } from './agents.service';

@RmmController('agents', 'agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @RequireScope('agents:read')
  @ApiOperation({ summary: 'List agents; filters hostname (exact), client, site, monitoring_type, tag (repeat it: agents carrying every tag given). Scope: agents:read' })
  @ApiOkResponse({ type: [AgentDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  async list(@Query() q: AgentFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AgentDto[] | Readable> {
    const filter = { hostname: q.hostname, clientId: q.client, siteId: q.site, monitoringType: q.monitoring_type, tags: this.agents.tagFilter(q.tag) };
    if (!isPaged(q)) return jsonStream(reply, await this.agents.all(filter, clientFilter(req.principal)));
    const [rows, total] = await this.agents.page(filter, pageOf(q), clientFilter(req.principal));
    setTotal(reply, total);
    return rows;
  }

  @Post('tags')
  @HttpCode(200)
  @RequireScope('agents:write')
  @ApiOperation({
    summary:
      'Adds and removes tags on many agents at once (one statement). Every agent must exist for the caller, else 400 naming it and nothing changes. `updated`: how many agents had their tags changed. Scope: agents:write',
  })
  @ApiOkResponse({ type: BulkTagsResultDto })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  bulkTags(@Body() body: BulkTagsDto, @Req() req: AuthedRequest): Promise<BulkTagsResultDto> {
    return this.agents.bulkTags(body, clientFilter(req.principal), changeActor(req));
  }

  @Get(':agentId')
  @RequireScope('agents:read')
  @ApiOperation({ summary: 'One agent, with patches_pending and wmi_detail. Scope: agents:read' })
  @ApiOkResponse({ type: AgentDetailDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async get(@Param('agentId', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<AgentDetailDto> {
    return this.agents.detail(id, clientFilter(req.principal));
  }

  @Patch(':agentId')
  @RequireScope('agents:write')
  @ApiOperation({ summary: "Changes an agent's tags (replaced), monitoring_type or maintenance; answers the agent detail object. Scope: agents:write" })
  @ApiOkResponse({ type: AgentDetailDto })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  update(@Param('agentId', ParseIdPipe) id: number, @Body() body: UpdateAgentDto, @Req() req: AuthedRequest): Promise<AgentDetailDto> {
    return this.agents.update(id, body, clientFilter(req.principal), changeActor(req));
  }

  @Delete(':agentId')
  @HttpCode(204)
  @RequireScope('agents:write')
  @ApiOperation({
    summary:
      "Delete the server's record of an agent (and its checks, tasks, alerts). The installed software stays, unless uninstall=true: a connected agent is first told to uninstall itself (its service and files; agent.uninstall), and X-Agent-Uninstall says `sent` or `not connected`. Scope: agents:write",
  })
  @ApiQuery({ name: 'uninstall', required: false, enum: ['true', 'false'] })
  @ApiNoContentResponse({ headers: { 'X-Agent-Uninstall': { description: 'with uninstall=true: `sent` or `not connected`', schema: { type: 'string' } } } })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'uninstall is not true or false' })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async remove(@Param('agentId', ParseIdPipe) id: number, @Query('uninstall') uninstall: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    if (uninstall !== undefined && uninstall !== 'true' && uninstall !== 'false') throw fieldInvalid('uninstall', 'must be true or false');
    const told = await this.agents.delete(id, clientFilter(req.principal), uninstall === 'true');
    if (told) void reply.header('x-agent-uninstall', told);
  }
}
