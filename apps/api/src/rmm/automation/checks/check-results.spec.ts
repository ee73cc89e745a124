import { capMoreInfo, MORE_INFO_MAX, toCheckResult } from './check-results';
import { toSyncedCheck } from './check-sync';

describe('check.result messages', () => {
  it('takes a valid message (agent-protocol.ts checked it): text more_info, or none', () => {
    expect(toCheckResult({ checkId: 7, status: 'failing', moreInfo: 'disk full' })).toEqual({ checkId: 7, status: 'failing', moreInfo: 'disk full' });
    expect(toCheckResult({ checkId: 7, status: 'pending' })).toEqual({ checkId: 7, status: 'pending', moreInfo: null });
    expect(toCheckResult({ checkId: 7, status: 'passing', moreInfo: null })).toEqual({ checkId: 7, status: 'passing', moreInfo: null });
  });

  it('cuts more_info to its bound without splitting a surrogate pair, and makes it storable (NUL, lone surrogates → U+FFFD)', () => {
    expect(capMoreInfo('a\u0000b')).toBe('a\ufffdb');
    expect(capMoreInfo('1.0\ud800')).toBe('1.0\ufffd');
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
