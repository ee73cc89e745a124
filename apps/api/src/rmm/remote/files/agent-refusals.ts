import { DomainError } from '../../../common/errors/domain-error';
import { AgentsErrorCode } from '../../fleet/agent-channel/agent-channel.errors';
import { SessionEndedError } from '../../fleet/agent-channel/agent-sessions';
import { agentOffline, FilesErrorCode } from './files.errors';

/**
 * The agent's own words for what went wrong with a file (apps/agent/src/files/files-errors.ts; docs/files.md,
 * "Errors"), each to the code whose status the caller gets. The words are the detail, as the agent said them.
 */
const EXACT: Record<string, FilesErrorCode> = {
  'no such file or directory': FilesErrorCode.NoSuchFile,
  'permission denied': FilesErrorCode.PermissionDenied,
  'not a directory': FilesErrorCode.WrongKind,
  'is a directory': FilesErrorCode.WrongKind,
  'not a regular file': FilesErrorCode.WrongKind,
  'path must be absolute': FilesErrorCode.WrongKind,
  'file exists': FilesErrorCode.FileExists,
  // The temporary file is gone (removed by hand, or by an abort): the upload cannot go on.
  'no such upload: begin it first': FilesErrorCode.UploadConflict,
};

const PREFIXES: Array<[string, FilesErrorCode]> = [
  ['checksum mismatch:', FilesErrorCode.ChecksumMismatch],
  ['incomplete:', FilesErrorCode.UploadConflict],
  // `offset N past the M bytes received`: the temporary file is shorter than the server's count.
  ['offset ', FilesErrorCode.UploadConflict],
];

/** The code of the agent's words; AgentFailed (502) for words it does not know. */
export function codeOfRefusal(words: string): FilesErrorCode {
  const exact = EXACT[words];
  if (exact) return exact;
  for (const [prefix, code] of PREFIXES) if (words.startsWith(prefix)) return code;
  return FilesErrorCode.AgentFailed;
}

const REFUSED_PREFIX = 'agent refused: ';

/**
 * An error from talking to the agent, as the files feature answers it: a command's refusal (AgentChannel: `agent
 * refused: <words>`) or a session ended by the agent (SessionEndedError with its words) becomes the code of its
 * words; an agent that is not connected, or whose connection went before its answer, `agent is offline` (409).
 * Anything else is passed on as it is (a time-out is the channel's 504, an invalid answer its 502).
 */
export function filesError(err: unknown): unknown {
  if (err instanceof SessionEndedError) {
    if (err.end.reason === 'agent_offline') return agentOffline();
    if (err.end.error) return new DomainError(codeOfRefusal(err.end.reason), err.end.reason);
    return new DomainError(FilesErrorCode.AgentFailed, `the agent ended the transfer: ${err.end.reason}`);
  }
  if (err instanceof DomainError) {
    if (err.code === AgentsErrorCode.NotConnected || err.code === AgentsErrorCode.Disconnected) return agentOffline();
    if (err.code === AgentsErrorCode.Refused) {
      const words = err.message.startsWith(REFUSED_PREFIX) ? err.message.slice(REFUSED_PREFIX.length) : err.message;
      return new DomainError(codeOfRefusal(words), words);
    }
  }
  return err;
}
