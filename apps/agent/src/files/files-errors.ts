// The words the protocol uses for what went wrong with a file (docs/agent-protocol.md, "Sessions"): the server shows
// them to the operator as they are, so they never carry Node's errno prefix nor a stack.

const WORDS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  EEXIST: 'file exists',
};

/** A file operation that failed, with the message the server is told. */
export class FileError extends Error {
  constructor(
    message: string,
    /** Node's errno code when the error came from the file system. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'FileError';
  }
}

/** The error in the protocol's words (a FileError passes through). */
export function fileError(err: unknown): FileError {
  if (err instanceof FileError) return err;
  const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : undefined;
  if (code && WORDS[code]) return new FileError(WORDS[code], code);
  return new FileError(err instanceof Error ? err.message : String(err), code);
}
