import { Body, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { setTotal } from '../../common/list-headers';
import { isPaged, pageOf } from '../../common/pagination.dto';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { RmmController } from '../../common/rmm-controller';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope } from '../../common/scopes';
import { RunScriptDto, ScriptRunAcceptedDto, ScriptRunDto, ScriptRunFilterDto, ScriptRunResultDto, toScriptRunDto } from './script-runs.dto';
import { ScriptRunsService } from './script-runs.service';

/**
 * An agent's script runs under /api/v3/agents/{agent_id}/ (runscript, the runs, cancelling a queued one): routes of
 * the agents' resource, served here so that the agents (fleet) know nothing of scripts (automation). Their operation
 * ids are the agents' (agentsRunScript, …), as before.
 */
@RmmController('agents', 'agents')
export class AgentRunsController {
  constructor(private readonly scriptRuns: ScriptRunsService) {}

  @Post(':agentId/runscript')
  @HttpCode(200)
  @RequireScope('scripts:run')
  @ApiOperation({
    operationId: 'agentsRunScript',
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
  @ApiResponse({
    status: 429,
    type: RmmErrorDto,
    description:
      "{detail: 'rate limited'}, with Retry-After: the key's rate limit. {detail: 'too many queued runs for this agent'}: queue: true for an agent not connected that already has RMM_QUEUE_MAX_PER_AGENT (100) runs, or 10 MiB of bodies and arguments, queued; nothing is queued",
  })
  @ApiResponse({ status: 504, type: RmmErrorDto, description: '{detail: "agent did not answer within N s"}: no answer by the time-out + 5 s; the run is timed_out' })
  async runScript(
    @Param('agentId', ParseIdPipe) id: number,
    @Body() body: RunScriptDto,
    @Req() req: AuthedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ScriptRunResultDto | ScriptRunAcceptedDto> {
    const outcome = await this.scriptRuns.start(id, body, req.principal);
    if (outcome.accepted) void reply.code(202);
    return outcome.body;
  }

  @Get(':agentId/runs')
  @RequireScope('agents:read')
  @ApiOperation({ operationId: 'agentsRuns', summary: "An agent's script runs, newest first; filter by output, script and status (status=queued: the runs waiting for it). Scope: agents:read" })
  @ApiOkResponse({ type: [ScriptRunDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (output, script, status, limit, offset)' })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent' })
  async runs(@Param('agentId', ParseIdPipe) id: number, @Query() q: ScriptRunFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<ScriptRunDto[]> {
    const [rows, total] = await this.scriptRuns.runsOf(id, { output: q.output, scriptId: q.script, status: q.status }, pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toScriptRunDto);
  }

  @Get(':agentId/runs/:runId')
  @RequireScope('agents:read')
  @ApiOperation({ operationId: 'agentsRun', summary: 'One script run of an agent. Scope: agents:read' })
  @ApiOkResponse({ type: ScriptRunDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent or run' })
  async run(@Param('agentId', ParseIdPipe) id: number, @Param('runId', ParseIdPipe) runId: number, @Req() req: AuthedRequest): Promise<ScriptRunDto> {
    return toScriptRunDto(await this.scriptRuns.runOf(id, runId, clientFilter(req.principal)));
  }

  @Delete(':agentId/runs/:runId')
  @RequireScope('scripts:run')
  @ApiOperation({ operationId: 'agentsCancelRun', summary: 'Cancel a queued run (runscript with queue: true, or a task with queue_if_offline): 200 with the run, status cancelled; it is never sent. Scope: scripts:run' })
  @ApiOkResponse({ type: ScriptRunDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent or run' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: '{detail: "run 17 is running: only a queued run can be cancelled"}: it has started, or ended' })
  async cancelRun(@Param('agentId', ParseIdPipe) id: number, @Param('runId', ParseIdPipe) runId: number, @Req() req: AuthedRequest): Promise<ScriptRunDto> {
    return toScriptRunDto(await this.scriptRuns.cancelOf(id, runId, clientFilter(req.principal)));
  }
}
