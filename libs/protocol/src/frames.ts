// Reading one direction's frames with validators already made: Ajv's compiled ones (validation.ts, the server) or
// the ones generated ahead of time (generated/agent-validators.ts, the agent). Nothing here is Ajv's compiler or
// TypeBox: the agent carries this file.
import type { ErrorObject } from 'ajv';

/** A validator of one message type, as Ajv makes it (compiled, or standalone code): the verdict, and why not. */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: ErrorObject[] | null;
}

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

/** One frame, parsed and valid against its type's validator (M: each type's message); or why it is not a message of the protocol. */
export type ParsedFrame<M> = { [K in keyof M & string]: { ok: true; type: K; message: M[K] } }[keyof M & string] | { ok: false; error: string };

export interface FrameParserOptions {
  /** The complaint about a `type` that is none of the validators' (given the value sent, whatever it is). */
  unknownType: (type: unknown) => string;
}

/**
 * A parser of one direction's frames: JSON, an object with a known `type`, valid against that type's validator;
 * else why not, in words the other end can act on. `validators()` is called at the first frame, once.
 */
export function frameParser<M>(validators: () => { readonly [K in keyof M]: Validator<M[K]> }, options: FrameParserOptions): (text: string | null) => ParsedFrame<M> {
  let byType: Record<string, Validator<unknown>> | undefined;
  const validatorOf = (type: string): Validator<unknown> | undefined => {
    byType ??= validators() as Record<string, Validator<unknown>>;
    return Object.prototype.hasOwnProperty.call(byType, type) ? byType[type] : undefined;
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
    return { ok: true, type, message: value } as ParsedFrame<M>;
  };
}
