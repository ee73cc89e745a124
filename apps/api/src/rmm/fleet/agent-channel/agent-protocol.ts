import { Static, TSchema, Type } from '@sinclair/typebox';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { AGENT_TARGETS, CHECK_STATUSES, PLATFORMS } from '@app/entities';
import { AGENT_HOSTNAME_MAX, AGENT_HOSTNAME_PATTERN, PG_INT_MAX } from '../../../common/values';

/**
 * The agent protocol's messages (docs/agent-protocol.md), written once as JSON Schemas (TypeBox) and compiled
 * once (Ajv): the gateway validates every message an agent sends against its type's schema before anything
 * reads it, the answers to commands against the command's answer schema, and test/docs checks every example
 * of docs/agent-protocol.md against the same schemas. Unknown extra fields are allowed (and ignored), so an
 * agent newer than this server still talks to it.
 */

const PRINTABLE = '^[^\\u0000-\\u001f\\u007f]*$';
/** The longest reason an agent may give (update.failed; the same bound as a refusal). */
const REFUSAL_MAX_LENGTH = 1_000;
const Id = Type.Integer({ minimum: 1, maximum: PG_INT_MAX });
const Printable = (maxLength: number, minLength = 0) => Type.String({ minLength, maxLength, pattern: PRINTABLE });
/** One of these words (a JSON Schema `enum`, so that a wrong one is answered with the list). */
const OneOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

// ---- agent → server ----------------------------------------------------------------------------------------

/**
 * Facts, field by field (the registration's rules): a heartbeat's facts are checked one field at a time, and a
 * field that fails its rule is ignored on its own (docs/agent-protocol.md, "Facts in heartbeats").
 */
export const FactsSchema = Type.Object({
  /** The device's own name (stored as os_hostname; the agent's hostname is not changed by a heartbeat). */
  hostname: Type.String({ minLength: 1, maxLength: AGENT_HOSTNAME_MAX, pattern: AGENT_HOSTNAME_PATTERN.source }),
  plat: OneOf(PLATFORMS),
  version: Printable(64, 1),
  operating_system: Printable(255),
  arch: Printable(32),
  cpu_model: Printable(255),
  total_ram: Type.Number({ minimum: 0, maximum: 1_000_000 }),
  disks: Type.Array(
    Type.Object({
      device: Printable(255),
      free: Printable(32),
      total: Printable(32),
      percent: Type.Integer({ minimum: 0, maximum: 100 }),
    }),
    { maxItems: 64 },
  ),
  public_ip: Printable(64),
  local_ip: Printable(255),
  logged_in_username: Printable(255),
  /** The binary target the agent updates itself as (only a single-file agent holding the server's update key sends it). Not stored. */
  update_target: OneOf(AGENT_TARGETS),
});
export type Facts = Static<typeof FactsSchema>;

export const HeartbeatSchema = Type.Object({
  type: Type.Literal('heartbeat'),
  facts: Type.Optional(Type.Object({})),
});

export const ScriptOutputSchema = Type.Object({
  type: Type.Literal('script.output'),
  runId: Id,
  stream: OneOf(['stdout', 'stderr'] as const),
  chunk: Type.String(),
  seq: Type.Integer({ minimum: 0, maximum: PG_INT_MAX }),
});
export type ScriptOutputMessage = Static<typeof ScriptOutputSchema>;

/**
 * The envelope of an answer: which request it answers. What it answers (`ok`, `result` or `error`) is checked
 * against the command's answer schema (COMMAND_ANSWERS) by the request's owner: a malformed answer to a real
 * request ends that request ("agent sent an invalid answer"), not only the message.
 */
export const ResultSchema = Type.Object({
  type: Type.Literal('result'),
  id: Type.String({ minLength: 1, maxLength: 128 }),
});

