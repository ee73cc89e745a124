import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { OidcConfig } from '../../apps/api/src/config/app-config';
import { ROOT } from './processes';

export interface TestProviderOptions {
  /** oidc-provider's client metadata (client_id, client_secret, redirect_uris…). */
  clients?: Array<Record<string, unknown>>;
  /** The accounts: sub → claims (email, email_verified, groups, …). */
  accounts: Record<string, Record<string, unknown>>;
  /** A hand-made issuer whose token endpoint issues ID tokens in a chosen mode (oidc-provider-process.mjs). */
  fake?: boolean;
}

export interface TestProvider {
  issuer: string;
  /** The account the next login signs in. */
  signInNext(sub: string): Promise<void>;
  setAccount(sub: string, claims: Record<string, unknown>): Promise<void>;
  /** The hand-made issuer's ID tokens: good, wrong_nonce, other_key, expired. */
  setMode(mode: 'good' | 'wrong_nonce' | 'other_key' | 'expired'): Promise<void>;
  close(): Promise<void>;
}

/** An OpenID provider on 127.0.0.1 in a child process (test/utils/oidc-provider-process.mjs). */
export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'test/utils/oidc-provider-process.mjs')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', OIDC_TEST_CONFIG: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the test provider did not start: ${stderr}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`the test provider exited (${code}): ${stderr}`)));
  });
  const issuer = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown): Promise<void> => {
    const res = await fetch(`${issuer}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (res.status !== 204) throw new Error(`${path} answered ${res.status}`);
  };
  return {
    issuer,
    signInNext: (sub) => post('/__test/next', { sub }),
    setAccount: (sub, claims) => post('/__test/account', { sub, claims }),
    setMode: (mode) => post('/__test/mode', { mode }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The app's `oidc` setting for a provider (the role map of the tests: rmm-admins, rmm-techs, rmm-view). */
export function oidcSettings(issuer: string, clientId: string, clientSecret: string | undefined, extra: Partial<OidcConfig> = {}): OidcConfig {
  return {
    issuer,
    clientId,
    clientSecret,
    scopes: 'openid email profile',
    groupsClaim: 'groups',
    roleMap: new Map([
      ['rmm-admins', 'admin'],
      ['rmm-techs', 'technician'],
      ['rmm-view', 'viewer'],
    ]),
    clientMap: new Map(),
    button: 'Test IdP',
    maxSessionHours: 12,
    ...extra,
  };
}

/** A browser without a browser: fetch with a cookie jar, following redirects one by one across the app and the provider. */
export class CookieBrowser {
  readonly jar = new Map<string, string>();

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** One request; Set-Cookie answers land in the jar (one jar for both hosts: both are 127.0.0.1). */
  async get(url: string): Promise<{ status: number; location: string | null; body: string }> {
    const res = await fetch(url, { redirect: 'manual', headers: this.jar.size ? { cookie: this.cookieHeader() } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const location = res.headers.get('location');
    return { status: res.status, location: location ? new URL(location, url).href : null, body: await res.text() };
  }

  /** Follows redirects from `url` until `stopAt` (a predicate on the URL) or an answer that is no redirect; returns the URLs visited. */
  async follow(url: string, stopAt: (u: string) => boolean = () => false, max = 20): Promise<string[]> {
    const seen = [url];
    let current = url;
    for (let i = 0; i < max; i++) {
      if (i > 0 && stopAt(current)) return seen;
      const r = await this.get(current);
      if (!r.location || r.status < 300 || r.status >= 400) return seen;
      current = r.location;
      seen.push(current);
    }
    throw new Error(`too many redirects: ${seen.join(' → ')}`);
  }
}
