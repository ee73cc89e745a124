import { Static, TSchema } from '@sinclair/typebox';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';

/** The Ajv both ends compile the schemas with (the same options: the same verdicts and the same complaints). */
export function protocolAjv(): Ajv {
  return new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
}

/** Compiles one schema, typed by it. */
export const compileSchema = <T extends TSchema>(ajv: Ajv, schema: T): ValidateFunction<Static<T>> => ajv.compile<Static<T>>(schema);

/** The first of Ajv's complaints, as a person reads it: `/checkId must be integer`. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'invalid';
  const where = e.instancePath || '/';
  if (e.keyword === 'required') return `${where === '/' ? '' : where}/${String((e.params as { missingProperty: string }).missingProperty)} is required`;
  if (e.keyword === 'const') return `${where} must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
  if (e.keyword === 'enum') return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  return `${where} ${e.message ?? 'is invalid'}`;
}

/** One frame, parsed and valid against its type's schema; or why it is not a message of the protocol. */
export type Parsed<S extends Record<string, TSchema>> = { [K in keyof S & string]: { ok: true; type: K; message: Static<S[K]> } }[keyof S & string] | { ok: false; error: string };

export interface ParserOptions {
  /** The complaint about a `type` that is none of the schemas' (given the value sent, whatever it is). */
  unknownType: (type: unknown) => string;
  ajv?: Ajv;
}

/**
 * A parser of one direction's frames: JSON, an object with a known `type`, valid against that type's schema; else
 * why not, in words the other end can act on. The schemas are compiled at the first frame, once (a process that
 * never reads a frame, such as `rmm-agent --version`, never compiles them).
 */
export function messageParser<S extends Record<string, TSchema>>(schemas: S, options: ParserOptions): (text: string | null) => Parsed<S> {
  let validators: Record<string, ValidateFunction> | undefined;
  const validatorOf = (type: string): ValidateFunction | undefined => {
    if (!validators) {
      const ajv = options.ajv ?? protocolAjv();
      validators = Object.fromEntries(Object.entries(schemas).map(([t, schema]) => [t, compileSchema(ajv, schema)]));
    }
    return Object.prototype.hasOwnProperty.call(validators, type) ? validators[type] : undefined;
  };
  return (text) => {
    if (text === null) return { ok: false, error: 'binary frames are not part of the protocol: send JSON text' };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, error: 'not JSON: every message is one JSON object' };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'every message is one JSON object {type, …}' };
    const type = (value as { type?: unknown }).type;
    const validate = typeof type === 'string' ? validatorOf(type) : undefined;
    if (!validate) return { ok: false, error: options.unknownType(type) };
    if (!validate(value)) return { ok: false, error: `invalid ${String(type)}: ${describeErrors(validate.errors)}` };
    return { ok: true, type, message: value } as Parsed<S>;
  };
}
