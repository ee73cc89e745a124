import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN_JS, cleanEnv, freePort, run, startMain } from '../utils/processes';

const isRoot = process.getuid?.() === 0;
const ADMIN = 'operator-admin-key-0123456789abcdef';
const mode = (path: string): number => statSync(path).mode & 0o777;

/** A fresh parent folder the postgres user can pass through (as root), for a DATA_DIR inside it. */
function parent(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o711);
  return dir;
}

// Real server processes (with their embedded PostgreSQL) started and stopped in each test: a minute or more on a
// machine busy with a second suite.
jest.setTimeout(240_000);

/** What a new operator meets with DATA_DIR and the embedded PostgreSQL, with the real `npm start` entry point. */
describe('DATA_DIR', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });

  it('creates a missing DATA_DIR private to the server (0711 as root for PostgreSQL\'s user, else 0700) and says so', async () => {
    const base = parent('rmm-datadir-new-');
    made.push(base);
    const dataDir = join(base, 'a', 'b');
    const port = await freePort();
    const server = await startMain(cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }), `http://127.0.0.1:${port}`);
    expect(await server.stop()).toBe(0);
    expect(mode(dataDir)).toBe(isRoot ? 0o711 : 0o700);
    expect(server.output()).toContain(`created DATA_DIR ${dataDir}`);
  });

  it('leaves an existing DATA_DIR\'s permissions as they are, but for the search bit PostgreSQL\'s user needs as root, which it logs', async () => {
    const base = parent('rmm-datadir-700-');
    made.push(base);
    const dataDir = join(base, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    chmodSync(dataDir, 0o700);
    const port = await freePort();
    const server = await startMain(cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }), `http://127.0.0.1:${port}`);
    expect(await server.stop()).toBe(0);
    expect(mode(dataDir)).toBe(isRoot ? 0o701 : 0o700); // never 0755
    if (isRoot) expect(server.output()).toContain(`made ${dataDir} traversable (o+x) for PostgreSQL's postgres user`);
  });

  (isRoot ? it : it.skip)('uses a group-writable DATA_DIR that another user owns without changing it (root only: chown)', async () => {
    const base = parent('rmm-datadir-775-');
    made.push(base);
    const dataDir = join(base, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o775);
    chownSync(dataDir, 65534, 65534); // nobody
    const port = await freePort();
    const server = await startMain(cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }), `http://127.0.0.1:${port}`);
    expect(await server.stop()).toBe(0);
    expect(mode(dataDir)).toBe(0o775);
  });

  it.each([
    ['/proc/rmm-data', /^rmm-server: DATA_DIR \(\/proc\/rmm-data\) cannot be created: /],
    ['FILE', /^rmm-server: DATA_DIR \(.*\) cannot be used: .* is not a directory/],
  ])('fails within 5 s with one line naming DATA_DIR when it cannot be used (%s)', async (given, message) => {
    let dataDir = given;
    if (given === 'FILE') {
      const base = parent('rmm-datadir-file-');
      made.push(base);
      dataDir = join(base, 'plain-file');
      writeFileSync(dataDir, 'not a folder');
    }
    // It ends by itself (a process still running after 60 s is killed, and its code is then null): the 5 s are
    // the server's own bound on preparing DATA_DIR (embedded-postgres.ts), not timed here, since `npm test` holds
    // no timing assertions (Node's own start took 13 s on a machine running two suites).
    const res = await run([MAIN_JS], cleanEnv({ DATA_DIR: dataDir, PORT: String(await freePort()) }), 60_000);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toMatch(message);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('a supervised embedded PostgreSQL', () => {
  const base = parent('rmm-supervised-');
  const dataDir = join(base, 'data');
  afterAll(() => {
    try {
      chmodSync(join(dataDir, 'pg'), 0o700);
    } catch {
      /* not there */
    }
    rmSync(base, { recursive: true, force: true });
  });
  const postmasterPid = (): number => Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

  it('answers 503 while its postmaster is dead, logs it at error level, restarts it and serves again', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await startMain(cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', RMM_ADMIN_API_KEY: ADMIN }), url);
    try {
      expect((await fetch(`${url}/api/v3/clients/`, { headers: { 'x-api-key': ADMIN } })).status).toBe(200);
      process.kill(postmasterPid(), 'SIGKILL');
      const seen = new Set<number>();
      let body: unknown;
      const deadline = Date.now() + 40_000;
      for (;;) {
        const res = await fetch(`${url}/api/v3/clients/`, { headers: { 'x-api-key': ADMIN } });
        const text = await res.text();
        if (res.status === 503) body = JSON.parse(text);
        seen.add(res.status);
        if (res.status === 200 && seen.has(503)) break;
        if (Date.now() > deadline) throw new Error(`no recovery; statuses seen: ${[...seen].join(',')}\n${server.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(body).toEqual({ detail: 'the database is not available, retry shortly' });
      expect([...seen].filter((s) => s >= 500 && s !== 503)).toEqual([]); // never a 500 meanwhile
      expect(server.output()).toMatch(/"level":"error".*embedded PostgreSQL exited unexpectedly; restarting it/);
      expect(server.output()).toContain('embedded PostgreSQL is running again');
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  (isRoot ? it : it.skip)('exits non-zero when it cannot come back, and stops promptly on SIGTERM while it is down (root only: blocks PostgreSQL\'s user)', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await startMain(cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_RESTART_ATTEMPTS: '2' }), url);
    const exited = new Promise<number | null>((r) => server.child.on('exit', (code) => r(code)));
    chmodSync(join(dataDir, 'pg'), 0o000); // PostgreSQL's user can no longer open its data
    process.kill(postmasterPid(), 'SIGKILL');
    const started = Date.now();
    const code = await exited;
    chmodSync(join(dataDir, 'pg'), 0o700);
    expect(code).toBe(1);
    // (a hang guard, not a speed figure: two restart attempts take a few seconds; a machine running two suites
    // may take several times that)
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(server.output()).toMatch(/"level":"fatal".*embedded PostgreSQL could not be restarted after 2 attempts/);
  });

  it('stops within seconds on SIGTERM right after its postmaster died', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await startMain(cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }), url);
    process.kill(postmasterPid(), 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect(await server.stop()).toBe(0);
    // (a hang guard: it waits for nothing from the dead PostgreSQL; well under a second when the machine is idle)
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('logs', () => {
  const base = parent('rmm-logs-');
  const dataDir = join(base, 'data');
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('writes JSON lines off a terminal: one listening line, no Fastify duplicates, generated keys named only on the start that made them', async () => {
    const port = await freePort();
    const env = cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    const first = await startMain(env, `http://127.0.0.1:${port}`);
    expect(await first.stop()).toBe(0);
    const lines = first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    expect(lines.filter((l) => l.includes('Server listening at'))).toEqual([]);
    expect(lines.filter((l) => l.includes('RMM server listening on'))).toHaveLength(1);
    expect(first.output()).toContain('generated JWT_SECRET');

    const second = await startMain(env, `http://127.0.0.1:${port}`);
    expect(await second.stop()).toBe(0);
    expect(second.output()).toContain('RMM server listening on');
    expect(second.output()).not.toContain('generated JWT_SECRET');
  });

  it('writes readable lines with LOG_FORMAT=pretty (the default at a terminal)', async () => {
    const port = await freePort();
    const server = await startMain(cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'pretty' }), `http://127.0.0.1:${port}`);
    expect(await server.stop()).toBe(0);
    const listening = server
      .output()
      .split('\n')
      .find((l) => l.includes('RMM server listening on'));
    expect(listening).toMatch(/^\[\d\d:\d\d:\d\d\] .*INFO.*: .*RMM server listening on 127\.0\.0\.1:\d+/);
  });
});
