// file.write: an upload, in three commands and a session. Bytes go to a temporary file beside the target
// (`.<name>.rmm-upload-<upload>`: same directory, so same file system, so the final rename is atomic and never a
// copy), which survives a dropped connection: uploadBegin answers how much of it is there and the next session
// resumes from that offset. uploadFinish checks size and SHA-256, then puts the file in place in one step.
import { createHash } from 'node:crypto';
import { constants, createReadStream, type Stats } from 'node:fs';
import { chmod, chown, link, lstat, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SessionHandler, SessionOpener } from '../sessions/kind';
import { FileError, fileError } from './files-errors';
import { absolutePath, byteCount, uploadId } from './files-params';

/** The largest upload. */
const UPLOAD_MAX = 4 * 1024 ** 3;
/** A new file's mode once in place (the temporary file is 0600 until then). */
const NEW_FILE_MODE = 0o644;
// Never follow a symlink put where the temporary file goes (a shared directory such as /tmp; the agent may be root).
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The temporary file of an upload (also the check of path and upload id). */
function uploadTempPath(upload: unknown, path: unknown): { target: string; temp: string } {
  const target = absolutePath(path);
  return { target, temp: join(dirname(target), `.${basename(target)}.rmm-upload-${uploadId(upload)}`) };
}

export async function uploadBegin(body: { upload: unknown; path: unknown; size: unknown; overwrite?: unknown }): Promise<{ received: number }> {
  const { target, temp } = uploadTempPath(body.upload, body.path);
  const size = byteCount(body.size, 'size');
  if (size > UPLOAD_MAX) throw new FileError(`size over ${UPLOAD_MAX} bytes (4 GiB)`);
  try {
    if (!(await stat(dirname(target))).isDirectory()) throw new FileError('not a directory');
    const existing = await lstatOrNull(target);
    if (existing?.isDirectory()) throw new FileError('is a directory');
    if (existing && body.overwrite !== true) throw new FileError('file exists');
    // Created if absent, kept if present (a resumed upload).
    const fd = await open(temp, constants.O_WRONLY | constants.O_CREAT | NOFOLLOW, 0o600);
    try {
      const received = (await fd.stat()).size;
      // More than the upload's size cannot be a part of it: start again.
      if (received > size) {
        await fd.truncate(0);
        return { received: 0 };
      }
      return { received };
    } finally {
      await fd.close();
    }
  } catch (err) {
    throw fileError(err);
  }
}

export const openFileWrite: SessionOpener = async (params) => {
  const { temp } = uploadTempPath(params.upload, params.path);
  const offset = byteCount(params.offset, 'offset');
  let fd: FileHandle;
  try {
    fd = await open(temp, constants.O_WRONLY | NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new FileError('no such upload: begin it first');
    throw fileError(err);
  }
  try {
    const have = (await fd.stat()).size;
    if (offset > have) throw new FileError(`offset ${offset} past the ${have} bytes received`);
    // A chunk cut half way by a dropped connection is written again from its start.
    await fd.truncate(offset);
  } catch (err) {
    await fd.close();
    throw fileError(err);
  }
  let position = offset;
  let closed: Promise<{ received: number }> | undefined;
  // Each write after the one before, whatever the caller awaits.
  let last: Promise<void> = Promise.resolve();
  const handler: SessionHandler = {
    data(bytes) {
      if (closed) return Promise.reject(new FileError('upload closed'));
      last = last.then(async () => {
        for (let done = 0; done < bytes.length; ) {
          const { bytesWritten } = await fd.write(bytes, done, bytes.length - done, position);
          done += bytesWritten;
          position += bytesWritten;
        }
      });
      return last.catch((err) => {
        throw fileError(err);
      });
    },
    close() {
      closed ??= (async () => {
        await last.catch(() => undefined);
        try {
          // (no fsync per chunk: it held uploads to ~11 MB/s; the file is synced once, before it is put in place,
          // and a resumed upload goes on from what is on disk, its SHA-256 checked at the end)
          return { received: (await fd.stat()).size };
        } finally {
          await fd.close();
        }
      })();
      return closed;
    },
  };
  return handler;
};

export async function uploadFinish(body: { upload: unknown; path: unknown; size: unknown; sha256: unknown; overwrite?: unknown }): Promise<{ size: number; sha256: string }> {
  const { target, temp } = uploadTempPath(body.upload, body.path);
  const size = byteCount(body.size, 'size');
  if (typeof body.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(body.sha256)) throw new FileError('sha256 must be 64 hexadecimal digits');
  const expected = body.sha256.toLowerCase();
  try {
    const st = await lstat(temp).catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new FileError('no such upload: begin it first') : err;
    });
    if (!st.isFile()) throw new FileError('not a regular file');
    if (st.size !== size) throw new FileError(`incomplete: ${st.size} of ${size} bytes`);
    const got = await sha256Of(temp);
    if (got !== expected) {
      await removeTemp(temp);
      throw new FileError(`checksum mismatch: expected ${expected}, got ${got}`);
    }
    const existing = await lstatOrNull(target);
    if (existing && body.overwrite !== true) {
      await removeTemp(temp);
      throw new FileError('file exists');
    }
    // The file as the one it replaces was (mode, and owner when the agent may give it), else as a new file is.
    if (existing && existing.isFile()) {
      await chmod(temp, existing.mode & 0o7777);
      await chown(temp, existing.uid, existing.gid).catch(() => undefined);
    } else {
      await chmod(temp, NEW_FILE_MODE);
    }
    await syncFile(temp);
    if (body.overwrite === true) await rename(temp, target);
    else await placeNew(temp, target);
    return { size, sha256: got };
  } catch (err) {
    throw fileError(err);
  }
}

export async function uploadAbort(body: { upload: unknown; path: unknown }): Promise<void> {
  const { temp } = uploadTempPath(body.upload, body.path);
  await removeTemp(temp);
}

/**
 * Puts the file in place only if the target is still absent: link() fails with EEXIST when a file appeared there
 * since the check (rename would replace it), then the temporary name is removed. On a file system without hard
 * links (some FUSE, FAT), a check then rename, which a file created in between could lose to.
 */
async function placeNew(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      await removeTemp(temp);
      throw new FileError('file exists');
    }
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    if (await lstatOrNull(target)) {
      await removeTemp(temp);
      throw new FileError('file exists');
    }
    await rename(temp, target);
    return;
  }
  await removeTemp(temp);
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function removeTemp(temp: string): Promise<void> {
  try {
    await unlink(temp);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(err);
  }
}

/** Writes the file's data to disk before it is renamed into place (a crash then leaves the old file or the whole new one). */
async function syncFile(path: string): Promise<void> {
  const fd = await open(path, 'r+');
  try {
    await fd.sync();
  } finally {
    await fd.close();
  }
}
