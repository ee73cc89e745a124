import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { setTotal } from '../../common/list-headers';
import { isPaged, pageOf } from '../../common/pagination.dto';
import { AuthedRequest } from '../../common/principal';
import { RmmController } from '../../common/rmm-controller';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireAnyScope, RequireScope } from '../../common/scopes';
import { CreateCustomFieldDto, CustomFieldDto, CustomFieldFilterDto, PatchCustomFieldDto, toCustomFieldDto } from './custom-fields.dto';
import { CustomFieldsService } from './custom-fields.service';

/** Custom fields' definitions (docs/custom-fields.md): admin writes; a caller reads those of the scopes it may read. */
@RmmController('custom-fields', 'custom fields')
export class CustomFieldsController {
  constructor(private readonly fields: CustomFieldsService) {}

  @Get()
  @RequireAnyScope('agents:read', 'clients:read')
  @ApiOperation({ summary: "List custom fields by scope and name: the agents' with agents:read, the sites' and clients' with clients:read. Scope: agents:read or clients:read" })
  @ApiOkResponse({ type: [CustomFieldDto] })
  async list(@Query() q: CustomFieldFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<CustomFieldDto[]> {
    const [rows, total] = await this.fields.list(req.principal!, q.scope, pageOf(q));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toCustomFieldDto);
  }

  @Post()
  @RequireScope('admin')
  @ApiOperation({ summary: 'Define a custom field (at most 200 in all; the name unique within its scope). Scope: admin' })
  @ApiCreatedResponse({ type: CustomFieldDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (options missing or not allowed, a default the type refuses), the name is taken in that scope, or 200 fields exist' })
  async create(@Body() body: CreateCustomFieldDto, @Req() req: AuthedRequest): Promise<CustomFieldDto> {
    return toCustomFieldDto(await this.fields.create(body, String(req.id)));
  }

  @Get(':id')
  @RequireAnyScope('agents:read', 'clients:read')
  @ApiOperation({ summary: "One custom field (404 for a scope the caller may not read). Scope: agents:read or clients:read" })
  @ApiOkResponse({ type: CustomFieldDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<CustomFieldDto> {
    return toCustomFieldDto(await this.fields.get(id, req.principal!));
  }

  @Patch(':id')
  @RequireScope('admin')
  @ApiOperation({ summary: 'Change a custom field: label, options, default, required at any time; name, scope and type only while no value of it exists. Scope: admin' })
  @ApiOkResponse({ type: CustomFieldDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error; {detail: "custom field x has values: …"}; an option a value holds removed' })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async patch(@Param('id', ParseIdPipe) id: number, @Body() body: PatchCustomFieldDto, @Req() req: AuthedRequest): Promise<CustomFieldDto> {
    return toCustomFieldDto(await this.fields.update(id, body, String(req.id)));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('admin')
  @ApiOperation({ summary: 'Delete a custom field and every value of it. Scope: admin' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async remove(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.fields.remove(id, String(req.id));
  }
}
