import { Body, Controller, Delete, Get, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommonErrorCode, DomainError } from '../../common/errors/domain-error';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { RuntimeConfig } from '../../config/runtime-config';
import { InvalidTokenError } from '../auth/access-tokens';
import { budgetOf, PLATFORM_BUDGET_WINDOW_MS, PlatformCaller, PlatformCallers } from '../platform-caller';
import { PostgrestError, RestErrorCode } from '../platform-errors';
import { RestRequest, RestResponse, RestService } from './rest.service';

const TABLE = { name: 'table', enum: ['user_profiles', 'enrollment_log'] };

/** /rest/v1/{table}: the PostgREST subset. Each handler resolves the caller, then hands the request over. */
@ApiTags('data platform: REST (PostgREST-compatible)')
@ApiHeader({ name: 'apikey', required: false, description: 'DATA_ANON_KEY or DATA_SERVICE_ROLE_KEY; optional when a bearer is sent' })
@ApiParam(TABLE)
@ApiResponse({ status: 401, description: 'No or unknown key, or a bad token (PGRST301/PGRST303); 42501 for anon' })
@ApiResponse({ status: 403, description: '42501: the role may not do this (row-level security, column grants)' })
@ApiResponse({ status: 429, description: "The caller's requests per minute (PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE) are spent; Retry-After says when to retry" })
@Controller('rest/v1')
export class RestController {
  constructor(
    private readonly rest: RestService,
    private readonly callers: PlatformCallers,
    private readonly limiter: RateLimiter,
    private readonly config: RuntimeConfig,
  ) {}

  @Get(':table')
  @ApiOperation({ summary: 'Read rows: select=, filters (eq, neq, gt, gte, lt, lte, in, is, like, ilike), order, limit, offset' })
  async read(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('table') table: string): Promise<void> {
    send(reply, await this.rest.read(await this.caller(req), restRequest(req, table)));
  }

  @Post(':table')
  @ApiOperation({ summary: 'Insert one row or an array (Prefer: return=representation, resolution=merge-duplicates)' })
  @ApiBody({ schema: { oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] } })
  async insert(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('table') table: string, @Body() body: unknown): Promise<void> {
    send(reply, await this.rest.insert(await this.caller(req), restRequest(req, table, body)));
  }

  @Patch(':table')
  @ApiOperation({ summary: 'Update the rows the filters match: 204 with Content-Range, or 200 with Prefer: return=representation' })
  @ApiBody({ schema: { type: 'object', example: { rmm_agent_id: 42 } } })
  async update(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('table') table: string, @Body() body: unknown): Promise<void> {
    send(reply, await this.rest.update(await this.caller(req), restRequest(req, table, body)));
  }

  @Delete(':table')
  @ApiOperation({ summary: 'Delete the rows the filters match' })
  async remove(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('table') table: string): Promise<void> {
    send(reply, await this.rest.remove(await this.caller(req), restRequest(req, table)));
  }

  /** The caller, once their budget allows this request (429 with Retry-After past it, before any SQL). */
  private async caller(req: FastifyRequest): Promise<PlatformCaller> {
    const caller = await this.resolve(req);
    const { bucket, limit } = budgetOf(caller, this.config);
    const state = await this.limiter.hit(bucket, limit, PLATFORM_BUDGET_WINDOW_MS);
    if (!state.allowed) {
      throw new DomainError(CommonErrorCode.RateLimited, `Too many requests: at most ${limit} per minute`, [], {
        'Retry-After': String(state.retryAfterSeconds),
      });
    }
    return caller;
  }

  private async resolve(req: FastifyRequest): Promise<PlatformCaller> {
    try {
      return await this.callers.resolve(req.headers, req.query as Record<string, unknown>);
    } catch (err) {
      if (err instanceof InvalidTokenError) {
        throw err.problem === 'expired'
          ? new PostgrestError(RestErrorCode.JwtExpired, 'JWT expired')
          : new PostgrestError(RestErrorCode.JwtInvalid, 'JWT could not be decoded or its signature is invalid');
      }
      throw err;
    }
  }
}

function restRequest(req: FastifyRequest, table: string, body?: unknown): RestRequest {
  return { table, query: (req.query ?? {}) as Record<string, unknown>, headers: req.headers, body };
}

function send(reply: FastifyReply, res: RestResponse): void {
  for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
  if (res.body === undefined) {
    void reply.code(res.status).send();
    return;
  }
  void reply.code(res.status).type('application/json; charset=utf-8').send(JSON.stringify(res.body));
}
