import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AuthedRequest, clientFilter, hasScope } from '../../common/principal';
import { ParseIdPipe } from '../../common/id.pipe';
import { setTotal } from '../../common/list-headers';
import { isPaged, PageQueryDto, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { AlsoRequireScope, RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { CheckDto, CheckFilterDto, CheckResultDto, CreateCheckDto, toCheckDto, toCheckResultDto, UpdateCheckDto } from './checks.dto';
import { HISTORY_KEEP } from './checks.repository';
import { ChecksService } from './checks.service';

/** When a check request also needs scripts:run: a script check runs code on the agent. */
const SCRIPT_CHECK = 'for a check of type script';

@RmmController('checks', 'checks')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such check' })
export class ChecksController {
  constructor(private readonly checks: ChecksService) {}

  @Get()
  @RequireScope('checks:read')
  @ApiOperation({ summary: "List checks, all or one agent's (?agent=). Scope: checks:read" })
  @ApiOkResponse({ type: [CheckDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  async list(@Query() q: CheckFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<CheckDto[]> {
    const [rows, total] = await this.checks.list(q.agent === undefined ? undefined : Number(q.agent), pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toCheckDto);
  }

  @Get(':id')
  @RequireScope('checks:read')
  @ApiOperation({ summary: 'One check. Scope: checks:read' })
  @ApiOkResponse({ type: CheckDto })
  async get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<CheckDto> {
    return toCheckDto(await this.checks.get(id, clientFilter(req.principal)));
  }

  @Get(':id/history')
  @RequireScope('checks:read')
  @ApiOperation({ summary: `A check's results, newest first (the newest ${HISTORY_KEEP} are kept; limit/offset page it). Scope: checks:read` })
  @ApiOkResponse({ type: [CheckResultDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  async history(@Param('id', ParseIdPipe) id: number, @Query() q: PageQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<CheckResultDto[]> {
    const [rows, total] = await this.checks.history(id, pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toCheckResultDto);
  }

  @Post()
  @RequireScope('checks:write')
  @AlsoRequireScope('scripts:run', SCRIPT_CHECK)
  @ApiOperation({ summary: `Create a check on an agent, with the settings of its type. Scope: checks:write, and scripts:run ${SCRIPT_CHECK}` })
  @ApiCreatedResponse({ type: CheckDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (e.g. settings.threshold_percent), unknown agent or script' })
  async create(@Body() body: CreateCheckDto, @Req() req: AuthedRequest): Promise<CheckDto> {
    return toCheckDto(await this.checks.create(body, clientFilter(req.principal), hasScope(req.principal!, 'scripts:run')));
  }

  @Put(':id')
  @RequireScope('checks:write')
  @AlsoRequireScope('scripts:run', SCRIPT_CHECK)
  @ApiOperation({
    summary: `Change a check's name, settings, failure threshold, run_interval or severity; the agent runs it again at once. Scope: checks:write, and scripts:run ${SCRIPT_CHECK}`,
  })
  @ApiOkResponse({ type: CheckDto })
  async replace(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateCheckDto, @Req() req: AuthedRequest): Promise<CheckDto> {
    return toCheckDto(await this.checks.update(id, body, clientFilter(req.principal), hasScope(req.principal!, 'scripts:run')));
  }

  @Patch(':id')
  @RequireScope('checks:write')
  @AlsoRequireScope('scripts:run', SCRIPT_CHECK)
  @ApiOperation({ summary: `Change a check (same as PUT). Scope: checks:write, and scripts:run ${SCRIPT_CHECK}` })
  @ApiOkResponse({ type: CheckDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateCheckDto, @Req() req: AuthedRequest): Promise<CheckDto> {
    return toCheckDto(await this.checks.update(id, body, clientFilter(req.principal), hasScope(req.principal!, 'scripts:run')));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('checks:write')
  @ApiOperation({ summary: 'Delete a check: its open check_failure alert is resolved (by system) and the agent stops running it. Scope: checks:write' })
  @ApiNoContentResponse()
  async remove(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.checks.delete(id, clientFilter(req.principal));
  }
}
