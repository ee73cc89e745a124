import { applyDecorators } from '@nestjs/common';
import { NotEquals, ValidateIf } from 'class-validator';

/**
 * A body field that may be left out but is never null: left out, it is not validated (a create takes the
 * default, an update keeps the value); null is refused (`<field> must not be null`) and the field's other
 * rules apply to any other value. `@IsOptional()` alone skips null as it skips undefined, which lets a null
 * reach a NOT NULL column; keep it for the fields where null means something (a description cleared).
 */
export const IsOptionalNotNull = (): PropertyDecorator =>
  applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    NotEquals(null, { message: '$property must not be null' }),
  );
