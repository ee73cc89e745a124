import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { setTotal } from '../../common/list-headers';
import { isPaged, pageOf } from '../../common/pagination.dto';
import { AuthedRequest, clientFilter, hasScope } from '../../common/principal';
import { RmmController } from '../../common/rmm-controller';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { AlsoRequireScope, RequireScope } from '../../common/scopes';
import { EffectivePolicyService } from './effective-policy.service';
import { CreatePolicyDto, EffectivePolicyDto, MAX_POLICIES, PolicyDto, PolicyListQueryDto, PolicyPreviewDto, PreviewPolicyDto, UpdatePolicyDto } from './policies.dto';
import { PoliciesService, PolicyCaller } from './policies.service';

/** When a policy request also needs scripts:run: the policy makes code run on agents. */
const RUNS_CODE = 'for a policy carrying script checks or tasks (before or after the change)';

const callerOf = (req: AuthedRequest): PolicyCaller => ({ clients: clientFilter(req.principal), mayRunScripts: hasScope(req.principal!, 'scripts:run'), requestId: String(req.id) });

@RmmController('policies', 'policies')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such policy (or one the caller may not see)' })
export class PoliciesController {
  constructor(private readonly policies: PoliciesService) {}

  @Get()
  @RequireScope('policies:read')
  @ApiOperation({ summary: 'List policies, each with how many agents it matches now. Scope: policies:read' })
  @ApiOkResponse({ type: [PolicyDto] })
  async list(@Query() q: PolicyListQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<PolicyDto[]> {
    const [rows, total] = await this.policies.list(pageOf(q), callerOf(req));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows;
  }

  @Post('preview')
  @HttpCode(200)
  @RequireScope('policies:read')
  @ApiOperation({ summary: 'Which agents a policy body (or {id, ...changes}) would match, without saving. Scope: policies:read' })
  @ApiOkResponse({ type: PolicyPreviewDto })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  preview(@Body() body: PreviewPolicyDto, @Req() req: AuthedRequest): Promise<PolicyPreviewDto> {
    return this.policies.preview(body, callerOf(req));
  }

  @Get(':id')
  @RequireScope('policies:read')
  @ApiOperation({ summary: 'One policy. Scope: policies:read' })
  @ApiOkResponse({ type: PolicyDto })
  get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<PolicyDto> {
    return this.policies.get(id, callerOf(req));
  }

  @Post()
  @RequireScope('policies:write')
  @AlsoRequireScope('scripts:run', RUNS_CODE)
  @ApiOperation({ summary: `Create a policy (at most ${MAX_POLICIES}). Scope: policies:write, and scripts:run ${RUNS_CODE}` })
  @ApiCreatedResponse({ type: PolicyDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error: items as per-agent checks and tasks, unknown clients, sites, agents or scripts, two items of one key' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: 'the name is taken, or there are 500 policies' })
  create(@Body() body: CreatePolicyDto, @Req() req: AuthedRequest): Promise<PolicyDto> {
    return this.policies.create(body, callerOf(req));
  }

  @Patch(':id')
  @RequireScope('policies:write')
  @AlsoRequireScope('scripts:run', RUNS_CODE)
  @ApiOperation({ summary: `Change a policy: what the body gives; checks/tasks replace the lists (an item whose key stays keeps its id). Scope: policies:write, and scripts:run ${RUNS_CODE}` })
  @ApiOkResponse({ type: PolicyDto })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: 'the name is taken' })
  update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdatePolicyDto, @Req() req: AuthedRequest): Promise<PolicyDto> {
    return this.policies.update(id, body, callerOf(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('policies:write')
  @ApiOperation({ summary: 'Delete a policy: its items leave every agent. Scope: policies:write' })
  @ApiNoContentResponse()
  async remove(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.policies.delete(id, callerOf(req));
  }
}

@RmmController('agents', 'policies')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent' })
export class EffectivePolicyController {
  constructor(private readonly effective: EffectivePolicyService) {}

  @Get(':agentId/effective-policy')
  @RequireScope('policies:read')
  @ApiOperation({ summary: "The agent's effective checks and tasks (its own and its policies', merged by key) and maintenance, each with where it comes from and why. Scope: policies:read" })
  @ApiOkResponse({ type: EffectivePolicyDto })
  get(@Param('agentId', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<EffectivePolicyDto> {
    return this.effective.of(id, clientFilter(req.principal));
  }
}
