import { FileError, fileError } from './files-errors';

/** An error as Node's fs module makes it. */
function errno(code: string, message = `${code}: something, open '/x'`): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe('fileError', () => {
  it.each([
    ['ENOENT', 'no such file or directory'],
    ['EACCES', 'permission denied'],
    ['EPERM', 'permission denied'],
    ['ENOTDIR', 'not a directory'],
    ['EISDIR', 'is a directory'],
    ['EEXIST', 'file exists'],
  ])('says %s in the protocol words "%s"', (code, words) => {
    const err = fileError(errno(code));
    expect(err).toBeInstanceOf(FileError);
    expect(err.message).toBe(words);
    expect(err.code).toBe(code);
  });

  it("keeps the message of another error, and passes a FileError through", () => {
    expect(fileError(errno('ENOSPC', 'ENOSPC: no space left on device, write')).message).toBe('ENOSPC: no space left on device, write');
    const own = new FileError('path must be absolute');
    expect(fileError(own)).toBe(own);
    expect(fileError('odd').message).toBe('odd');
  });
});
