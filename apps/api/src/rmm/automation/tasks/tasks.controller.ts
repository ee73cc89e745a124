import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { setTotal } from '../../common/list-headers';
import { isPaged, PageQueryDto, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { AlsoRequireScope, RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { TaskRunDto, toTaskRunDto } from './task-runs.dto';
import { CreateTaskDto, SchedulePreviewDto, SchedulePreviewQueryDto, TaskDto, TaskFilterDto, toTaskDto, UpdateTaskDto } from './tasks.dto';
import { TasksService } from './tasks.service';

@RmmController('tasks', 'tasks')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such task' })
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Get()
  @RequireScope('tasks:read')
  @ApiOperation({ summary: 'List scheduled tasks (?agent= for one agent). Scope: tasks:read' })
  @ApiOkResponse({ type: [TaskDto] })
  async list(@Query() q: TaskFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TaskDto[]> {
    const [rows, total] = await this.tasks.list(q.agent === undefined ? undefined : Number(q.agent), pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toTaskDto);
  }

  @Get('schedule-preview')
  @RequireScope('tasks:read')
  @ApiOperation({ summary: 'The next 5 due times (UTC) of a cron schedule, as a task with it would run: the console shows them under the Schedule field. Scope: tasks:read' })
  @ApiOkResponse({ type: SchedulePreviewDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error naming schedule: not a cron expression of 5 or 6 fields' })
  preview(@Query() q: SchedulePreviewQueryDto): SchedulePreviewDto {
    return this.tasks.preview(q.schedule);
  }

  @Get(':id')
  @RequireScope('tasks:read')
  @ApiOperation({ summary: 'One task. Scope: tasks:read' })
  @ApiOkResponse({ type: TaskDto })
  async get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<TaskDto> {
    return toTaskDto(await this.tasks.get(id, clientFilter(req.principal)));
  }

  @Get(':id/runs')
  @RequireScope('tasks:read')
  @ApiOperation({
    summary:
      "A task's runs, newest first: one per due time of its schedule (due_at), with its status, return code and output (capped at 64 KiB each). The newest 200 are kept. Scope: tasks:read",
  })
  @ApiOkResponse({ type: [TaskRunDto] })
  async runs(@Param('id', ParseIdPipe) id: number, @Query() q: PageQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TaskRunDto[]> {
    const [rows, total] = await this.tasks.runs(id, pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toTaskRunDto);
  }

  @Get(':id/runs/:runId')
  @RequireScope('tasks:read')
  @ApiOperation({ summary: 'One run of a task. Scope: tasks:read' })
  @ApiOkResponse({ type: TaskRunDto })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such task or run' })
  async run(@Param('id', ParseIdPipe) id: number, @Param('runId', ParseIdPipe) runId: number, @Req() req: AuthedRequest): Promise<TaskRunDto> {
    return toTaskRunDto(await this.tasks.run(id, runId, clientFilter(req.principal)));
  }

  @Post()
  @RequireScope('tasks:write')
  @AlsoRequireScope('scripts:run')
  @ApiOperation({ summary: 'Schedule a script on an agent: cron in UTC, 5 fields, or 6 with seconds first (*/2 * * * * *: every 2 s). Each due time runs once (GET /api/v3/tasks/{id}/runs/); a failing run opens a task_failure alert, the next successful one resolves it. Scope: tasks:write and scripts:run (a task runs code on the agent)' })
  @ApiCreatedResponse({ type: TaskDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error: schedule, agent, script' })
  async create(@Body() body: CreateTaskDto, @Req() req: AuthedRequest): Promise<TaskDto> {
    return toTaskDto(await this.tasks.create(body, clientFilter(req.principal)));
  }

  @Put(':id')
  @RequireScope('tasks:write')
  @AlsoRequireScope('scripts:run')
  @ApiOperation({ summary: 'Change a task (the fields given). Scope: tasks:write and scripts:run (a task runs code on the agent)' })
  @ApiOkResponse({ type: TaskDto })
  async replace(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateTaskDto, @Req() req: AuthedRequest): Promise<TaskDto> {
    return toTaskDto(await this.tasks.update(id, body, clientFilter(req.principal)));
  }

  @Patch(':id')
  @RequireScope('tasks:write')
  @AlsoRequireScope('scripts:run')
  @ApiOperation({ summary: 'Change a task (same as PUT). Scope: tasks:write and scripts:run' })
  @ApiOkResponse({ type: TaskDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateTaskDto, @Req() req: AuthedRequest): Promise<TaskDto> {
    return toTaskDto(await this.tasks.update(id, body, clientFilter(req.principal)));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('tasks:write')
  @ApiOperation({ summary: 'Delete a task. Scope: tasks:write' })
  @ApiNoContentResponse()
  async remove(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.tasks.delete(id, clientFilter(req.principal));
  }
}
