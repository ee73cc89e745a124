import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileError } from '../../../apps/agent/src/files/files-errors';
import { listDirectory } from '../../../apps/agent/src/files/list';
import { openFileRead } from '../../../apps/agent/src/files/read';
import { openFileWrite, uploadAbort, uploadBegin, uploadFinish } from '../../../apps/agent/src/files/write';
import { RecordingIo } from './session-io.fake';

/** The agent's file commands and sessions on real files in a temporary directory (issue 32). */
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const rejects = async (p: Promise<unknown>, message: string | RegExp) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FileError);
  if (typeof message === 'string') expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
};

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rmm-files-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('listDirectory', () => {
  it('lists 2,500 files in three pages of names in byte order, each cursor the last name of its page', async () => {
    const names = Array.from({ length: 2_500 }, (_, i) => `f${String(i).padStart(4, '0')}`);
    for (const n of names) writeFileSync(join(root, n), n);
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const page = await listDirectory(`${root}/./`, cursor);
      expect(page.path).toBe(root);
      sizes.push(page.entries.length);
      seen.push(...page.entries.map((e) => e.name));
      cursor = page.next_cursor;
      if (cursor) expect(cursor).toBe(page.entries[page.entries.length - 1].name);
    } while (cursor);
    expect(sizes).toEqual([1_000, 1_000, 500]);
    expect(seen).toEqual(names);
  });

  it('describes files, directories, links (a broken one too) with size, octal mode and mtime', async () => {
    writeFileSync(join(root, 'b.txt'), 'hello', { mode: 0o640 });
    mkdirSync(join(root, 'a-dir'), { mode: 0o750 });
    symlinkSync(join(root, 'gone'), join(root, 'c-broken'));
    // Byte order: 'Z' (0x5a) before 'a', and U+1F600 (F0 9F …) after U+FF5E (EF BD …), which UTF-16 order reverses.
    writeFileSync(join(root, 'Z'), '');
    writeFileSync(join(root, '\u{1F600}'), '');
    writeFileSync(join(root, '\uFF5E'), '');
    const page = await listDirectory(root);
    expect(page.entries.map((e) => e.name)).toEqual(['Z', 'a-dir', 'b.txt', 'c-broken', '\uFF5E', '\u{1F600}']);
    const byName = Object.fromEntries(page.entries.map((e) => [e.name, e]));
    expect(byName['b.txt']).toEqual({ name: 'b.txt', type: 'file', size: 5, mode: '0640', mtime: statSync(join(root, 'b.txt')).mtime.toISOString() });
    expect(byName['a-dir']).toMatchObject({ type: 'dir', mode: '0750' });
    expect(byName['c-broken'].type).toBe('link');
    expect(page.next_cursor).toBeNull();
  });

  it('says what is wrong in the protocol words', async () => {
    writeFileSync(join(root, 'file'), 'x');
    await rejects(listDirectory('relative/dir'), 'path must be absolute');
    await rejects(listDirectory(join(root, 'missing')), 'no such file or directory');
    await rejects(listDirectory(join(root, 'file')), 'not a directory');
    await rejects(listDirectory(root, 7 as unknown as string), 'cursor must be a string');
  });
});

