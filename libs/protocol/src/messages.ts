import { Static, TSchema, Type } from '@sinclair/typebox';
import { SESSION_ID_PATTERN, SESSION_KINDS, SESSION_REASON_MAX } from './sessions';
import { AGENT_HOSTNAME_MAX, AGENT_HOSTNAME_PATTERN, AGENT_TARGETS, CHECK_STATUSES, MonitoringType, PG_INT_MAX, PLATFORMS, REFUSAL_MAX } from './constants';

/**
 * The agent protocol's messages (docs/agent-protocol.md), both directions, written once as JSON Schemas (TypeBox):
 * the server checks every message an agent sends against AGENT_MESSAGES (and each answer against COMMAND_ANSWERS),
 * the agent every message the server sends against SERVER_MESSAGES, and the types both ends use are these schemas'
 * (Static<>). Fields a schema does not name are allowed and ignored, so either end may be newer than the other.
 *
 * A new capability is one schema here (in AGENT_MESSAGES or SERVER_MESSAGES), one handler (the server's gateway, or
 * the agent's apps/agent/src/handlers/) and one section of docs/agent-protocol.md, whose tables a test checks
 * against these lists.
 */

const PRINTABLE = '^[^\\u0000-\\u001f\\u007f]*$';
/** A timer's bound (a day): what the agent waits for is never longer, and setTimeout takes it whole. */
const SECONDS_MAX = 86_400;
const Id = Type.Integer({ minimum: 1, maximum: PG_INT_MAX });
/** A request id: what the agent echoes in its `result` (the server takes at most 128 characters back). */
const RequestId = Type.String({ minLength: 1, maxLength: 128 });
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
export type Disk = Facts['disks'][number];

export const HeartbeatSchema = Type.Object({
  type: Type.Literal('heartbeat'),
  /** Checked field by field, each on its own (FactsSchema): a bad field is dropped, the heartbeat kept. */
  facts: Type.Optional(Type.Object({})),
});

export const ScriptOutputSchema = Type.Object({
  type: Type.Literal('script.output'),
  runId: Id,
  stream: OneOf(['stdout', 'stderr'] as const),
  chunk: Type.String(),
  seq: Type.Integer({ minimum: 0, maximum: PG_INT_MAX }),
});

/**
 * The envelope of an answer: which request it answers. What it answers (`ok`, `result` or `error`) is checked
 * against the command's answer schema (COMMAND_ANSWERS) by the request's owner: a malformed answer to a real
 * request ends that request ("agent sent an invalid answer"), not only the message.
 */
export const ResultSchema = Type.Object({
  type: Type.Literal('result'),
  id: RequestId,
});

