import { Body, Param, Put, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ParseIdPipe } from '../../common/id.pipe';
import { AuthedRequest, clientFilter } from '../../common/principal';
import { RmmController } from '../../common/rmm-controller';
import { RmmErrorDto } from '../../common/rmm-error.dto';
import { RequireScope } from '../../common/scopes';
import { CustomFieldsService, ShownValues } from './custom-fields.service';

const VALUES_BODY = {
  schema: { type: 'object', additionalProperties: true, example: { site_code: 'NYC-1', rack: null } },
  description: '{name: value}: a partial merge (fields not named keep their values); null clears a value',
};
const VALUES_ANSWER = {
  schema: { type: 'object', additionalProperties: true, example: { site_code: 'NYC-1', rack: null, admin_password: '********' } },
  description: 'Every field of the scope after the change: its value, else its default, else null; a secret "********" when set',
};
const BAD_VALUE = { status: 400, type: RmmErrorDto, description: '{detail: "unknown field agent.x" | "<name>: <why>", errors: [{field: <name>, message}]}: an unknown name, or a value its type refuses; nothing written' };

/** An agent's custom field values: a route of the agents' resource, served with the fields. */
@RmmController('agents', 'agents')
export class AgentCustomFieldsController {
  constructor(private readonly fields: CustomFieldsService) {}

  @Put(':agentId/custom-fields')
  @RequireScope('agents:write')
  @ApiOperation({ operationId: 'agentsPutCustomFields', summary: "Set an agent's custom field values (a partial merge; null clears). Scope: agents:write" })
  @ApiBody(VALUES_BODY)
  @ApiOkResponse(VALUES_ANSWER)
  @ApiResponse(BAD_VALUE)
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such agent' })
  put(@Param('agentId', ParseIdPipe) id: number, @Body() body: unknown, @Req() req: AuthedRequest): Promise<ShownValues> {
    return this.fields.putAgentValues(id, body, clientFilter(req.principal), String(req.id));
  }
}

/** A client's and a site's custom field values: routes of the clients' resource, served with the fields. */
@RmmController('clients', 'clients and sites')
export class ClientCustomFieldsController {
  constructor(private readonly fields: CustomFieldsService) {}

  @Put(':id/custom-fields')
  @RequireScope('clients:write')
  @ApiOperation({ operationId: 'clientsPutCustomFields', summary: "Set a client's custom field values (a partial merge; null clears). Scope: clients:write" })
  @ApiBody(VALUES_BODY)
  @ApiOkResponse(VALUES_ANSWER)
  @ApiResponse(BAD_VALUE)
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such client' })
  putClient(@Param('id', ParseIdPipe) id: number, @Body() body: unknown, @Req() req: AuthedRequest): Promise<ShownValues> {
    return this.fields.putClientValues(id, body, clientFilter(req.principal), String(req.id));
  }

  @Put(':id/sites/:siteId/custom-fields')
  @RequireScope('clients:write')
  @ApiOperation({ operationId: 'clientsPutSiteCustomFields', summary: "Set a site's custom field values (a partial merge; null clears). Scope: clients:write" })
  @ApiBody(VALUES_BODY)
  @ApiOkResponse(VALUES_ANSWER)
  @ApiResponse(BAD_VALUE)
  @ApiResponse({ status: 404, type: RmmErrorDto, description: 'No such client or site' })
  putSite(@Param('id', ParseIdPipe) id: number, @Param('siteId', ParseIdPipe) siteId: number, @Body() body: unknown, @Req() req: AuthedRequest): Promise<ShownValues> {
    return this.fields.putSiteValues(id, siteId, body, clientFilter(req.principal), String(req.id));
  }
}
