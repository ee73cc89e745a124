import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ScriptEntity, Shell, SHELLS } from '@app/entities';
import { IsOptionalNotNull } from '../../common/optional-not-null';

export const MAX_SCRIPT_BYTES = 1024 * 1024;

export class CreateScriptDto {
  @ApiProperty({ example: 'Clear temp files', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: SHELLS })
  @IsIn(SHELLS as unknown as string[])
  shell: Shell;

  @ApiPropertyOptional({ nullable: true, maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiProperty({ description: 'The script text (at most 1 MiB)', example: 'Remove-Item $env:TEMP\\* -Recurse -Force' })
  @IsString()
  @MaxLength(MAX_SCRIPT_BYTES)
  body: string;

  @ApiPropertyOptional({ type: [String], description: 'Default arguments' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(4096, { each: true })
  args?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 300, default: 90, description: 'Default timeout, seconds' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(300)
  default_timeout?: number;
}

/** Each field may be left out (kept as it is); only description may be null (cleared). */
export class UpdateScriptDto extends PartialType(CreateScriptDto, { skipNullProperties: false }) {}

/** The spec's Script, plus its defaults. */
export class ScriptDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: SHELLS }) shell: Shell;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ type: [String] }) args: string[];
  @ApiProperty() default_timeout: number;
}

export class ScriptDetailDto extends ScriptDto {
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export const toScriptDto = (s: ScriptEntity): ScriptDto => ({
  id: s.id,
  name: s.name,
  shell: s.shell,
  description: s.description,
  args: s.defaultArgs,
  default_timeout: s.defaultTimeout,
});

export const toScriptDetailDto = (s: ScriptEntity): ScriptDetailDto => ({
  ...toScriptDto(s),
  body: s.body,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});
