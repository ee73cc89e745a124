import { originAllowed } from './origin';

describe('originAllowed (may this page use the session cookie on a WebSocket upgrade?)', () => {
  const own = 'https://rmm.example.com';
  const listed = ['https://dash.example.com', 'http://localhost:5173'];

  it("allows the server's own origin (PUBLIC_URL's) and the listed ones", () => {
    expect(originAllowed('https://rmm.example.com', own, [])).toBe(true);
    expect(originAllowed('https://dash.example.com', own, listed)).toBe(true);
    expect(originAllowed('http://localhost:5173', own, listed)).toBe(true);
  });

  it('compares origins, not text: the default port and the case of the host do not matter, a path in PUBLIC_URL neither', () => {
    expect(originAllowed('https://rmm.example.com:443', own, [])).toBe(true);
    expect(originAllowed('https://RMM.example.com', own, [])).toBe(true);
    expect(originAllowed('http://127.0.0.1:3000', 'http://127.0.0.1:3000/rmm', [])).toBe(true);
  });

  it('refuses any other page: another host, scheme or port, a look-alike, a sub-domain', () => {
    for (const origin of [
      'http://evil.example',
      'http://rmm.example.com', // not https
      'https://rmm.example.com:8443',
      'https://rmm.example.com.evil.example',
      'https://evil.rmm.example.com',
      'https://dash.example.com',
    ]) {
      expect([origin, originAllowed(origin, own, [])]).toEqual([origin, false]);
    }
    expect(originAllowed('http://localhost:5174', own, listed)).toBe(false);
  });

  it('refuses a missing Origin, `null`, several, an empty one, or one that is not an http(s) origin', () => {
    for (const origin of [undefined, 'null', '', ' ', 'rmm.example.com', 'file:///home/x.html', 'chrome-extension://abcdef', 'ws://rmm.example.com']) {
      expect([origin, originAllowed(origin, own, listed)]).toEqual([origin, false]);
    }
    expect(originAllowed(['https://rmm.example.com', 'https://rmm.example.com'], own, listed)).toBe(false);
  });
});
