import { TSchema } from '@sinclair/typebox';
import { ValidateFunction } from 'ajv';
import {
  AGENT_MESSAGES,
  AgentErrorMessage,
  AgentMessageOf,
  CheckResultMessage,
  COMMAND_ANSWERS,
  CommandResult,
  compileSchema,
  describeErrors,
  Facts,
  FactsSchema,
  frameParser,
  messageParser,
  protocolAjv,
  ScriptOutputMessage,
  SERVER_MESSAGE_VALIDATORS,
  UpdateFailedMessage,
} from '@app/protocol';

/**
 * The server's side of the agent protocol (its schemas, both directions: libs/protocol, which the agent imports
 * too): the gateway validates every message an agent sends against its type's schema before anything reads it,
 * the answers to commands against the command's answer schema, and test/docs checks every example of
 * docs/agent-protocol.md against the same schemas. Compiled once, by one Ajv; the server's messages are checked
 * as the agent checks them, with the validators generated from SERVER_MESSAGES for it.
 */

export type { AgentErrorMessage, CheckResultMessage, ScriptOutputMessage, UpdateFailedMessage };
/** A heartbeat's facts are checked field by field (validFacts), not by the message's schema. */
export type HeartbeatMessage = AgentMessageOf<'heartbeat'> & { facts?: Record<string, unknown> };
/** An answer's envelope, and whatever else it carries (checked by the request it answers). */
export type ResultMessage = AgentMessageOf<'result'> & Record<string, unknown>;
/** session.opened, session.ack and session.close (AgentSessions reads them by type). */
export type SessionMessage = AgentMessageOf<'session.opened' | 'session.ack' | 'session.close'> & Record<string, unknown>;

export type ParsedAgentMessage =
  | { ok: true; type: 'heartbeat'; message: HeartbeatMessage }
  | { ok: true; type: 'script.output'; message: ScriptOutputMessage }
  | { ok: true; type: 'result'; message: ResultMessage }
  | { ok: true; type: 'check.result'; message: CheckResultMessage }
  | { ok: true; type: 'update.failed'; message: UpdateFailedMessage }
  | { ok: true; type: 'error'; message: AgentErrorMessage }
  | { ok: true; type: 'session.opened' | 'session.ack' | 'session.close'; message: SessionMessage }
  | { ok: false; error: string };

const ajv = protocolAjv();

// `error` is an agent's answer to a message of the server, not one to send of its own: the hint leaves it out.
const KNOWN_TYPES = Object.keys(AGENT_MESSAGES)
  .filter((type) => type !== 'error')
  .join(', ');

const parseAgentFrame = messageParser(AGENT_MESSAGES, {
  ajv,
  unknownType: () => `unknown message type: send one of ${KNOWN_TYPES} (docs/agent-protocol.md)`,
});

/** One frame from an agent: JSON, an object with a known `type`, valid against that type's schema; else why not. */
export function parseAgentMessage(text: string | null): ParsedAgentMessage {
  return parseAgentFrame(text) as ParsedAgentMessage;
}

const answerValidators = Object.fromEntries(
  Object.entries(COMMAND_ANSWERS).map(([command, schema]) => [command, { result: compileSchema(ajv, schema.anyOf[0]), refusal: compileSchema(ajv, schema.anyOf[1]) }]),
) as Record<keyof typeof COMMAND_ANSWERS, { result: ValidateFunction; refusal: ValidateFunction }>;

/** An agent's answer to `command`: its result, its refusal, or why the answer is not one. */
export function parseAnswer<K extends keyof typeof COMMAND_ANSWERS>(command: K, answer: unknown): { ok: true; result: CommandResult<K> } | { ok: false; refused: string } | { ok: false; invalid: string } {
  const ok = (answer as { ok?: unknown } | null)?.ok;
  if (ok !== true && ok !== false) return { ok: false, invalid: ok === undefined ? '/ok is required' : '/ok must be true or false' };
  // The branch the agent meant (by `ok`), so that the complaint names its field rather than the other branch's.
  const validate = answerValidators[command][ok ? 'result' : 'refusal'];
  if (!validate(answer)) return { ok: false, invalid: describeErrors(validate.errors) };
  const a = answer as { result?: unknown; error?: string };
  return ok ? { ok: true, result: a.result as CommandResult<K> } : { ok: false, refused: a.error! };
}

const factValidators = Object.fromEntries(Object.entries(FactsSchema.properties).map(([field, schema]) => [field, compileSchema(ajv, schema as TSchema)])) as Record<
  keyof Facts,
  ValidateFunction
>;

/** The valid fields of a heartbeat's facts, each checked on its own (unknown and invalid fields are left out). */
export function validFacts(raw: Record<string, unknown>): Partial<Facts> {
  const out: Record<string, unknown> = {};
  for (const [field, validate] of Object.entries(factValidators)) {
    if (Object.prototype.hasOwnProperty.call(raw, field) && validate(raw[field])) out[field] = raw[field];
  }
  return out as Partial<Facts>;
}

// The agent's own validators (generated ahead of time from SERVER_MESSAGES: libs/protocol/src/generated/).
const parseServerFrame = frameParser(() => SERVER_MESSAGE_VALIDATORS, { unknownType: () => 'unknown message type' });

/** True when `message` is a valid server → agent message of its type, as the agent checks it (docs' tests). */
export function isServerMessage(message: unknown): boolean {
  return parseServerFrame(JSON.stringify(message)).ok;
}
