import { Body, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { ParseIdPipe, ParseUuidPipe } from '../../common/id.pipe';
import { setTotal } from '../../common/list-headers';
import { isPaged, pageOf } from '../../common/pagination.dto';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { RmmController } from '../../common/rmm-controller';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope, RequireStepUp } from '../../common/scopes';
import { OpenTerminalDto, TerminalSessionDto, TerminalSessionFilterDto, TerminalTicketDto, toTerminalSessionDto } from './terminal.dto';
import { TerminalService } from './terminal.service';

/** A terminal on an agent: a route of the agents' resource, served here so that the fleet knows nothing of terminals. */
@RmmController('agents', 'agents')
export class AgentTerminalController {
  constructor(private readonly terminals: TerminalService) {}

  @Post(':agentId/terminal')
  @RequireScope('terminal')
  @RequireStepUp()
  @ApiOperation({
    operationId: 'agentsOpenTerminal',
    summary:
      'Open a terminal on an agent: 201 with a one-time ticket; open the WebSocket at url (same host) within expires_in seconds, as the same caller (docs/terminal.md). Scope: terminal',
  })
  @ApiCreatedResponse({ type: TerminalTicketDto })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (cols, rows: 1 to 1000; shell: printable, at most 255 characters)' })
  @ApiResponse({ status: 401, type: RmmErrorDto, description: "{detail: 're-authentication required', step_up: true}: an operator's session authenticated more than RMM_STEP_UP_MINUTES ago (docs/sso.md)" })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent (or one of a client the caller may not see)' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: '{detail: "agent is offline"}' })
  @ApiResponse({ status: 429, type: RmmErrorDto, description: '{detail: "too many terminal sessions on this agent (at most 3)"} or "… for this caller (at most 10)"; or the rate limit' })
  open(@Param('agentId', ParseIdPipe) agentId: number, @Body() body: OpenTerminalDto, @Req() req: AuthedRequest): Promise<TerminalTicketDto> {
    return this.terminals.open(agentId, body, { principal: req.principal!, address: req.ip ?? null, requestId: String(req.id) });
  }
}

/** The terminal sessions: who opened which, when, how much went through, and why each ended. */
@RmmController('terminal-sessions', 'terminal')
export class TerminalSessionsController {
  constructor(private readonly terminals: TerminalService) {}

  @Get()
  @RequireScope('terminal')
  @ApiOperation({ operationId: 'terminalSessionsList', summary: 'Terminal sessions, newest first; agent filters by agent. Scope: terminal' })
  @ApiOkResponse({ type: [TerminalSessionDto] })
  @ApiResponse({ status: 400, type: RmmErrorDto, description: 'validation error (agent, limit, offset)' })
  async list(@Query() q: TerminalSessionFilterDto, @Req() req: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TerminalSessionDto[]> {
    const [rows, total] = await this.terminals.list({ agentId: q.agent === undefined ? undefined : Number(q.agent) }, clientFilter(req.principal), pageOf(q));
    setTotal(reply, isPaged(q) ? total : undefined);
    return rows.map(toTerminalSessionDto);
  }

  @Get(':id/recording')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'terminalSessionsRecording',
    summary: "A session's recording (RMM_TERMINAL_RECORDING=true), asciicast v2: the header line, then one event line per output or resize (play it with asciinema). Scope: admin",
  })
  @ApiProduces('application/x-asciicast')
  @ApiOkResponse({ schema: { type: 'string' }, description: 'asciicast v2 (newline-delimited JSON)' })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such session, or none recorded' })
  async recording(@Param('id', ParseUuidPipe) id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<Readable> {
    const stream = await this.terminals.recording(id);
    void reply.header('content-type', 'application/x-asciicast');
    return stream;
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'terminalSessionsEnd',
    summary: 'End a terminal session (end reason ended_by_admin): an unused ticket at once, an open session within 5 s. Scope: admin',
  })
  @ApiNoContentResponse({ description: 'ended (or being ended)' })
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such session' })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: '{detail: "the session has ended already"}' })
  end(@Param('id', ParseUuidPipe) id: string): Promise<void> {
    return this.terminals.endByAdmin(id);
  }
}