describe('file.read', () => {
  const content = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7) % 251));
  let file: string;
  beforeEach(() => {
    file = join(root, 'data.bin');
    writeFileSync(file, content);
  });

  it('sends the whole file in chunks of at most 32 KiB, after its size and the SHA-256 of all of it', async () => {
    const io = new RecordingIo();
    await openFileRead({ path: file }, io);
    await io.until('end', () => io.ended !== undefined);
    expect(io.ended).toEqual({ reason: 'end', extra: undefined });
    expect(io.openedInfo).toEqual({ size: 100_000, sha256: sha256(content), mtime: statSync(file).mtime.toISOString() });
    expect(io.writesBeforeOpened).toBe(0);
    expect(io.bytes().equals(content)).toBe(true);
    expect(Math.max(...io.chunks.map((c) => c.length))).toBe(32 * 1024);
  });

  it('sends only [offset, offset+length), with the SHA-256 of the whole file, one chunk at a time', async () => {
    const io = new RecordingIo();
    io.hold();
    await openFileRead({ path: file, offset: 1_000, length: 70_000 }, io);
    await io.until('a first chunk', () => io.chunks.length === 1);
    // Nothing more is read while the first chunk is not taken.
    await new Promise((r) => setTimeout(r, 100));
    expect(io.chunks).toHaveLength(1);
    for (let i = 0; i < 10 && !io.ended; i++) {
      io.release();
      io.hold();
      await io.until('a chunk or the end', () => io.chunks.length > i + 1 || io.ended !== undefined);
    }
    io.release();
    await io.until('end', () => io.ended !== undefined);
    expect(io.openedInfo?.sha256).toBe(sha256(content));
    expect(io.bytes().equals(content.subarray(1_000, 71_000))).toBe(true);

    const tail = new RecordingIo();
    await openFileRead({ path: file, offset: 99_990 }, tail);
    await tail.until('end', () => tail.ended !== undefined);
    expect(tail.bytes().equals(content.subarray(99_990))).toBe(true);
  });

  it('stops reading when closed', async () => {
    const io = new RecordingIo();
    io.hold();
    const handler = await openFileRead({ path: file }, io);
    await io.until('a first chunk', () => io.chunks.length === 1);
    const closing = handler.close('closed');
    io.end('closed'); // the manager ends the session: writes in flight are released, later ones reject
    io.release();
    await closing;
    await new Promise((r) => setTimeout(r, 100));
    expect(io.chunks).toHaveLength(1);
  });

  it('refuses a directory, a relative path, a missing file and a bad offset', async () => {
    const io = new RecordingIo();
    await rejects(Promise.resolve().then(() => openFileRead({ path: root }, io)), 'is a directory');
    await rejects(Promise.resolve().then(() => openFileRead({ path: 'data.bin' }, io)), 'path must be absolute');
    await rejects(Promise.resolve().then(() => openFileRead({ path: join(root, 'nope') }, io)), 'no such file or directory');
    await rejects(Promise.resolve().then(() => openFileRead({ path: file, offset: -1 }, io)), 'offset must be a whole number ≥ 0');
    await rejects(Promise.resolve().then(() => openFileRead({ path: '/dev/null' }, io)), 'not a regular file');
  });
});

