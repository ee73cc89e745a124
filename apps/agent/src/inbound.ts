// What the server sends, checked before anything reads it against libs/protocol's schemas, by the validators
// generated from them ahead of time (Ajv's standalone code: the agent carries neither Ajv's compiler nor TypeBox):
// the channel's messages (SERVER_MESSAGES) and the registration's answer.
import { describeErrors, frameParser, REFUSAL_MAX, SERVER_MESSAGE_TYPES, SERVER_MESSAGE_VALIDATORS, validateRegistered } from '@app/protocol/agent';
import type { Registered } from '@app/protocol/agent';
import { AGENT_VERSION } from './protocol';

const KNOWN_TYPES = SERVER_MESSAGE_TYPES.join(', ');

/** The longest `type` a refusal repeats (a newer server's message type is a word or two). */
const TYPE_SHOWN_MAX = 64;

/**
 * The refusal of a message whose type this agent does not know (a newer server's, most likely): which type, and
 * which this version knows, so that whoever reads the server's log sees why.
 */
export function unknownTypeError(type: unknown): string {
  const shown = typeof type === 'string' ? ` ${JSON.stringify(type.slice(0, TYPE_SHOWN_MAX))}` : '';
  return `unknown message type${shown}: rmm-agent ${AGENT_VERSION} knows ${KNOWN_TYPES} (docs/agent-protocol.md)`;
}

/** One frame from the server (null: a binary frame): a message of the protocol, valid against its type's schema; else why not. */
export const parseServerMessage = frameParser(() => SERVER_MESSAGE_VALIDATORS, { unknownType: unknownTypeError });
export type ParsedServerMessage = ReturnType<typeof parseServerMessage>;

/**
 * An `error` message as the agent sends it: printable, at most REFUSAL_MAX characters (the server refuses any
 * other, and logs a line of it).
 */
export function errorText(why: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const printable = why.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return Array.from(printable).slice(0, REFUSAL_MAX).join('') || 'invalid message';
}

/** The answer to a registration (200), or why it is not one. */
export function parseRegistered(body: unknown): Registered | string {
  return validateRegistered(body) ? body : describeErrors(validateRegistered.errors);
}
