import { clearedSessionCookie, hasCsrfHeader, isChange, sessionCookie, sessionTokenOf } from './session-cookie';

const token = 'A'.repeat(40) + '_-9';

describe('the console session cookie', () => {
  it('finds rmm_session among other cookies, and only a value shaped like a token', () => {
    expect(sessionTokenOf({ cookie: `theme=dark; rmm_session=${token}; other=1` })).toBe(token);
    expect(sessionTokenOf({ cookie: `rmm_session=${token}` })).toBe(token);
    expect(sessionTokenOf({ cookie: `xrmm_session=${token}` })).toBeUndefined();
    expect(sessionTokenOf({ cookie: `rmm_session="${token}"` })).toBeUndefined();
    expect(sessionTokenOf({ cookie: `rmm_session=${token}x` })).toBeUndefined();
    expect(sessionTokenOf({ cookie: 'rmm_session=%00%ff; rmm_session' })).toBeUndefined();
    expect(sessionTokenOf({ cookie: `rmm_session=${token};`.padEnd(9000, ' ') })).toBeUndefined();
    expect(sessionTokenOf({})).toBeUndefined();
  });

  it('is HttpOnly, SameSite=Strict, Path=/, and Secure only when asked', () => {
    expect(sessionCookie(token, 3600, false)).toBe(`rmm_session=${token}; Max-Age=3600; Path=/; HttpOnly; SameSite=Strict`);
    expect(sessionCookie(token, 3600, true)).toBe(`rmm_session=${token}; Max-Age=3600; Path=/; HttpOnly; SameSite=Strict; Secure`);
    expect(clearedSessionCookie(true)).toBe('rmm_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure');
  });

  it('asks the CSRF header of changes only', () => {
    expect(['GET', 'HEAD', 'OPTIONS'].map(isChange)).toEqual([false, false, false]);
    expect(['POST', 'PUT', 'PATCH', 'DELETE', 'post'].map(isChange)).toEqual([true, true, true, true, true]);
    expect(hasCsrfHeader({ 'x-requested-with': 'rmm-console' })).toBe(true);
    expect(hasCsrfHeader({ 'x-requested-with': 'XMLHttpRequest' })).toBe(false);
    expect(hasCsrfHeader({})).toBe(false);
  });
});
