import { defaultHeadroom, readOpenFileLimit } from './fd-headroom';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 20000                files
Max locked memory         8388608              8388608              bytes
`;

describe('U2: the open-file limit and the head-room', () => {
  it('reads the soft limit (what `ulimit -n` prints) from /proc/self/limits; unlimited or no such line: null', () => {
    expect(readOpenFileLimit(LIMITS)).toBe(1024);
    expect(readOpenFileLimit(LIMITS.replace('1024                 20000', 'unlimited            unlimited'))).toBeNull();
    expect(readOpenFileLimit('Limit Soft Limit Hard Limit Units\n')).toBeNull();
  });

  it('defaults to room for every update download (a socket and a file) and the rest: max(256, 2 × concurrency + 128)', () => {
    expect(defaultHeadroom(50)).toBe(256);
    expect(defaultHeadroom(1)).toBe(256);
    expect(defaultHeadroom(500)).toBe(1128);
  });
});
