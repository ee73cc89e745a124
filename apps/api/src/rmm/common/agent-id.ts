import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';
import { AGENT_ID_MESSAGE, ID_DIGITS_PATTERN } from '../../common/values';

/** The pattern an agent id follows on the wire, for `@ApiProperty({ ...AGENT_ID_SCHEMA })`. */
export const AGENT_ID_SCHEMA = { pattern: ID_DIGITS_PATTERN.source } as const;

/**
 * An agent id in a body or query: a string of digits (a whole number is taken as its digits, since the
 * spec's clients treat the id as an integer); `each`: an array of them. Validation only; the property's ApiProperty documents it.
 */
export const IsAgentId = (options: { each?: boolean } = {}): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (options.each && Array.isArray(value) ? value.map(digits) : digits(value))),
    Matches(ID_DIGITS_PATTERN, { message: `$property ${options.each ? 'each ' : ''}${AGENT_ID_MESSAGE}`, each: options.each }),
  );

const digits = (value: unknown): unknown => (typeof value === 'number' && Number.isInteger(value) ? String(value) : value);
