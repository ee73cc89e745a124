import { Body, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe } from '../../common/id.pipe';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { setTotal } from '../../common/list-headers';
import { isPaged, PageQueryDto, pageOf } from '../../common/pagination.dto';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope, RequireStepUp } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto, toApiKeyDto } from './api-keys.dto';
import { ApiKeysService } from './api-keys.service';

/** Key administration (the backend's "administration settings"): admin keys only. */
@RmmController('keys', 'api keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @RequireScope('admin')
  @ApiOperation({ summary: 'List API keys (never their secrets); a caller limited to some clients sees only keys limited within them. Scope: admin' })
  @ApiOkResponse({ type: [ApiKeyDto] })
  async list(@Query() q: PageQueryDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<ApiKeyDto[]> {
    const [rows, total] = await this.keys.listPage(pageOf(q), clientFilter(req.principal));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toApiKeyDto);
  }

  @Post()
  @RequireScope('admin')
  @RequireStepUp()
  @ApiOperation({ summary: 'Create an API key, limited to some clients or not (clients); the answer shows its secret once. Scope: admin' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (e.g. clients: no client 9)' })
  async create(@Body() body: CreateApiKeyDto, @Req() req: AuthedRequest): Promise<CreatedApiKeyDto> {
    const { key, secret } = await this.keys.create({ name: body.name, scopes: body.scopes, expiresIn: body.expires_in, expiresAt: body.expires_at, clients: body.clients, createdBy: clientFilter(req.principal) });
    return { ...toApiKeyDto(key), key: secret };
  }

  @Get(':id')
  @RequireScope('admin')
  @ApiOperation({ summary: 'One API key (never its secret); 404 for a key the caller does not manage. Scope: admin' })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<ApiKeyDto> {
    return toApiKeyDto(await this.keys.get(id, clientFilter(req.principal)));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('admin')
  @ApiOperation({ summary: 'Revoke an API key (it answers 401 from now on); 404 for a key the caller does not manage. Scope: admin' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async revoke(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.keys.revoke(id, clientFilter(req.principal));
  }
}
