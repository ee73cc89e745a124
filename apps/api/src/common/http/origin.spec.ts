import { DomainError } from '../errors/domain-error';
import { ConsoleOriginSettings, consoleOrigins, originAllowed, originRefusal, originVerdict } from './origin';

/** PUBLIC_URL given (its origin is the console's), no other origin. */
const given = (publicUrl: string, rmmCorsOrigins: string[] = []): ConsoleOriginSettings => ({ publicUrl, publicUrlSet: true, host: '0.0.0.0', port: 3000, rmmCorsOrigins });
const allowedBy = (header: string | string[] | undefined, publicUrl: string, listed: string[]): boolean => originAllowed(header, consoleOrigins(given(publicUrl, listed)));

describe('originAllowed (may this page use the session cookie on a WebSocket upgrade?)', () => {
  const own = 'https://rmm.example.com';
  const listed = ['https://dash.example.com', 'http://localhost:5173'];

  it("allows the server's own origin (PUBLIC_URL's) and the listed ones", () => {
    expect(allowedBy('https://rmm.example.com', own, [])).toBe(true);
    expect(allowedBy('https://dash.example.com', own, listed)).toBe(true);
    expect(allowedBy('http://localhost:5173', own, listed)).toBe(true);
  });

  it('compares origins, not text: the default port and the case of the host do not matter, a path in PUBLIC_URL neither', () => {
    expect(allowedBy('https://rmm.example.com:443', own, [])).toBe(true);
    expect(allowedBy('https://RMM.example.com', own, [])).toBe(true);
    expect(allowedBy('http://127.0.0.1:3000', 'http://127.0.0.1:3000/rmm', [])).toBe(true);
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
      expect([origin, allowedBy(origin, own, [])]).toEqual([origin, false]);
    }
    expect(allowedBy('http://localhost:5174', own, listed)).toBe(false);
  });

  it('refuses a missing Origin, `null`, several, an empty one, or one that is not an http(s) origin', () => {
    for (const origin of [undefined, 'null', '', ' ', 'rmm.example.com', 'file:///home/x.html', 'chrome-extension://abcdef', 'ws://rmm.example.com']) {
      expect([origin, allowedBy(origin, own, listed)]).toEqual([origin, false]);
    }
    expect(allowedBy(['https://rmm.example.com', 'https://rmm.example.com'], own, listed)).toBe(false);
  });
});

describe('consoleOrigins (where the server is reachable by default)', () => {
  const unset = (over: Partial<ConsoleOriginSettings> = {}): ConsoleOriginSettings => ({
    publicUrl: 'http://localhost:3000',
    publicUrlSet: false,
    host: '0.0.0.0',
    port: 3000,
    rmmCorsOrigins: [],
    ...over,
  });

  it('without PUBLIC_URL: localhost, 127.0.0.1 and [::1] at the listening port (issue 29: the console at 127.0.0.1 went live nowhere)', () => {
    expect(consoleOrigins(unset())).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']);
    for (const origin of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000']) expect([origin, originAllowed(origin, consoleOrigins(unset()))]).toEqual([origin, true]);
    // another port, or https on that port, is another page
    for (const origin of ['http://127.0.0.1:3001', 'https://127.0.0.1:3000', 'http://localhost:5173']) expect([origin, originAllowed(origin, consoleOrigins(unset()))]).toEqual([origin, false]);
  });

  it('uses the port the server listens on (PORT=0), and HOST when it is one address rather than every one', () => {
    expect(consoleOrigins(unset({ port: 0, publicUrl: 'http://localhost:0', listenPort: 41234 }))).toEqual(['http://localhost:0', 'http://localhost:41234', 'http://127.0.0.1:41234', 'http://[::1]:41234']);
    expect(consoleOrigins(unset({ host: '192.168.1.5' }))).toContain('http://192.168.1.5:3000');
    expect(consoleOrigins(unset({ host: 'fd00::5' }))).toContain('http://[fd00::5]:3000');
    expect(consoleOrigins(unset({ host: '::' }))).toHaveLength(3);
    expect(consoleOrigins(unset({ rmmCorsOrigins: ['http://localhost:5173'] }))).toContain('http://localhost:5173');
  });

  it('with PUBLIC_URL given: its origin only (and RMM_CORS_ORIGINS), even when it is the default text', () => {
    expect(consoleOrigins(given('http://localhost:3000'))).toEqual(['http://localhost:3000']);
    expect(originAllowed('http://127.0.0.1:3000', consoleOrigins(given('http://localhost:3000')))).toBe(false);
    expect(consoleOrigins(given('https://rmm.example.com/base', ['http://localhost:5173']))).toEqual(['https://rmm.example.com', 'http://localhost:5173']);
  });
});

describe('originRefusal and originVerdict (what the log and the console say)', () => {
  it('names the origin, where the console is, and the settings that would allow it', () => {
    const s = given('http://localhost:3000');
    const text = originRefusal('http://127.0.0.1:3000', s, consoleOrigins(s));
    expect(text).toBe(
      'live updates refused for the page origin "http://127.0.0.1:3000": this server\'s console is at http://localhost:3000 (PUBLIC_URL names it); ' +
        'open the console at one of those, or set PUBLIC_URL=http://127.0.0.1:3000 (the address operators open) or add http://127.0.0.1:3000 to RMM_CORS_ORIGINS, and restart the server',
    );
    expect(originRefusal(undefined, s, consoleOrigins(s))).toContain('for a page that sent no Origin');
    expect(originRefusal('x'.repeat(5000), s, consoleOrigins(s)).length).toBeLessThan(600);
  });

  it('answers allowed or why not; 400 naming origin for anything that is not an http(s) origin', () => {
    const unsetAt = (port: number): ConsoleOriginSettings => ({ publicUrl: `http://localhost:${port}`, publicUrlSet: false, host: '0.0.0.0', port, rmmCorsOrigins: [] });
    expect(originVerdict('http://127.0.0.1:3000', unsetAt(3000))).toEqual({
      origin: 'http://127.0.0.1:3000',
      allowed: true,
      reason: null,
      allowed_origins: ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000'],
    });
    expect(originVerdict('http://192.168.1.5:3000', unsetAt(3000))).toMatchObject({ allowed: false, reason: expect.stringContaining('PUBLIC_URL is not set') });
    for (const bad of ['', 'null', 'localhost:3000', 'ftp://x', `http://${'a'.repeat(300)}.example`]) {
      let err: unknown;
      try {
        originVerdict(bad, unsetAt(3000));
      } catch (e) {
        err = e;
      }
      expect([bad, err instanceof DomainError && err.fields]).toEqual([bad, [{ field: 'origin', message: expect.stringContaining('must be an http:// or https:// origin') }]]);
    }
  });
});
