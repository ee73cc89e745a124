import { applyDecorators, Body, Controller, Delete, Get, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CommonErrorCode, DomainError } from '../../common/errors/domain-error';
import { PLATFORM_BUDGET_WINDOW_MS } from '../../common/rate-limit/platform-budget';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { RuntimeConfig } from '../../config/runtime-config';
import { InvalidTokenError } from '../auth/access-tokens';
import { budgetOf, PlatformCaller, PlatformCallers } from '../auth/platform-caller';
import { PostgrestError, RestErrorCode } from '../common/platform-errors';
import { FILTER_LIMITS, FILTER_OPS, MAX_ROWS } from './rest-query';
import { RestRequest, RestResponse, RestService } from './rest.service';

const TABLE = { name: 'table', enum: ['user_profiles', 'enrollment_log'] };

// What each handler reads from the query string and headers (rest-query.ts), documented so that Try-it-out can send it.
const SELECT = ApiQuery({
  name: 'select',
  required: false,
  description: 'Columns to return, comma-separated, optionally renamed (alias:column); * for all. Embedded resources are not served (400 PGRST200)',
  schema: { type: 'string', example: '*' },
});
const FILTERS = ApiQuery({
  name: 'filter',
  required: false,
  style: 'form',
  explode: true,
  description:
    'Column filters, one query parameter per column: `column=operator.value` (several filters: AND). Operators: ' +
    `${FILTER_OPS.join(', ')}, each optionally preceded by not. (e.g. \`not.is.null\`). in takes a list: \`in.(a,b)\`; is takes null, true, false or unknown; ` +
    `like/ilike take * (or %) as the wildcard. A value is at most ${FILTER_LIMITS.valueLength} characters, a like pattern ${FILTER_LIMITS.patternLength} ` +
    `with at most ${FILTER_LIMITS.patternWildcards} wildcards. or= and and= logic trees are not served (400 PGRST100). Here: a JSON object of column → filter.`,
  schema: { type: 'object', additionalProperties: { type: 'string' }, example: { hostname: 'eq.DESKTOP-42', status: 'in.(pending,completed)' } },
});
const PREFER = (values: string) =>
  ApiHeader({ name: 'Prefer', required: false, description: `Comma-separated preferences; unknown ones are ignored. ${values}`, schema: { type: 'string' } });
const PROFILE = (name: 'Accept-Profile' | 'Content-Profile') =>
  ApiHeader({ name, required: false, description: 'The schema: only public is served (anything else: 406 PGRST106)', schema: { type: 'string', enum: ['public'] } });
const ROWS = { type: 'array', items: { type: 'object', additionalProperties: true } };
/** Accept: application/json answers an array; application/vnd.pgrst.object+json one object (406 PGRST116 unless exactly one row). */
const ROWS_CONTENT = { 'application/json': { schema: ROWS }, 'application/vnd.pgrst.object+json': { schema: { type: 'object', additionalProperties: true } } };
const RETURN_PREFERENCE = 'return=representation answers the rows (200), return=minimal (the default) nothing (204); count=exact adds the total to Content-Range.';
const READ_PARAMS = applyDecorators(
  SELECT,
  FILTERS,
  ApiQuery({ name: 'order', required: false, description: 'column[.asc|.desc][.nullsfirst|.nullslast], comma-separated', schema: { type: 'string', example: 'requested_at.desc' } }),
  ApiQuery({ name: 'limit', required: false, description: `At most this many rows (and never more than ${MAX_ROWS})`, schema: { type: 'integer', minimum: 0 } }),
  ApiQuery({ name: 'offset', required: false, description: 'Skip this many rows', schema: { type: 'integer', minimum: 0 } }),
  PREFER('count=exact (or planned, estimated) adds the total to Content-Range and answers 206 when the page is partial.'),
  PROFILE('Accept-Profile'),
);

/** /rest/v1/{table}: the PostgREST subset. Each handler resolves the caller, then hands the request over. */
@ApiTags('data platform: REST (PostgREST-compatible)')
// The apikey header and the bearer token are the data-key and user-jwt security schemes (openapi/swagger.ts).
@ApiParam(TABLE)
@ApiResponse({ status: 401, description: "No or unknown apikey (the gateway's {message}), or a bad token (PGRST301/PGRST303); 42501 for anon" })
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
  @READ_PARAMS
  @ApiOkResponse({ description: 'The rows; Content-Range says which (first-last/total, total * unless counted)', content: ROWS_CONTENT })
  @ApiResponse({ status: 206, description: 'Partial content: with Prefer: count=exact, when the rows are fewer than the total', content: ROWS_CONTENT })
  async read(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('table') table: string): Promise<void> {
    send(reply, await this.rest.read(await this.caller(req), restRequest(req, table)));
  }

  @Post(':table')
  @ApiOperation({ summary: 'Insert one row or an array (Prefer: return=representation, resolution=merge-duplicates)' })
  @ApiBody({ schema: { oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] } })
  @SELECT
  @ApiQuery({
    name: 'on_conflict',
    required: false,
    description: 'With Prefer: resolution=…: the unique columns that decide a duplicate (comma-separated; default: the primary key)',
    schema: { type: 'string' },
  })
  @PREFER(`${RETURN_PREFERENCE.replace('(200)', '(201)').replace('(204)', '(201, no body)')} resolution=merge-duplicates updates a duplicate; resolution=ignore-duplicates skips it.`)
  @PROFILE('Content-Profile')
  @ApiResponse({ status: 201, description: 'Inserted; with Prefer: return=representation, the rows', content: ROWS_CONTENT })
  async insert(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('table') table: string, @Body() body: unknown): Promise<void> {
    send(reply, await this.rest.insert(await this.caller(req), restRequest(req, table, body)));
  }

  @Patch(':table')
  @ApiOperation({ summary: 'Update the rows the filters match: 204 with Content-Range, or 200 with Prefer: return=representation' })
  @ApiBody({ schema: { type: 'object', example: { rmm_agent_id: 42 } } })
  @SELECT
  @FILTERS
  @PREFER(RETURN_PREFERENCE)
  @PROFILE('Content-Profile')
  @ApiOkResponse({ description: 'Prefer: return=representation: the updated rows', content: ROWS_CONTENT })
  @ApiResponse({ status: 204, description: 'Updated (Content-Range */n); no body' })
  async update(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('table') table: string, @Body() body: unknown): Promise<void> {
    send(reply, await this.rest.update(await this.caller(req), restRequest(req, table, body)));
  }

  @Delete(':table')
  @ApiOperation({ summary: 'Delete the rows the filters match' })
  @SELECT
  @FILTERS
  @PREFER(RETURN_PREFERENCE)
  @PROFILE('Content-Profile')
  @ApiOkResponse({ description: 'Prefer: return=representation: the deleted rows', content: ROWS_CONTENT })
  @ApiResponse({ status: 204, description: 'Deleted (Content-Range */n); no body' })
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
