import { DomainError } from '../../../common/errors/domain-error';

/** What a file operation can be refused with (rmm-error.surface.ts gives each its status; docs/files.md, "Errors"). */
export enum FilesErrorCode {
  /** The agent is not connected: nothing can be listed, read or written. */
  AgentOffline = 'files_agent_offline',
  /** The agent's `no such file or directory`. */
  NoSuchFile = 'files_no_such_file',
  /** The agent's `permission denied` (the agent's user may not). */
  PermissionDenied = 'files_permission_denied',
  /** The agent's `not a directory`, `is a directory`, `not a regular file`, `path must be absolute`. */
  WrongKind = 'files_wrong_kind',
  /** The agent's `file exists` (an upload without overwrite). */
  FileExists = 'files_file_exists',
  /** The agent's `checksum mismatch: expected <a>, got <b>`: the upload failed, its temporary file removed. */
  ChecksumMismatch = 'files_checksum_mismatch',
  /** The upload is not where the request thinks: an offset other than `received`, `incomplete: X of Y bytes`, an upload no longer open. */
  UploadConflict = 'files_upload_conflict',
  /** Another PUT of the same upload is under way. */
  UploadBusy = 'files_upload_busy',
  /** A chunk over chunk_size bytes. */
  ChunkTooLarge = 'files_chunk_too_large',
  /** A Range past the file's end. */
  RangeNotSatisfiable = 'files_range_not_satisfiable',
  /** The agent failed with words the server does not know (502, its words as the detail). */
  AgentFailed = 'files_agent_failed',
}

/** A 409 on an upload that also says how many bytes the agent has: the offset the next PUT must give. */
export class UploadOffsetError extends DomainError<FilesErrorCode> {
  constructor(
    message: string,
    readonly received: number,
  ) {
    super(FilesErrorCode.UploadConflict, message);
  }
}

export const agentOffline = (): DomainError<FilesErrorCode> => new DomainError(FilesErrorCode.AgentOffline, 'agent is offline');
