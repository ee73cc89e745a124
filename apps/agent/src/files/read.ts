// file.read: a download. The SHA-256 of the whole file comes first (session.opened), so that the server can check a
// download resumed from an offset against the same file; then the bytes asked for, one chunk at a time, each read
// only once the one before is taken (io.write resolves), so the agent holds at most one chunk of a file of any size.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { SessionHandler, SessionOpener } from '../sessions/kind';
import { FileError, fileError } from './files-errors';
import { absolutePath, byteCount } from './files-params';

/** The largest chunk handed to io.write (one frame of the protocol). */
const READ_CHUNK = 32 * 1024;

export const openFileRead: SessionOpener = async (params, io) => {
  const path = absolutePath(params.path);
  const offset = byteCount(params.offset ?? 0, 'offset');
  const length = byteCount(params.length, 'length', true);
  let fd: FileHandle;
  try {
    // Checked before open: opening a FIFO would wait for a writer. O_NONBLOCK too, for one swapped in meanwhile.
    ensureRegular(await stat(path));
    fd = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw fileError(err);
  }
  let stopped = false;
  let writing: Promise<void> | undefined;
  const run = async (): Promise<void> => {
    const st = await fd.stat();
    ensureRegular(st);
    const buffer = Buffer.alloc(READ_CHUNK);
    const hash = createHash('sha256');
    for (let pos = 0; !stopped; ) {
      const { bytesRead } = await fd.read(buffer, 0, READ_CHUNK, pos);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      pos += bytesRead;
    }
    if (stopped) return;
    io.opened({ size: st.size, sha256: hash.digest('hex'), mtime: st.mtime.toISOString() });
    const end = length === undefined ? st.size : Math.min(st.size, offset + length);
    for (let pos = offset; pos < end && !stopped; ) {
      // A new buffer each time: io.write may hold on to the bytes until they are sent.
      const chunk = Buffer.alloc(Math.min(READ_CHUNK, end - pos));
      const { bytesRead } = await fd.read(chunk, 0, chunk.length, pos);
      if (bytesRead === 0) break; // the file shrank meanwhile: the server sees fewer bytes than asked and the checksum tells
      pos += bytesRead;
      writing = io.write(chunk.subarray(0, bytesRead));
      await writing;
      writing = undefined;
    }
    if (!stopped) io.end('end');
  };
  const done = run()
    .catch((err) => {
      if (!stopped) io.end(fileError(err).message, { error: true });
    })
    .finally(() => fd.close().catch(() => undefined));
  const handler: SessionHandler = {
    async close() {
      stopped = true;
      // A write in flight settles when the session ends (io.write rejects then), and the fd is closed after it;
      // waiting for it here could wait on the caller itself.
      if (!writing) await done;
    },
  };
  return handler;
};

function ensureRegular(st: { isFile(): boolean; isDirectory(): boolean }): void {
  if (st.isDirectory()) throw new FileError('is a directory');
  if (!st.isFile()) throw new FileError('not a regular file');
}
