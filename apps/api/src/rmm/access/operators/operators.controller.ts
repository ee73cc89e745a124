import { Body, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/id.pipe';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope, RequireStepUp } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { CreateOperatorDto, OperatorDto, OperatorSessionDto, toOperatorDto, toOperatorSessionDto, TotpSetupDto, UpdateOperatorDto } from './operators.dto';
import { OperatorsService } from './operators.service';

/** Operator administration (admin only): the console's people, their roles, clients, TOTP. */
@RmmController('operators', 'operators')
export class OperatorsController {
  constructor(private readonly operators: OperatorsService) {}

  @Get()
  @RequireScope('admin')
  @ApiOperation({ summary: 'List operators. Scope: admin' })
  @ApiOkResponse({ type: [OperatorDto] })
  async list(@Req() req: AuthedRequest): Promise<OperatorDto[]> {
    return (await this.operators.list(clientFilter(req.principal))).map(toOperatorDto);
  }

  @Post()
  @RequireScope('admin')
  @RequireStepUp()
  @ApiOperation({ summary: 'Create an operator (role admin, technician or viewer; optionally limited to some clients). Scope: admin' })
  @ApiCreatedResponse({ type: OperatorDto })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  @ApiResponse({ status: 409, type: RmmErrorDto, description: 'An operator with this email exists' })
  async create(@Body() body: CreateOperatorDto, @Req() req: AuthedRequest): Promise<OperatorDto> {
    return toOperatorDto(await this.operators.create(body, clientFilter(req.principal)));
  }

  @Get(':id')
  @RequireScope('admin')
  @ApiOperation({ summary: 'One operator. Scope: admin' })
  @ApiOkResponse({ type: OperatorDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async get(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<OperatorDto> {
    return toOperatorDto(await this.operators.get(id, clientFilter(req.principal)));
  }

  @Patch(':id')
  @RequireScope('admin')
  @RequireStepUp()
  @ApiOperation({ summary: "Change an operator's role, clients, password or disabled flag (a password or disabling ends their sessions). Scope: admin" })
  @ApiOkResponse({ type: OperatorDto })
  @ApiResponse({ status: 400, type: RmmErrorDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateOperatorDto, @Req() req: AuthedRequest): Promise<OperatorDto> {
    return toOperatorDto(await this.operators.update(id, body, clientFilter(req.principal)));
  }

  @Get(':id/sessions')
  @RequireScope('admin')
  @ApiOperation({ summary: "An operator's live sessions (where, which browser, how, when). Scope: admin" })
  @ApiOkResponse({ type: [OperatorSessionDto] })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async sessions(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<OperatorSessionDto[]> {
    return (await this.operators.sessionsOf(id, clientFilter(req.principal))).map((s) => toOperatorSessionDto(s, req.principal!.sessionId));
  }

  @Delete(':id/sessions')
  @HttpCode(204)
  @RequireScope('admin')
  @ApiOperation({ summary: 'End every session of an operator at once (their WebSockets close; they sign in again). Scope: admin' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async endSessions(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.operators.endOperatorSessions(id, clientFilter(req.principal));
  }

  @Post(':id/totp')
  @RequireScope('admin')
  @RequireStepUp()
  @ApiOperation({ summary: 'Set up TOTP for an operator: the otpauth URI and ten recovery codes, shown once. Scope: admin' })
  @ApiCreatedResponse({ type: TotpSetupDto })
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async enableTotp(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<TotpSetupDto> {
    const { uri, recoveryCodes } = await this.operators.enableTotp(id, clientFilter(req.principal));
    return { otpauth_uri: uri, recovery_codes: recoveryCodes };
  }

  @Delete(':id/totp')
  @HttpCode(204)
  @RequireScope('admin')
  @RequireStepUp()
  @ApiOperation({ summary: "Remove an operator's TOTP (their password alone signs in again). Scope: admin" })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, type: RmmErrorDto })
  async disableTotp(@Param('id', ParseIdPipe) id: number, @Req() req: AuthedRequest): Promise<void> {
    await this.operators.disableTotp(id, clientFilter(req.principal));
  }
}
