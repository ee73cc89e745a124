import { Body, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../common/id.pipe';
import { setTotal } from '../common/list-headers';
import { isPaged, pageOf } from '../common/pagination.dto';
import { RmmErrorDto } from '../common/rmm-error.dto';
import { RequireScope, RmmController } from '../common/scopes';
import { AgentDetailDto, AgentDto, AgentFilterDto, RunScriptDto, ScriptResultDto, toAgentDetailDto, toAgentDto } from './agents.dto';
import { AgentsService } from './agents.service';

@RmmController('agents', 'agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @RequireScope('agents:read')
  @ApiOperation({ summary: 'List agents; filters hostname (exact), client, site, monitoring_type. Scope: agents:read' })
  @ApiOkResponse({ type: [AgentDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  async list(@Query() q: AgentFilterDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<AgentDto[]> {
    const [rows, total] = await this.agents.list({ hostname: q.hostname, clientId: q.client, siteId: q.site, monitoringType: q.monitoring_type }, pageOf(q));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toAgentDto);
  }

  @Get(':agentId')
  @RequireScope('agents:read')
  @ApiOperation({ summary: 'One agent, with patches_pending and wmi_detail. Scope: agents:read' })
  @ApiOkResponse({ type: AgentDetailDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async get(@Param('agentId', ParseIdPipe) id: number): Promise<AgentDetailDto> {
    return toAgentDetailDto(await this.agents.get(id));
  }

  @Delete(':agentId')
  @HttpCode(204)
  @RequireScope('agents:write')
  @ApiOperation({ summary: "Delete the server's record of an agent (and its checks, tasks, alerts); the installed software stays. Scope: agents:write" })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async remove(@Param('agentId', ParseIdPipe) id: number): Promise<void> {
    await this.agents.delete(id);
  }

  @Post(':agentId/runscript')
  @HttpCode(200)
  @RequireScope('scripts:run')
  @ApiOperation({ summary: 'Run a script on an agent (output wait: the result; forget/collector: accepted). Scope: scripts:run' })
  @ApiOkResponse({ type: ScriptResultDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (script, output, args, timeout)' })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: "{detail: 'agent is not connected'}" })
  async runScript(@Param('agentId', ParseIdPipe) id: number, @Body() body: RunScriptDto): Promise<ScriptResultDto> {
    return this.agents.runScript(id, body);
  }
}