export const CheckResultSchema = Type.Object({
  type: Type.Literal('check.result'),
  checkId: Id,
  status: OneOf(CHECK_STATUSES),
  moreInfo: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** The agent refused the version update.available offered, or rolled it back (docs/agent-binaries.md). */
export const UpdateFailedSchema = Type.Object({
  type: Type.Literal('update.failed'),
  version: Printable(64, 1),
  error: Printable(REFUSAL_MAX, 1),
});

/** The agent refused a message of the server that is not one of the protocol (it says why); never answered. */
export const AgentErrorSchema = Type.Object({
  type: Type.Literal('error'),
  message: Printable(REFUSAL_MAX, 1),
});

// Sessions (docs/agent-protocol.md, "Sessions"; the binary frames and windows: sessions.ts). Both ends send
// session.ack and session.close; the server opens, the agent answers session.opened.
const SessionId = Type.String({ pattern: SESSION_ID_PATTERN });
const Seq = Type.Integer({ minimum: 0, maximum: 4_294_967_295 });

/** The agent opened the session: what it knows of it (file.read: {size, sha256, mtime}; terminal: {pty, shell}). */
export const SessionOpenedSchema = Type.Object({
  type: Type.Literal('session.opened'),
  session: SessionId,
  info: Type.Unsafe<Record<string, unknown>>(Type.Object({})),
});

/** The receiver consumed every data frame up to `seq` of this session (cumulative): the sender's window frees. */
export const SessionAckSchema = Type.Object({
  type: Type.Literal('session.ack'),
  session: SessionId,
  seq: Seq,
});

/**
 * The session ends (either end; the other end answers nothing). `reason`: `exit` (a terminal's shell ended, with
 * `code`), `end` (every byte sent), `closed`, or why it failed (`no such file or directory`); `error`: true when
 * it failed; `received`: file.write's bytes written.
 */
export const SessionCloseSchema = Type.Object({
  type: Type.Literal('session.close'),
  session: SessionId,
  reason: Type.String({ minLength: 1, maxLength: SESSION_REASON_MAX }),
  code: Type.Optional(Type.Union([Type.Integer({ minimum: -2_147_483_648, maximum: 4_294_967_295 }), Type.Null()])),
  error: Type.Optional(Type.Boolean()),
  received: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** Every message an agent may send, by `type`. */
export const AGENT_MESSAGES = {
  heartbeat: HeartbeatSchema,
  'script.output': ScriptOutputSchema,
  result: ResultSchema,
  'check.result': CheckResultSchema,
  'update.failed': UpdateFailedSchema,
  error: AgentErrorSchema,
  'session.opened': SessionOpenedSchema,
  'session.ack': SessionAckSchema,
  'session.close': SessionCloseSchema,
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
export type ScriptResult = Static<typeof ScriptRunAnswerSchema>;

/** `ok: true` with the command's result, or `ok: false` with a reason (a refusal: the agent would not or could not). */
const answerOf = <T extends TSchema>(result: T) =>
  Type.Union([
    Type.Object({ ok: Type.Literal(true), result }),
    Type.Object({ ok: Type.Literal(false), error: Type.String({ minLength: 1 }) }),
  ]);

/** One entry of a directory (files.list). */
export const FileEntrySchema = Type.Object({
  name: Type.String(),
  type: OneOf(['file', 'dir', 'link', 'other'] as const),
  size: Type.Number({ minimum: 0 }),
  /** The permission bits, octal (`0644`). */
  mode: Type.String(),
  /** ISO 8601. */
  mtime: Type.String(),
});
export type FileEntry = Static<typeof FileEntrySchema>;

export const FilesListAnswerSchema = Type.Object({
  path: Type.String(),
  entries: Type.Array(FileEntrySchema, { maxItems: 1000 }),
  /** The next page's cursor; null on the last page. */
  next_cursor: Type.Union([Type.String({ maxLength: 1024 }), Type.Null()]),
});

/** files.upload.begin: bytes already in the temporary file (a resumed upload goes on from there). */
export const FilesUploadBeginAnswerSchema = Type.Object({ received: Type.Number({ minimum: 0 }) });
/** files.upload.finish: the file is in place, with this size and SHA-256. */
export const FilesUploadFinishAnswerSchema = Type.Object({ size: Type.Number({ minimum: 0 }), sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
export const FilesUploadAbortAnswerSchema = Type.Object({});

/**
 * The answer each command expects (a command: a server message with an `id`, answered with `result`). The files
 * commands refuse with the agent's own words for the system's error: `no such file or directory`, `permission
 * denied`, `not a directory`, `is a directory`, `file exists`, `checksum mismatch: …` (the server maps them to
 * 404, 403, 400, 400, 409, 422).
 */
export const COMMAND_ANSWERS = {
  'script.run': answerOf(ScriptRunAnswerSchema),
  'files.list': answerOf(FilesListAnswerSchema),
  'files.upload.begin': answerOf(FilesUploadBeginAnswerSchema),
  'files.upload.finish': answerOf(FilesUploadFinishAnswerSchema),
  'files.upload.abort': answerOf(FilesUploadAbortAnswerSchema),
} as const;
export type Command = keyof typeof COMMAND_ANSWERS;
export type CommandAnswer<K extends Command> = Static<(typeof COMMAND_ANSWERS)[K]>;
/** What a command's answer carries when the agent did it (`ok: true`). */
export type CommandResult<K extends Command> = Extract<CommandAnswer<K>, { ok: true }>['result'];

// ---- server → agent ------------------------------------------------------------------------------------------
//
// Values from sets that grow (a shell, a check type, an update's target and the rest of an offer) are checked by
// the capability that uses them, which has its own documented answer: a script.run with a shell the agent does
// not know is refused (`ok: false`), a check of a type it does not know is `pending`, an offer it cannot take is
// `update.failed`. Refusing the whole message instead would leave the server without those answers.

/** One check of the agent's list (checks.sync). */
export const CheckDefinitionSchema = Type.Object({
  id: Id,
  checkType: Type.String(),
  name: Type.String(),
  /** Seconds between two runs. */
  runInterval: Type.Integer({ minimum: 5, maximum: SECONDS_MAX }),
  /** Per type: diskspace {drive, threshold_percent}, ping {target}, cpuload/memory {threshold_percent}, winsvc {service_name}, eventlog {log_name, event_id?, event_type?, search_text?}. */
  settings: Type.Unsafe<Record<string, unknown>>(Type.Object({})),
  /** Script checks: the script to run. */
  script: Type.Optional(
    Type.Object({ shell: Type.String(), body: Type.String(), args: Type.Array(Type.String()), timeoutSeconds: Type.Integer({ minimum: 1, maximum: SECONDS_MAX }) }),
  ),
});
export type CheckDefinition = Static<typeof CheckDefinitionSchema>;

export const HelloSchema = Type.Object({
  type: Type.Literal('hello'),
  agent_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
  heartbeat_seconds: Type.Integer({ minimum: 1, maximum: SECONDS_MAX }),
  server_time: Type.String(),
});

export const ScriptRunSchema = Type.Object({
  type: Type.Literal('script.run'),
  id: RequestId,
  runId: Id,
  /** `bash`, `python`, `powershell` or `cmd` today (SHELLS); one the agent does not know is refused (`ok: false`). */
  shell: Type.String(),
  body: Type.String(),
  args: Type.Array(Type.String()),
  timeoutSeconds: Type.Integer({ minimum: 1, maximum: SECONDS_MAX }),
});

export const ChecksSyncSchema = Type.Object({
  type: Type.Literal('checks.sync'),
  id: Type.Optional(Type.String()),
  checks: Type.Array(CheckDefinitionSchema),
});

/** The server refused a message of the agent (it says why: `invalid check.result: /checkId must be integer`). */
export const ServerErrorSchema = Type.Object({
  type: Type.Literal('error'),
  message: Type.String(),
});

/**
 * A new version of the agent for its target (docs/agent-protocol.md, "Self-update"). `signature`: Ed25519, by the
 * server's update key, of `rmm-agent-update:v1:<target>:<version>:<sha256>`. The agent checks the offer itself
 * (its forms, the signature, the URL's origin) and answers one it cannot take with update.failed.
 */
export const UpdateAvailableSchema = Type.Object({
  type: Type.Literal('update.available'),
  version: Type.String(),
  /** One of AGENT_TARGETS. */
  target: Type.String(),
  /** `/agent/v1/download/<target>`, taken under the agent's server; another origin is refused. */
  url: Type.String(),
  /** Hex SHA-256 of the binary (not of a gzip transfer of it). */
  sha256: Type.String(),
  size: Type.Integer(),
  signature: Type.String(),
});

/** The operator deleted this agent with ?uninstall=true: it removes its service and its files, and exits 0. */
export const AgentUninstallSchema = Type.Object({
  type: Type.Literal('agent.uninstall'),
  id: Type.Optional(Type.String()),
});

/** List a directory: at most 1,000 entries a page, sorted by name; `cursor`: the previous page's next_cursor. */
export const FilesListSchema = Type.Object({
  type: Type.Literal('files.list'),
  id: RequestId,
  path: Type.String({ minLength: 1, maxLength: 4096 }),
  cursor: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
});

/**
 * Start (or resume) an upload: the agent checks the target (its directory exists; not a directory; absent unless
 * `overwrite`) and keeps the bytes in a temporary file beside it (`.<name>.rmm-upload-<upload>`).
 */
export const FilesUploadBeginSchema = Type.Object({
  type: Type.Literal('files.upload.begin'),
  id: RequestId,
  upload: SessionId,
  path: Type.String({ minLength: 1, maxLength: 4096 }),
  size: Type.Number({ minimum: 0 }),
  overwrite: Type.Boolean(),
});

/** Every byte is in: the agent checks the temporary file's SHA-256 and renames it into place (a mismatch: removed). */
export const FilesUploadFinishSchema = Type.Object({
  type: Type.Literal('files.upload.finish'),
  id: RequestId,
  upload: SessionId,
  path: Type.String({ minLength: 1, maxLength: 4096 }),
  size: Type.Number({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  overwrite: Type.Boolean(),
});

/** The upload is given up (expired or cancelled): the temporary file is removed. */
export const FilesUploadAbortSchema = Type.Object({
  type: Type.Literal('files.upload.abort'),
  id: RequestId,
  upload: SessionId,
  path: Type.String({ minLength: 1, maxLength: 4096 }),
});

/**
 * Open a session of `kind` (sessions.ts): terminal {cols, rows, shell?}; file.read {path, offset, length?};
 * file.write {upload, path, offset}. The agent answers session.opened, or session.close with `error: true`.
 */
export const SessionOpenSchema = Type.Object({
  type: Type.Literal('session.open'),
  session: SessionId,
  kind: OneOf(SESSION_KINDS),
  params: Type.Unsafe<Record<string, unknown>>(Type.Object({})),
});

/** A control message for the session's kind: terminal {type: "resize", cols, rows}. */
export const SessionControlSchema = Type.Object({
  type: Type.Literal('session.control'),
  session: SessionId,
  control: Type.Unsafe<Record<string, unknown>>(Type.Object({ type: Type.String() })),
});

/** Every message the server may send an agent, by `type`. */
export const SERVER_MESSAGES = {
  hello: HelloSchema,
  'script.run': ScriptRunSchema,
  'checks.sync': ChecksSyncSchema,
  error: ServerErrorSchema,
  'update.available': UpdateAvailableSchema,
  'agent.uninstall': AgentUninstallSchema,
  'files.list': FilesListSchema,
  'files.upload.begin': FilesUploadBeginSchema,
  'files.upload.finish': FilesUploadFinishSchema,
  'files.upload.abort': FilesUploadAbortSchema,
  'session.open': SessionOpenSchema,
  'session.ack': SessionAckSchema,
  'session.control': SessionControlSchema,
  'session.close': SessionCloseSchema,
} as const;
export type ServerMessageType = keyof typeof SERVER_MESSAGES;

// ---- registration (HTTP: POST /agent/v1/register) --------------------------------------------------------------

/** The answer to a registration (200). */
export const RegisteredSchema = Type.Object({
  agent_id: Type.String({ pattern: '^[0-9]{1,10}$' }),
  agent_secret: Type.String({ minLength: 1 }),
  /** The name the agent is registered under: the one the enrollment function was asked for, else the one sent (older servers: absent). */
  hostname: Type.Optional(Type.String()),
  client: Id,
  site: Id,
  reenrolled: Type.Boolean(),
});
export type Registered = Static<typeof RegisteredSchema>;

// ---- the types both ends use -------------------------------------------------------------------------------

export type ServerMessageOf<K extends ServerMessageType> = Static<(typeof SERVER_MESSAGES)[K]>;
export type ServerMessage = { [K in ServerMessageType]: ServerMessageOf<K> }[ServerMessageType];
export type AgentMessageOf<K extends AgentMessageType> = Static<(typeof AGENT_MESSAGES)[K]>;

/** What a device knows of itself: the facts with hostname, plat and version, the others when it has them. */
export type DeviceFacts = Pick<Facts, 'hostname' | 'plat' | 'version'> & Partial<Omit<Facts, 'hostname' | 'plat' | 'version' | 'update_target'>>;
/** POST /agent/v1/register's facts (docs/agent-protocol.md §1). */
export type RegistrationFacts = DeviceFacts & { monitoring_type?: MonitoringType };
/**
 * The facts a heartbeat carries: the registration's, minus monitoring_type (the operator's once enrolled), plus
 * update_target for an agent that can update itself. Its hostname is the device's own name: the server keeps it
 * as os_hostname and does not rename the agent.
 */
export type HeartbeatFacts = DeviceFacts & Partial<Pick<Facts, 'update_target'>>;

/** An answer to a command, as the agent sends it. */
export type ResultMessage<K extends Command = Command> = AgentMessageOf<'result'> & CommandAnswer<K>;

/** Every message an agent sends, as it sends it (a heartbeat's facts and a result's answer spelled out). */
export type AgentMessage =
  | (AgentMessageOf<'heartbeat'> & { facts?: Partial<HeartbeatFacts> })
  | ResultMessage
  | AgentMessageOf<Exclude<AgentMessageType, 'heartbeat' | 'result'>>;

export type HelloMessage = ServerMessageOf<'hello'>;
export type ScriptRunMessage = ServerMessageOf<'script.run'>;
export type ChecksSyncMessage = ServerMessageOf<'checks.sync'>;
export type ServerErrorMessage = ServerMessageOf<'error'>;
export type UpdateAvailableMessage = ServerMessageOf<'update.available'>;
export type AgentUninstallMessage = ServerMessageOf<'agent.uninstall'>;

export type ScriptOutputMessage = AgentMessageOf<'script.output'>;
export type CheckResultMessage = AgentMessageOf<'check.result'>;
export type UpdateFailedMessage = AgentMessageOf<'update.failed'>;
export type AgentErrorMessage = AgentMessageOf<'error'>;
export type SessionOpenMessage = ServerMessageOf<'session.open'>;
export type SessionControlMessage = ServerMessageOf<'session.control'>;
export type SessionAckMessage = AgentMessageOf<'session.ack'>;
export type SessionCloseMessage = AgentMessageOf<'session.close'>;
export type SessionOpenedMessage = AgentMessageOf<'session.opened'>;
