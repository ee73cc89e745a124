import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactUrl } from '../common/values';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const c = loadConfig({}, '/srv/rmm');
    expect(c).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: '/srv/rmm/.data',
      logLevel: 'info',
      rateLimitPerMinute: 100,
      deploymentRateLimitPerMinute: 20,
      registerRateLimitPerMinute: 20,
      downloadRateLimitPerMinute: 30,
      enrollUpstreamTimeoutMs: 10_000,
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.rmmApiUrl).toBeUndefined();
    expect(c.jwtSecret).toBeUndefined();
    expect(c.installersDir).toBeUndefined();
    expect(c.downloadIdleTimeoutMs).toBe(60_000);
  });

  it("offers package.json's agent version from <project>/dist/agent/bin unless RMM_AGENT_VERSION and RMM_AGENT_BIN_DIR say otherwise", () => {
    const root = join(__dirname, '..', '..', '..', '..');
    const own = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    expect(loadConfig({}, '/srv/rmm')).toMatchObject({ agentVersion: own, agentBinDir: join(root, 'dist', 'agent', 'bin'), agentBuild: true });
    expect(loadConfig({ RMM_AGENT_VERSION: '1.4.0-rc.2+b7', RMM_AGENT_BIN_DIR: 'bins' }, '/srv/rmm')).toMatchObject({ agentVersion: '1.4.0-rc.2+b7', agentBinDir: '/srv/rmm/bins' });
    for (const bad of ['1.4', 'v1.4.0', '1.4.0:x', '1.4.0 beta', `1.0.0-${'a'.repeat(60)}`]) {
      expect(() => loadConfig({ RMM_AGENT_VERSION: bad })).toThrow(/^RMM_AGENT_VERSION must be a version like 1\.2\.3/);
    }
  });

  it('resolves RMM_INSTALLERS_DIR against the working folder', () => {
    expect(loadConfig({ RMM_INSTALLERS_DIR: 'installers' }, '/srv/rmm').installersDir).toBe('/srv/rmm/installers');
    expect(loadConfig({ RMM_INSTALLERS_DIR: '/var/lib/rmm/installers' }, '/srv/rmm').installersDir).toBe('/var/lib/rmm/installers');
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from a given one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://rmm.example.com/' }).publicUrl).toBe('https://rmm.example.com');
    // Whether it was given decides the console's origins (common/http/origin.ts), even when it is the default text.
    expect(loadConfig({ PORT: '8080' }).publicUrlSet).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).publicUrlSet).toBe(true);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ RMM_DOWNLOAD_IDLE_TIMEOUT_MS: '999' }, 'RMM_DOWNLOAD_IDLE_TIMEOUT_MS must be a whole number from 1000 to 3600000, got "999"'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL is not a valid URL'],
    [{ DATABASE_URL: 'mysql://h/db' }, 'DATABASE_URL must start with postgres:// or postgresql://'],
    [{ DATABASE_URL: 'postgres://h:5432' }, 'DATABASE_URL names no database'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL must start with http:// or https://'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL must start with redis:// or rediss://'],
    [{ REDIS_PREFIX: 'has space' }, 'REDIS_PREFIX must be 1-64 letters, digits or ":._-"'],
    [{ REDIS_PREFIX: 'x'.repeat(65) }, 'REDIS_PREFIX must be 1-64 letters'],
    [{ TRUST_PROXY: 'nginx' }, 'TRUST_PROXY must be a comma-separated list of IP addresses or CIDRs'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'not an address: "10.0.0.0/33"'],
    [{ TRUST_PROXY: '0' }, 'TRUST_PROXY must be'],
    [{ RMM_DEFAULT_CLIENT_ID: '0' }, 'RMM_DEFAULT_CLIENT_ID must be a whole number from 1'],
    [{ RMM_DEFAULT_SITE_ID: '1.5' }, 'RMM_DEFAULT_SITE_ID must be a whole number from 1'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters long'],
  ])('rejects %j with a message naming the variable', (env, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(message);
    expect((error as ConfigError).variable).toBe(Object.keys(env)[0]);
  });

  it('requires RMM_AGENT_OFFLINE_AFTER_SECONDS to exceed twice RMM_AGENT_HEARTBEAT_SECONDS, in one line naming it', () => {
    const refused = (env: Record<string, string>): ConfigError => {
      try {
        loadConfig(env);
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };
    // The finding: 10 s with the default 30 s heartbeat made every agent flap between online and offline.
    const e = refused({ RMM_AGENT_OFFLINE_AFTER_SECONDS: '10' });
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.variable).toBe('RMM_AGENT_OFFLINE_AFTER_SECONDS');
    expect(e.message).toBe('RMM_AGENT_OFFLINE_AFTER_SECONDS must be greater than twice RMM_AGENT_HEARTBEAT_SECONDS (2 × 30 = 60), got "10"');
    expect(refused({ RMM_AGENT_OFFLINE_AFTER_SECONDS: '60' }).message).toContain('(2 × 30 = 60), got "60"');
    // A longer heartbeat alone can break the default threshold: the message says it is the default.
    expect(refused({ RMM_AGENT_HEARTBEAT_SECONDS: '60' }).message).toBe(
      'RMM_AGENT_OFFLINE_AFTER_SECONDS must be greater than twice RMM_AGENT_HEARTBEAT_SECONDS (2 × 60 = 120), got its default 120',
    );
    expect(refused({ RMM_AGENT_HEARTBEAT_SECONDS: '5', RMM_AGENT_OFFLINE_AFTER_SECONDS: '10' }).variable).toBe('RMM_AGENT_OFFLINE_AFTER_SECONDS');
    // Just over twice is accepted; so are the defaults.
    expect(loadConfig({ RMM_AGENT_OFFLINE_AFTER_SECONDS: '61' })).toMatchObject({ agentHeartbeatSeconds: 30, agentOfflineAfterSeconds: 61 });
    expect(loadConfig({ RMM_AGENT_HEARTBEAT_SECONDS: '1', RMM_AGENT_OFFLINE_AFTER_SECONDS: '3' })).toMatchObject({ agentHeartbeatSeconds: 1, agentOfflineAfterSeconds: 3 });
    expect(loadConfig({})).toMatchObject({ agentHeartbeatSeconds: 30, agentOfflineAfterSeconds: 120 });
  });

  it('reads TRUST_PROXY as addresses/CIDRs or a hop count, and trusts no proxy without it', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
  });

  it('never puts a secret value in an error message', () => {
    expect(() => loadConfig({ JWT_SECRET: 'tiny-secret' })).toThrow(/^JWT_SECRET must be at least 32 characters long$/);
  });

  it('hides the password of a connection URL', () => {
    expect(redactUrl('postgres://u:hunter2@db:5432/x')).toBe('postgres://u:***@db:5432/x');
    expect(redactUrl('postgres://u@db/x')).toBe('postgres://u@db/x');
  });
});
