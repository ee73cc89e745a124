// One page of a directory's listing (the server's file browser): names in byte order, 1,000 a page, the last name
// of a page the cursor of the next (a name the listing goes past, so a file created or removed between pages moves
// nothing: the next page starts after that name, whatever happened before it).
import { lstat, readdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { FileError, fileError } from './files-errors';

/** Entries per page. */
const LIST_PAGE = 1_000;

type EntryType = 'file' | 'dir' | 'link' | 'other';

export interface DirectoryEntry {
  name: string;
  type: EntryType;
  size: number;
  /** Permission bits in octal, as `ls -l` would count them: '0644', '4755'. */
  mode: string;
  mtime: string;
}

export interface DirectoryPage {
  path: string;
  entries: DirectoryEntry[];
  next_cursor: string | null;
}

/** Byte order of the names' UTF-8, not JavaScript's UTF-16 order (they differ past U+FFFF). */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export async function listDirectory(path: string, cursor?: string | null): Promise<DirectoryPage> {
  if (typeof path !== 'string' || !isAbsolute(path)) throw new FileError('path must be absolute');
  if (cursor != null && typeof cursor !== 'string') throw new FileError('cursor must be a string');
  const dir = resolve(path);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    throw fileError(err);
  }
  names.sort(byBytes);
  const after = cursor == null ? names : names.filter((n) => byBytes(n, cursor) > 0);
  const page = after.slice(0, LIST_PAGE);
  const entries: DirectoryEntry[] = [];
  for (const name of page) {
    const entry = await describe(dir, name);
    if (entry) entries.push(entry);
  }
  return { path: dir, entries, next_cursor: after.length > LIST_PAGE ? page[page.length - 1] : null };
}

/** The entry as lstat sees it (a symlink is a link, broken or not); null when it vanished since readdir. */
async function describe(dir: string, name: string): Promise<DirectoryEntry | null> {
  try {
    const st = await lstat(join(dir, name));
    const type: EntryType = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    return { name, type, size: st.size, mode: (st.mode & 0o7777).toString(8).padStart(4, '0'), mtime: st.mtime.toISOString() };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fileError(err);
  }
}
