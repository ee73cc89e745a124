import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { AGENT_UPDATE_MODES, AgentUpdateMode, ClientEntity, SiteEntity } from '@app/entities';
import { IsOptionalNotNull } from '../../common/optional-not-null';

export class SiteRefDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
}

const CUSTOM_FIELDS_DOC = (scope: string) =>
  `Every ${scope} custom field by name: its value, else its default, else null; a secret "********" when set, null when not (docs/custom-fields.md)`;

export class ClientDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: [SiteRefDto] }) sites: SiteRefDto[];
  @ApiProperty({ enum: AGENT_UPDATE_MODES, description: "auto: the client's agents update themselves to the server's agent version, staged (docs/agent-binaries.md); off: never" })
  agent_update: AgentUpdateMode;
  @ApiProperty({ type: 'object', additionalProperties: true, description: CUSTOM_FIELDS_DOC('client') }) custom_fields: Record<string, unknown>;
}

export class SiteDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'client id' }) client: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: CUSTOM_FIELDS_DOC('site') }) custom_fields: Record<string, unknown>;
}

/** A client or site as read: the entity and its custom fields (ClientsRepository.withFields). */
export type WithFields<T> = T & { customFields?: Record<string, unknown> };

export class CreateClientDto {
  @ApiProperty({ example: 'Acme Corp', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ example: 'HQ', description: 'Also create a first site with this name' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  site_name?: string;

  @ApiPropertyOptional({ enum: AGENT_UPDATE_MODES, default: 'auto', description: "Whether the client's agents update themselves (staged) to the server's agent version" })
  @IsOptionalNotNull()
  @IsIn(AGENT_UPDATE_MODES, { message: `agent_update must be one of ${AGENT_UPDATE_MODES.join(', ')}` })
  agent_update?: AgentUpdateMode;
}

export class RenameDto {
  @ApiProperty({ example: 'New name', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;
}

/** PATCH: any of the fields, at least one. */
export class PatchClientDto {
  @ApiPropertyOptional({ example: 'New name', maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ enum: AGENT_UPDATE_MODES, description: "auto: the client's agents update themselves to the server's agent version, staged; off: never (pending updates are dropped, running ones finish)" })
  @IsOptionalNotNull()
  @IsIn(AGENT_UPDATE_MODES, { message: `agent_update must be one of ${AGENT_UPDATE_MODES.join(', ')}` })
  agent_update?: AgentUpdateMode;
}

export const toSiteRef = (s: SiteEntity): SiteRefDto => ({ id: s.id, name: s.name });
export const toSiteDto = (s: WithFields<SiteEntity>): SiteDto => ({ id: s.id, name: s.name, client: s.clientId, custom_fields: s.customFields ?? {} });
export const toClientDto = (c: WithFields<ClientEntity>): ClientDto => ({
  id: c.id,
  name: c.name,
  sites: (c.sites ?? []).map(toSiteRef),
  agent_update: c.agentUpdate,
  custom_fields: c.customFields ?? {},
});
