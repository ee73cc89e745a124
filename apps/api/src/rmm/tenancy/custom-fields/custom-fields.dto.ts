import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { CUSTOM_FIELD_SCOPES, CUSTOM_FIELD_TYPES, CustomFieldEntity, CustomFieldScope, CustomFieldType, CustomFieldValue } from '@app/entities';
import { IsOptionalNotNull } from '../../common/optional-not-null';
import { PageQueryDto } from '../../common/pagination.dto';
import { FIELD_NAME, MAX_OPTIONS } from './custom-field-rules';

const VALUE_DOC =
  'text, secret, date (YYYY-MM-DD) and select: a string; number: a finite number; boolean; multiselect: a list of options';

export class CustomFieldDto {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'site_code', pattern: FIELD_NAME.source }) name: string;
  @ApiProperty({ example: 'Site code' }) label: string;
  @ApiProperty({ enum: CUSTOM_FIELD_SCOPES }) scope: CustomFieldScope;
  @ApiProperty({ enum: CUSTOM_FIELD_TYPES }) type: CustomFieldType;
  @ApiProperty({ nullable: true, type: [String], description: 'select and multiselect: the allowed values' }) options: string[] | null;
  @ApiProperty({ nullable: true, description: `Answered for an agent, site or client without a value of its own (${VALUE_DOC}); never for a secret`, oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }] })
  default: CustomFieldValue | null;
  @ApiProperty({ description: 'The console asks for it; the API still lets a value be cleared' }) required: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export const toCustomFieldDto = (f: CustomFieldEntity): CustomFieldDto => ({
  id: f.id,
  name: f.name,
  label: f.label,
  scope: f.scope,
  type: f.type,
  options: f.options,
  default: f.defaultValue,
  required: f.required,
  created_at: f.createdAt.toISOString(),
  updated_at: f.updatedAt.toISOString(),
});

export class CustomFieldFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CUSTOM_FIELD_SCOPES, description: "Only this scope's fields" })
  @IsOptional()
  @IsIn(CUSTOM_FIELD_SCOPES as unknown as string[])
  scope?: CustomFieldScope;
}

export class CreateCustomFieldDto {
  @ApiProperty({ example: 'site_code', pattern: FIELD_NAME.source, description: 'Unique within its scope; how scripts name it ({{agent.site_code}})' })
  @IsString()
  @Matches(FIELD_NAME, { message: 'name must be a lowercase letter then up to 63 lowercase letters, digits or _' })
  name: string;

  @ApiProperty({ example: 'Site code', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  label: string;

  @ApiProperty({ enum: CUSTOM_FIELD_SCOPES })
  @IsIn(CUSTOM_FIELD_SCOPES as unknown as string[], { message: `scope must be one of ${CUSTOM_FIELD_SCOPES.join(', ')}` })
  scope: CustomFieldScope;

  @ApiProperty({ enum: CUSTOM_FIELD_TYPES })
  @IsIn(CUSTOM_FIELD_TYPES as unknown as string[], { message: `type must be one of ${CUSTOM_FIELD_TYPES.join(', ')}` })
  type: CustomFieldType;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_OPTIONS, description: 'Required for select and multiselect (distinct, 1–200 characters each); refused for the other types' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_OPTIONS)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(200, { each: true })
  options?: string[];

  @ApiPropertyOptional({ nullable: true, description: `A value of the field's type (${VALUE_DOC}); not for a secret; null or left out: none`, oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }] })
  @Allow()
  default?: unknown;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  required?: boolean;
}

/** PATCH: any of the fields. name, scope and type only while no value of the field exists (else 400). default: null clears it. */
export class PatchCustomFieldDto {
  @ApiPropertyOptional({ pattern: FIELD_NAME.source })
  @IsOptionalNotNull()
  @IsString()
  @Matches(FIELD_NAME, { message: 'name must be a lowercase letter then up to 63 lowercase letters, digits or _' })
  name?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  label?: string;

  @ApiPropertyOptional({ enum: CUSTOM_FIELD_SCOPES })
  @IsOptionalNotNull()
  @IsIn(CUSTOM_FIELD_SCOPES as unknown as string[], { message: `scope must be one of ${CUSTOM_FIELD_SCOPES.join(', ')}` })
  scope?: CustomFieldScope;

  @ApiPropertyOptional({ enum: CUSTOM_FIELD_TYPES })
  @IsOptionalNotNull()
  @IsIn(CUSTOM_FIELD_TYPES as unknown as string[], { message: `type must be one of ${CUSTOM_FIELD_TYPES.join(', ')}` })
  type?: CustomFieldType;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_OPTIONS, description: 'Replaces the options; an option some value holds cannot be removed (400)' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_OPTIONS)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(200, { each: true })
  options?: string[];

  @ApiPropertyOptional({ nullable: true, description: 'null clears it', oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }] })
  @Allow()
  default?: unknown;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  required?: boolean;
}
