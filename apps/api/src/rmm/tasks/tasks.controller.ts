import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../common/id.pipe';
import { setTotal } from '../common/list-headers';
import { isPaged, pageOf } from '../common/pagination.dto';
import { RmmErrorDto } from '../common/rmm-error.dto';
import { RequireScope, RmmController } from '../common/scopes';
import { CreateTaskDto, TaskDto, TaskFilterDto, toTaskDto, UpdateTaskDto } from './tasks.dto';
import { TasksService } from './tasks.service';

@RmmController('tasks', 'tasks')
@ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such task' })
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Get()
  @RequireScope('tasks:read')
  @ApiOperation({ summary: 'List scheduled tasks (?agent= for one agent). Scope: tasks:read' })
  @ApiOkResponse({ type: [TaskDto] })
  async list(@Query() q: TaskFilterDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<TaskDto[]> {
    const [rows, total] = await this.tasks.list(q.agent === undefined ? undefined : Number(q.agent), pageOf(q));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toTaskDto);
  }

  @Get(':id')
  @RequireScope('tasks:read')
  @ApiOperation({ summary: 'One task. Scope: tasks:read' })
  @ApiOkResponse({ type: TaskDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<TaskDto> {
    return toTaskDto(await this.tasks.get(id));
  }

  @Post()
  @RequireScope('tasks:write')
  @ApiOperation({ summary: 'Schedule a script on an agent (cron, UTC). Scope: tasks:write' })
  @ApiCreatedResponse({ type: TaskDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error: schedule, agent, script' })
  async create(@Body() body: CreateTaskDto): Promise<TaskDto> {
    return toTaskDto(await this.tasks.create(body));
  }

  @Put(':id')
  @RequireScope('tasks:write')
  @ApiOperation({ summary: 'Change a task (the fields given). Scope: tasks:write' })
  @ApiOkResponse({ type: TaskDto })
  async replace(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateTaskDto): Promise<TaskDto> {
    return toTaskDto(await this.tasks.update(id, body));
  }

  @Patch(':id')
  @RequireScope('tasks:write')
  @ApiOperation({ summary: 'Change a task (same as PUT). Scope: tasks:write' })
  @ApiOkResponse({ type: TaskDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateTaskDto): Promise<TaskDto> {
    return toTaskDto(await this.tasks.update(id, body));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('tasks:write')
  @ApiOperation({ summary: 'Delete a task. Scope: tasks:write' })
  @ApiNoContentResponse()
  async remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    await this.tasks.delete(id);
  }
}
