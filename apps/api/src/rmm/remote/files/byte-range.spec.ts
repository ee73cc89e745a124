import { agentReadOf, attachmentOf, parseRange, resolveRange } from './byte-range';

describe('byte ranges of a download', () => {
  it('reads one range of each form, and ignores several, other units and malformed ones (the whole file)', () => {
    expect(parseRange('bytes=0-99')).toEqual({ kind: 'from', first: 0, last: 99 });
    expect(parseRange('bytes=100-')).toEqual({ kind: 'from', first: 100 });
    expect(parseRange('bytes=-10')).toEqual({ kind: 'suffix', length: 10 });
    expect(parseRange(undefined)).toBeNull();
    expect(parseRange('bytes=0-1,5-6')).toBeNull();
    expect(parseRange('items=0-1')).toBeNull();
    expect(parseRange('bytes=5-1')).toBeNull();
    expect(parseRange('bytes=-')).toBeNull();
  });

  it('resolves a range against the size: clamped to the end, none past it (416)', () => {
    expect(resolveRange({ kind: 'from', first: 10, last: 1000 }, 100)).toEqual({ start: 10, end: 99 });
    expect(resolveRange({ kind: 'from', first: 100 }, 100)).toBeNull();
    expect(resolveRange({ kind: 'suffix', length: 500 }, 100)).toEqual({ start: 0, end: 99 });
    expect(resolveRange({ kind: 'suffix', length: 0 }, 100)).toBeNull();
    expect(resolveRange({ kind: 'suffix', length: 5 }, 0)).toBeNull();
  });

  it('asks the agent for the bytes the range names; a suffix first for nothing (the size)', () => {
    expect(agentReadOf(null)).toEqual({ offset: 0 });
    expect(agentReadOf({ kind: 'from', first: 5, last: 9 })).toEqual({ offset: 5, length: 5 });
    expect(agentReadOf({ kind: 'from', first: 5 })).toEqual({ offset: 5 });
    expect(agentReadOf({ kind: 'suffix', length: 5 })).toEqual({ offset: 0, length: 0 });
  });

  it('names the attachment safely: quotes and non-ASCII replaced (of a Windows path too), the UTF-8 name beside it', () => {
    expect(attachmentOf('/var/log/syslog')).toBe(`attachment; filename="syslog"; filename*=UTF-8''syslog`);
    expect(attachmentOf('/tmp/a"b;c.txt')).toBe(`attachment; filename="a_b;c.txt"; filename*=UTF-8''a%22b%3Bc.txt`);
    expect(attachmentOf('C:\\Users\\ana\\résumé.pdf')).toBe(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
    expect(attachmentOf('/tmp/x\r\ny')).toBe(`attachment; filename="x__y"; filename*=UTF-8''x%0D%0Ay`);
  });
});
