import { capMoreInfo, MORE_INFO_MAX, parseCheckResult } from './check-results';
import { toSyncedCheck } from './check-sync';

describe('check.result messages', () => {
  it('takes a result with an integer check id, a known status and text (or no) more_info', () => {
    expect(parseCheckResult({ type: 'check.result', checkId: 7, status: 'failing', moreInfo: 'disk full' })).toEqual({ checkId: 7, status: 'failing', moreInfo: 'disk full' });
    expect(parseCheckResult({ checkId: 7, status: 'pending' })).toEqual({ checkId: 7, status: 'pending', moreInfo: null });
    expect(parseCheckResult({ checkId: 7, status: 'passing', moreInfo: null })).toEqual({ checkId: 7, status: 'passing', moreInfo: null });
  });

  it('refuses anything else', () => {
    for (const bad of [{}, { checkId: '7', status: 'passing' }, { checkId: 7.5, status: 'passing' }, { checkId: 0, status: 'passing' }, { checkId: 2 ** 31, status: 'passing' }, { checkId: 7, status: 'ok' }, { checkId: 7, status: 'passing', moreInfo: 3 }]) {
      expect(parseCheckResult(bad)).toBeNull();
    }
  });

  it('cuts more_info to its bound without splitting a surrogate pair, and drops NUL', () => {
    expect(capMoreInfo('a\u0000b')).toBe('ab');
    const long = capMoreInfo('x'.repeat(MORE_INFO_MAX + 10));
    expect(long).toHaveLength(MORE_INFO_MAX);
    expect(long.endsWith('…')).toBe(true);
    // the cut would fall between the two halves of the first emoji: it goes whole
    expect(capMoreInfo(`${'x'.repeat(MORE_INFO_MAX - 2)}😀😀`)).toBe(`${'x'.repeat(MORE_INFO_MAX - 2)}…`);
  });
});

describe('checks.sync entries', () => {
  it("gives a script check its script, with the check's args and time-out, else the script's defaults", () => {
    const script = { shell: 'bash', body: 'exit 0', defaultArgs: ['-d'], defaultTimeout: 90 };
    expect(toSyncedCheck({ id: 1, checkType: 'script', name: 's', runInterval: 60, settings: { args: ['-x'], timeout: 20 }, script })).toEqual({
      id: 1, checkType: 'script', name: 's', runInterval: 60, settings: {}, script: { shell: 'bash', body: 'exit 0', args: ['-x'], timeoutSeconds: 20 },
    });
    expect(toSyncedCheck({ id: 1, checkType: 'script', name: 's', runInterval: 60, settings: {}, script }).script).toEqual({ shell: 'bash', body: 'exit 0', args: ['-d'], timeoutSeconds: 90 });
    expect(toSyncedCheck({ id: 2, checkType: 'ping', name: 'p', runInterval: 120, settings: { target: 'gw' }, script: null })).toEqual({ id: 2, checkType: 'ping', name: 'p', runInterval: 120, settings: { target: 'gw' } });
  });
});
