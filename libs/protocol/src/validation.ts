import { Static, TSchema } from '@sinclair/typebox';
import Ajv, { Options, ValidateFunction } from 'ajv';
import { FrameParserOptions, frameParser, ParsedFrame, Validator } from './frames';

/**
 * The options both ends' validators are made with: the server compiles with them (protocolAjv), and
 * scripts/protocol-validators.js generates the agent's with them (generated/agent-validators.ts): the same
 * verdicts and the same complaints.
 */
export const PROTOCOL_AJV_OPTIONS = { allErrors: false, strict: true, allowUnionTypes: true } as const satisfies Options;

/** The Ajv the server compiles the schemas with. */
export function protocolAjv(): Ajv {
  return new Ajv({ ...PROTOCOL_AJV_OPTIONS });
}

/** Compiles one schema, typed by it. */
export const compileSchema = <T extends TSchema>(ajv: Ajv, schema: T): ValidateFunction<Static<T>> => ajv.compile<Static<T>>(schema);

/** One frame, parsed and valid against its type's schema; or why it is not a message of the protocol. */
export type Parsed<S extends Record<string, TSchema>> = ParsedFrame<{ [K in keyof S & string]: Static<S[K]> }>;

export interface ParserOptions extends FrameParserOptions {
  ajv?: Ajv;
}

/**
 * A parser of one direction's frames, checked against these schemas (frameParser). The schemas are compiled at
 * the first frame, once (a process that never reads a frame never compiles them).
 */
export function messageParser<S extends Record<string, TSchema>>(schemas: S, options: ParserOptions): (text: string | null) => Parsed<S> {
  type Messages = { [K in keyof S & string]: Static<S[K]> };
  return frameParser<Messages>(() => {
    const ajv = options.ajv ?? protocolAjv();
    const validators: Record<string, Validator<unknown>> = {};
    for (const [type, schema] of Object.entries(schemas)) validators[type] = compileSchema(ajv, schema);
    return validators as { [K in keyof Messages]: Validator<Messages[K]> };
  }, options);
}