export const CheckResultSchema = Type.Object({
  type: Type.Literal('check.result'),
  checkId: Id,
  status: OneOf(CHECK_STATUSES),
  moreInfo: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type CheckResultMessage = Static<typeof CheckResultSchema>;

/** The agent refused the version update.available offered, or rolled it back (docs/agent-binaries.md). */
export const UpdateFailedSchema = Type.Object({
  type: Type.Literal('update.failed'),
  version: Printable(64, 1),
  error: Printable(REFUSAL_MAX_LENGTH, 1),
});
export type UpdateFailedMessage = Static<typeof UpdateFailedSchema>;

/** Every message an agent may send, by `type`. */
export const AGENT_MESSAGES = {
  heartbeat: HeartbeatSchema,
  'script.output': ScriptOutputSchema,
  result: ResultSchema,
  'check.result': CheckResultSchema,
  'update.failed': UpdateFailedSchema,
} as const;
export type AgentMessageType = keyof typeof AGENT_MESSAGES;

// ---- answers to commands -------------------------------------------------------------------------------------

/** Exit codes: a POSIX status, or a Windows one (a DWORD: NTSTATUS values such as 0xC0000005 are above 2^31). */
export const RETCODE_MIN = -2_147_483_648;
export const RETCODE_MAX = 4_294_967_295;

export const ScriptRunAnswerSchema = Type.Object({
  retcode: Type.Union([Type.Integer({ minimum: RETCODE_MIN, maximum: RETCODE_MAX }), Type.Null()]),
  stdout: Type.String(),
  stderr: Type.String(),
  executionTime: Type.Number({ minimum: 0, maximum: 31_536_000 }),
  timedOut: Type.Boolean(),
});

/** A refusal's reason: one line or a few for a person. */
export const REFUSAL_MAX = REFUSAL_MAX_LENGTH;

/** `ok: true` with the command's result, or `ok: false` with a reason (a refusal: the agent would not or could not). */
const answerOf = <T extends TSchema>(result: T) =>
  Type.Union([
    Type.Object({ ok: Type.Literal(true), result }),
    Type.Object({ ok: Type.Literal(false), error: Type.String({ minLength: 1 }) }),
  ]);

/** The answer each command expects (AgentCommands in agent-channel.ts). */
export const COMMAND_ANSWERS = {
  'script.run': answerOf(ScriptRunAnswerSchema),
} as const;

// ---- server → agent ------------------------------------------------------------------------------------------

const SyncedCheckSchema = Type.Object({
  id: Id,
  checkType: Type.String(),
  name: Type.String(),
  runInterval: Type.Integer({ minimum: 5, maximum: 86_400 }),
  settings: Type.Object({}),
  script: Type.Optional(
    Type.Object({ shell: Type.String(), body: Type.String(), args: Type.Array(Type.String()), timeoutSeconds: Type.Integer({ minimum: 1 }) }),
  ),
});

/** What the server sends (checked in the docs' tests; the server builds them itself). */
export const SERVER_MESSAGES = {
  hello: Type.Object({ type: Type.Literal('hello'), agent_id: Type.String({ pattern: '^[0-9]{1,10}$' }), heartbeat_seconds: Type.Integer({ minimum: 1 }), server_time: Type.String() }),
  'script.run': Type.Object({
    type: Type.Literal('script.run'),
    id: Type.String({ minLength: 1 }),
    runId: Id,
    shell: OneOf(['bash', 'python', 'powershell', 'cmd'] as const),
    body: Type.String(),
    args: Type.Array(Type.String()),
    timeoutSeconds: Type.Integer({ minimum: 1 }),
  }),
  'checks.sync': Type.Object({ type: Type.Literal('checks.sync'), id: Type.Optional(Type.String()), checks: Type.Array(SyncedCheckSchema) }),
  error: Type.Object({ type: Type.Literal('error'), message: Type.String() }),
  'update.available': Type.Object({
    type: Type.Literal('update.available'),
    version: Type.String({ minLength: 1 }),
    target: OneOf(AGENT_TARGETS),
    url: Type.String({ pattern: '^/agent/v1/download/' }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    size: Type.Integer({ minimum: 1 }),
    signature: Type.String({ minLength: 1 }),
  }),
  'agent.uninstall': Type.Object({ type: Type.Literal('agent.uninstall'), id: Type.Optional(Type.String()) }),
} as const;

// ---- validation ------------------------------------------------------------------------------------------------

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });

const compile = <T extends TSchema>(schema: T): ValidateFunction<Static<T>> => ajv.compile<Static<T>>(schema);

const agentValidators = Object.fromEntries(Object.entries(AGENT_MESSAGES).map(([type, schema]) => [type, compile(schema)])) as {
  [K in AgentMessageType]: ValidateFunction<Static<(typeof AGENT_MESSAGES)[K]>>;
};
const answerValidators = Object.fromEntries(
  Object.entries(COMMAND_ANSWERS).map(([command, schema]) => [command, { result: compile(schema.anyOf[0]), refusal: compile(schema.anyOf[1]) }]),
) as Record<keyof typeof COMMAND_ANSWERS, { result: ValidateFunction; refusal: ValidateFunction }>;
const serverValidators = Object.fromEntries(Object.entries(SERVER_MESSAGES).map(([type, schema]) => [type, compile(schema)])) as Record<
  keyof typeof SERVER_MESSAGES,
  ValidateFunction
>;
const factValidators = Object.fromEntries(Object.entries(FactsSchema.properties).map(([field, schema]) => [field, compile(schema as TSchema)])) as Record<
  keyof Facts,
  ValidateFunction
>;

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

export type HeartbeatMessage = Static<typeof HeartbeatSchema> & { facts?: Record<string, unknown> };
/** An answer's envelope, and whatever else it carries (checked by the request it answers). */
export type ResultMessage = Static<typeof ResultSchema> & Record<string, unknown>;

export type ParsedAgentMessage =
  | { ok: true; type: 'heartbeat'; message: HeartbeatMessage }
  | { ok: true; type: 'script.output'; message: ScriptOutputMessage }
  | { ok: true; type: 'result'; message: ResultMessage }
  | { ok: true; type: 'check.result'; message: CheckResultMessage }
  | { ok: true; type: 'update.failed'; message: UpdateFailedMessage }
  | { ok: false; error: string };

const KNOWN_TYPES = Object.keys(AGENT_MESSAGES).join(', ');

/** One frame from an agent: JSON, an object with a known `type`, valid against that type's schema; else why not. */
export function parseAgentMessage(text: string | null): ParsedAgentMessage {
  if (text === null) return { ok: false, error: 'binary frames are not part of the protocol: send JSON text' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON: every message is one JSON object' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'every message is one JSON object {type, …}' };
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(agentValidators, type)) {
    return { ok: false, error: `unknown message type: send one of ${KNOWN_TYPES} (docs/agent-protocol.md)` };
  }
  const validate = agentValidators[type as AgentMessageType];
  if (!validate(value)) return { ok: false, error: `invalid ${type}: ${describeErrors(validate.errors)}` };
  return { ok: true, type, message: value } as ParsedAgentMessage;
}

/** An agent's answer to `command`: its result, its refusal, or why the answer is not one. */
export function parseAnswer<K extends keyof typeof COMMAND_ANSWERS>(
  command: K,
  answer: unknown,
): { ok: true; result: Extract<Static<(typeof COMMAND_ANSWERS)[K]>, { ok: true }>['result'] } | { ok: false; refused: string } | { ok: false; invalid: string } {
  const ok = (answer as { ok?: unknown } | null)?.ok;
  if (ok !== true && ok !== false) return { ok: false, invalid: ok === undefined ? '/ok is required' : '/ok must be true or false' };
  // The branch the agent meant (by `ok`), so that the complaint names its field rather than the other branch's.
  const validate = answerValidators[command][ok ? 'result' : 'refusal'];
  if (!validate(answer)) return { ok: false, invalid: describeErrors(validate.errors) };
  const a = answer as { result?: unknown; error?: string };
  return ok ? { ok: true, result: a.result as never } : { ok: false, refused: a.error! };
}

/** The valid fields of a heartbeat's facts, each checked on its own (unknown and invalid fields are left out). */
export function validFacts(raw: Record<string, unknown>): Partial<Facts> {
  const out: Record<string, unknown> = {};
  for (const [field, validate] of Object.entries(factValidators)) {
    if (Object.prototype.hasOwnProperty.call(raw, field) && validate(raw[field])) out[field] = raw[field];
  }
  return out as Partial<Facts>;
}

/** True when `message` is a valid server → agent message of its type (docs' tests). */
export function isServerMessage(message: unknown): boolean {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(serverValidators, type) && serverValidators[type as keyof typeof SERVER_MESSAGES](message);
}
