import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { ClientEntity, SiteEntity } from '@app/entities';
import { IsOptionalNotNull } from '../common/optional-not-null';

export class SiteRefDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
}

export class ClientDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: [SiteRefDto] }) sites: SiteRefDto[];
}

export class SiteDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'client id' }) client: number;
}

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
}

export class RenameDto {
  @ApiProperty({ example: 'New name', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;
}

export const toSiteRef = (s: SiteEntity): SiteRefDto => ({ id: s.id, name: s.name });
export const toSiteDto = (s: SiteEntity): SiteDto => ({ id: s.id, name: s.name, client: s.clientId });
export const toClientDto = (c: ClientEntity): ClientDto => ({ id: c.id, name: c.name, sites: (c.sites ?? []).map(toSiteRef) });
