import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, validateSync, ValidationError } from 'class-validator';
import { FieldError, invalid } from '../../../common/errors/domain-error';
import { PG_INT_MAX } from '../../../common/values';
import { RUN_INTERVAL_MAX, RUN_INTERVAL_MIN } from '../checks/checks.dto';

/** At most this many overrides per agent (one per inherited item is all there is to say). */
const OVERRIDES_MAX = 1_000;

/** One override of one inherited item on one agent (docs/policies.md, "Overrides"). */
export class PolicyOverrideDto {
  @ApiProperty({ description: 'policy id' })
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  policy: number;

  @ApiProperty({ description: "the item's merge key, as the effective policy shows it (e.g. diskspace:C:)", maxLength: 2000 })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  key: string;

  @ApiPropertyOptional({ default: false, description: 'true: the item does not run on this agent (its key stays taken: no lower policy fills it)' })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, description: "a check's settings on this agent (validated as its check type's)" })
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown> | null;

  @ApiPropertyOptional({ minimum: RUN_INTERVAL_MIN, maximum: RUN_INTERVAL_MAX, nullable: true, type: Number })
  @IsOptional()
  @IsInt()
  @Min(RUN_INTERVAL_MIN)
  @Max(RUN_INTERVAL_MAX)
  run_interval?: number | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, nullable: true, type: Number })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  fails_b4_alert?: number | null;
}

/** An override as the API answers it. */
export class PolicyOverrideOutDto {
  @ApiProperty() policy: number;
  @ApiProperty({ description: 'the policy name' }) policy_name: string;
  @ApiProperty() key: string;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) settings: Record<string, unknown> | null;
  @ApiProperty({ nullable: true, type: Number }) run_interval: number | null;
  @ApiProperty({ nullable: true, type: Number }) fails_b4_alert: number | null;
}

const flatten = (errors: ValidationError[], parent: string): FieldError[] =>
  errors.flatMap((e) => {
    const field = `${parent}.${e.property}`;
    return [...Object.values(e.constraints ?? {}).map((message) => ({ field, message: message.replace(e.property, field) })), ...flatten(e.children ?? [], field)];
  });

/**
 * The PUT body, checked: a JSON array of overrides (a body that is not one, or an element that is not valid, is a
 * 400 naming `[i].field`). Validated here rather than by the global pipe, which passes arrays through unchecked.
 */
export function parseOverrides(body: unknown): PolicyOverrideDto[] {
  if (!Array.isArray(body)) throw invalid('validation error', [{ field: 'body', message: 'must be a list of overrides' }]);
  if (body.length > OVERRIDES_MAX) throw invalid('validation error', [{ field: 'body', message: `at most ${OVERRIDES_MAX} overrides` }]);
  const errors: FieldError[] = [];
  const out = body.map((raw, i) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push({ field: `[${i}]`, message: 'must be an object' });
      return null;
    }
    const dto = plainToInstance(PolicyOverrideDto, raw);
    errors.push(...flatten(validateSync(dto, { whitelist: true }), `[${i}]`));
    return dto;
  });
  if (errors.length > 0) throw invalid('validation error', errors);
  return out as PolicyOverrideDto[];
}
