import { Body, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { fieldInvalid } from '../../../common/errors/domain-error';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { ScriptRunAcceptedDto, ScriptRunDto, ScriptRunFilterDto, ScriptRunResultDto, toScriptRunDto } from '../../automation/script-runs/script-runs.dto';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { jsonStream, setTotal } from '../../common/list-headers';
import { isPaged, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope, RmmController } from '../../common/scopes';
import { AgentDetailDto, AgentDto, AgentFilterDto, RunScriptDto } from './agents.dto';
import type { Readable } from 'node:stream';
import { AgentsService } from './agents.service';

@RmmController('agents', 'agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @RequireScope('agents:read')
  @ApiOperation({ summary: 'List agents; filters hostname (exact), client, site, monitoring_type. Scope: agents:read' })
  @ApiOkResponse({ type: [AgentDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  async list(@Query() q: AgentFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AgentDto[] | Readable> {
    const filter = { hostname: q.hostname, clientId: q.client, siteId: q.site, monitoringType: q.monitoring_type };
    if (!isPaged(q)) return jsonStream(reply, await this.agents.all(filter, clientFilter(req.principal)));
    const [rows, total] = await this.agents.page(filter, pageOf(q), clientFilter(req.principal));
    setTotal(reply, total);
    return rows;
  }

  @Get(':agentId')
  @RequireScope('agents:read')
  @ApiOperation({ summary: 'One agent, with patches_pending and wmi_detail. Scope: agents:read' })
  @ApiOkResponse({ type: AgentDetailDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async get(@Param('agentId', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<AgentDetailDto> {
    return this.agents.detail(id, clientFilter(req.principal));
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

  @Post(':agentId/runscript')
  @HttpCode(200)
  @RequireScope('scripts:run')
  @ApiOperation({
    summary:
      'Run a script on an agent. output wait (default): 200 with the result once it has finished; collector: the same, and the run is the agent\'s latest value for that script (GET …/runs/?output=collector&script=ID&limit=1); forget: 202 {id, status} at once. queue: true: an agent that is not connected gets the run when it next connects (202 {id, status: "queued"}; expires_in seconds, a day by default, a week at most; cancel with DELETE …/runs/{run_id}/). Every run is stored (GET /api/v3/agents/{agent_id}/runs/). Scope: scripts:run',
  })
  @ApiOkResponse({ type: ScriptRunResultDto })
  @ApiAcceptedResponse({ type: ScriptRunAcceptedDto, description: 'output forget (or queue: true, agent connected): the run is on its way, status running; queue: true, agent not connected: status queued' })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (script, output, args, timeout, queue, expires_in)' })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: "{detail: 'agent is not connected'}, at once (without queue: true)" })
  @ApiResponse({ status: 422, type: RmmErrorDto, description: '{detail: "agent refused: <reason>"}: the agent would not or could not run it (an interpreter it lacks); the run is failed, with that reason as its error' })
  @ApiResponse({
    status: 502,
    type: RmmErrorDto,
    description:
      "{detail: 'agent disconnected'}: the agent went before it answered; the run is interrupted. {detail: 'agent sent an invalid answer'}: its answer is not one the protocol allows; the run is failed, its error saying what was wrong",
  })
  @ApiResponse({ status: 504, type: RmmErrorDto, description: '{detail: "agent did not answer within N s"}: no answer by the time-out + 5 s; the run is timed_out' })
  async runScript(
    @Param('agentId', ParseIdPipe) id: number,
    @Body() body: RunScriptDto,
    @Req() req: AuthedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ScriptRunResultDto | ScriptRunAcceptedDto> {
    const outcome = await this.agents.runScript(id, body, req.principal);
    if (outcome.accepted) void reply.code(202);
    return outcome.body;
  }

  @Get(':agentId/runs')
  @RequireScope('agents:read')
  @ApiOperation({ summary: "An agent's script runs, newest first; filter by output, script and status (status=queued: the runs waiting for it). Scope: agents:read" })
  @ApiOkResponse({ type: [ScriptRunDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (output, script, status, limit, offset)' })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent' })
  async runs(@Param('agentId', ParseIdPipe) id: number, @Query() q: ScriptRunFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<ScriptRunDto[]> {
    const [rows, total] = await this.agents.runs(id, { output: q.output, scriptId: q.script, status: q.status }, pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toScriptRunDto);
  }

  @Get(':agentId/runs/:runId')
  @RequireScope('agents:read')
  @ApiOperation({ summary: 'One script run of an agent. Scope: agents:read' })
  @ApiOkResponse({ type: ScriptRunDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent or run' })
  async run(@Param('agentId', ParseIdPipe) id: number, @Param('runId', ParseIdPipe) runId: number, @Req() req: AuthedRequest): Promise<ScriptRunDto> {
    return toScriptRunDto(await this.agents.run(id, runId, clientFilter(req.principal)));
  }

  @Delete(':agentId/runs/:runId')
  @RequireScope('scripts:run')
  @ApiOperation({ summary: 'Cancel a queued run (runscript with queue: true, or a task with queue_if_offline): 200 with the run, status cancelled; it is never sent. Scope: scripts:run' })
  @ApiOkResponse({ type: ScriptRunDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent or run' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: '{detail: "run 17 is running: only a queued run can be cancelled"}: it has started, or ended' })
  async cancelRun(@Param('agentId', ParseIdPipe) id: number, @Param('runId', ParseIdPipe) runId: number, @Req() req: AuthedRequest): Promise<ScriptRunDto> {
    return toScriptRunDto(await this.agents.cancelRun(id, runId, clientFilter(req.principal)));
  }
}