describe('file.write', () => {
  const content = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 13) % 256));
  const left = () => readdirSync(root).sort();

  /** One session writing `bytes` from `offset` in 32 KiB chunks, then closed by the server with `reason`. */
  async function session(upload: string, path: string, offset: number, bytes: Buffer, reason = 'end') {
    const handler = await openFileWrite({ upload, path, offset }, new RecordingIo());
    for (let i = 0; i < bytes.length; i += 32 * 1024) await handler.data!(bytes.subarray(i, i + 32 * 1024));
    return handler.close(reason);
  }

  it('takes an upload in two sessions, resumed from what the first left, and puts it in place', async () => {
    const upload = randomUUID();
    const target = join(root, 'report.bin');
    expect(await uploadBegin({ upload, path: target, size: content.length, overwrite: false })).toEqual({ received: 0 });
    const temp = join(root, `.report.bin.rmm-upload-${upload}`);
    expect(statSync(temp).mode & 0o777).toBe(0o600);

    // The connection drops after 150,000 bytes and half a chunk more that the server never saw acknowledged.
    expect(await session(upload, target, 0, content.subarray(0, 166_384), 'disconnected')).toEqual({ received: 166_384 });
    expect(await uploadBegin({ upload, path: target, size: content.length, overwrite: false })).toEqual({ received: 166_384 });
    // The server resumes from the last chunk it saw acknowledged: the half chunk is cut off and written again.
    expect(await session(upload, target, 150_000, content.subarray(150_000))).toEqual({ received: 300_000 });

    expect(await uploadFinish({ upload, path: target, size: content.length, sha256: sha256(content), overwrite: false })).toEqual({ size: 300_000, sha256: sha256(content) });
    expect(readFileSync(target).equals(content)).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(left()).toEqual(['report.bin']);
  });

  it('leaves nothing behind when the checksum does not match', async () => {
    const upload = randomUUID();
    const target = join(root, 'x.bin');
    await uploadBegin({ upload, path: target, size: content.length, overwrite: false });
    await session(upload, target, 0, content);
    const wrong = sha256(Buffer.from('something else'));
    await rejects(uploadFinish({ upload, path: target, size: content.length, sha256: wrong, overwrite: false }), `checksum mismatch: expected ${wrong}, got ${sha256(content)}`);
    expect(left()).toEqual([]);
  });

  it('refuses to finish an incomplete upload, and keeps it to resume', async () => {
    const upload = randomUUID();
    const target = join(root, 'x.bin');
    await uploadBegin({ upload, path: target, size: content.length, overwrite: false });
    await session(upload, target, 0, content.subarray(0, 1_000));
    await rejects(uploadFinish({ upload, path: target, size: content.length, sha256: sha256(content), overwrite: false }), `incomplete: 1000 of 300000 bytes`);
    expect(await uploadBegin({ upload, path: target, size: content.length, overwrite: false })).toEqual({ received: 1_000 });
    await uploadAbort({ upload, path: target });
    await uploadAbort({ upload, path: target }); // absent: no error
    expect(left()).toEqual([]);
  });

  it('replaces a file only with overwrite, keeping its mode; refuses a directory or a missing parent', async () => {
    const target = join(root, 'existing.txt');
    writeFileSync(target, 'old', { mode: 0o600 });
    const data = Buffer.from('new content');
    await rejects(uploadBegin({ upload: randomUUID(), path: target, size: data.length, overwrite: false }), 'file exists');

    const upload = randomUUID();
    await uploadBegin({ upload, path: target, size: data.length, overwrite: true });
    await session(upload, target, 0, data);
    await uploadFinish({ upload, path: target, size: data.length, sha256: sha256(data), overwrite: true });
    expect(readFileSync(target, 'utf8')).toBe('new content');
    expect(statSync(target).mode & 0o777).toBe(0o600);

    mkdirSync(join(root, 'sub'));
    await rejects(uploadBegin({ upload: randomUUID(), path: join(root, 'sub'), size: 1, overwrite: true }), 'is a directory');
    await rejects(uploadBegin({ upload: randomUUID(), path: join(root, 'no', 'such.txt'), size: 1, overwrite: true }), 'no such file or directory');
    await rejects(uploadBegin({ upload: randomUUID(), path: join(target, 'under-a-file'), size: 1, overwrite: true }), 'not a directory');
    await rejects(uploadBegin({ upload: randomUUID(), path: join(root, 'big'), size: 4 * 1024 ** 3 + 1, overwrite: true }), /^size over/);
    await rejects(uploadBegin({ upload: 'not-a-uuid', path: join(root, 'x'), size: 1, overwrite: true }), 'upload must be a UUID');
    expect(left()).toEqual(['existing.txt', 'sub']);
  });

  it('refuses to finish without overwrite when the target appeared meanwhile, and removes the upload', async () => {
    const upload = randomUUID();
    const target = join(root, 'late.txt');
    const data = Buffer.from('mine');
    await uploadBegin({ upload, path: target, size: data.length, overwrite: false });
    await session(upload, target, 0, data);
    writeFileSync(target, 'theirs');
    await rejects(uploadFinish({ upload, path: target, size: data.length, sha256: sha256(data), overwrite: false }), 'file exists');
    expect(readFileSync(target, 'utf8')).toBe('theirs');
    expect(left()).toEqual(['late.txt']);
    expect(existsSync(join(root, `.late.txt.rmm-upload-${upload}`))).toBe(false);
  });

  it('refuses a session for an upload not begun, or from past what was received', async () => {
    const upload = randomUUID();
    const target = join(root, 'y.bin');
    await rejects(Promise.resolve().then(() => openFileWrite({ upload, path: target, offset: 0 }, new RecordingIo())), 'no such upload: begin it first');
    await uploadBegin({ upload, path: target, size: 10, overwrite: false });
    await rejects(Promise.resolve().then(() => openFileWrite({ upload, path: target, offset: 5 }, new RecordingIo())), 'offset 5 past the 0 bytes received');
  });
});
