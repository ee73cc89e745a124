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
import { CreateScriptDto, ScriptDetailDto, ScriptDto, toScriptDetailDto, toScriptDto, UpdateScriptDto } from './scripts.dto';
import { ScriptsService } from './scripts.service';

/** When a script change also needs scripts:run: what agents run changes. */
const CODE_OF_USED_SCRIPT = 'when it gives body, shell or args and a check or task uses the script';

@RmmController('scripts', 'scripts')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such script' })
export class ScriptsController {
  constructor(private readonly scripts: ScriptsService) {}

  @Get()
  @RequireScope('scripts:read')
  @ApiOperation({ summary: 'List scripts. Scope: scripts:read' })
  @ApiOkResponse({ type: [ScriptDto] })
  async list(@Query() q: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<ScriptDto[]> {
    const [rows, total] = await this.scripts.list(pageOf(q));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toScriptDto);
  }

  @Get(':id')
  @RequireScope('scripts:read')
  @ApiOperation({ summary: 'One script with its text. Scope: scripts:read' })
  @ApiOkResponse({ type: ScriptDetailDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<ScriptDetailDto> {
    return toScriptDetailDto(await this.scripts.get(id));
  }

  @Post()
  @RequireScope('scripts:write')
  @ApiOperation({ summary: 'Create a script. Scope: scripts:write' })
  @ApiCreatedResponse({ type: ScriptDetailDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error, or the name is taken' })
  async create(@Body() body: CreateScriptDto): Promise<ScriptDetailDto> {
    return toScriptDetailDto(await this.scripts.create(body));
  }

  @Put(':id')
  @RequireScope('scripts:write')
  @AlsoRequireScope('scripts:run', CODE_OF_USED_SCRIPT)
  @ApiOperation({ summary: `Change a script (the fields given). Scope: scripts:write, and scripts:run ${CODE_OF_USED_SCRIPT}` })
  @ApiOkResponse({ type: ScriptDetailDto })
  async replace(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateScriptDto, @Req() req: AuthedRequest): Promise<ScriptDetailDto> {
    return toScriptDetailDto(await this.scripts.update(id, body, hasScope(req.principal!, 'scripts:run'), clientFilter(req.principal)));
  }

  @Patch(':id')
  @RequireScope('scripts:write')
  @AlsoRequireScope('scripts:run', CODE_OF_USED_SCRIPT)
  @ApiOperation({ summary: `Change a script (same as PUT). Scope: scripts:write, and scripts:run ${CODE_OF_USED_SCRIPT}` })
  @ApiOkResponse({ type: ScriptDetailDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateScriptDto, @Req() req: AuthedRequest): Promise<ScriptDetailDto> {
    return toScriptDetailDto(await this.scripts.update(id, body, hasScope(req.principal!, 'scripts:run'), clientFilter(req.principal)));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('scripts:write')
  @ApiOperation({ summary: 'Delete a script; refused (400) while a task or check uses it. Scope: scripts:write' })
  @ApiNoContentResponse()
  async remove(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.scripts.delete(id, clientFilter(req.principal));
  }
}
