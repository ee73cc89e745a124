// Self-update of a single-file binary (docs/agent-protocol.md, "Self-update"; apps/agent/README.md): verify the
// server's signed offer, download and check the new binary, run it on trial beside the running one (which
// supervises it, disconnected), and swap it in only once it has connected to the server; a trial that does not
// connect in time, or exits, is killed and the running version reconnects and reports why. Only binaries (a
// build target) that hold an update key (state.json `update_key`) update themselves; the Node.js bundle never does.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AGENT_TARGETS, REFUSAL_MAX } from '@app/protocol/agent';
import type { AgentMessage, AgentTarget, UpdateAvailableMessage, UpdateFailedMessage } from '@app/protocol/agent';

/** Exit code of `run --service` after an update or a rollback: the service manager starts the binary again. */
export const EXIT_RESTART = 10;
export const MAX_DOWNLOAD_BYTES = 300 * 1024 * 1024;
export const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
export const VERSION_CHECK_TIMEOUT_MS = 15_000;
/** How long a new version has to reach the server (its first `hello`) before the previous one is restored. */
export const DEFAULT_DEADLINE_SECONDS = 120;
/** Set (`1`) in the environment of a new version started on trial by the running one. */
export const TRIAL_ENV = 'RMM_AGENT_UPDATE_TRIAL';
/** The line a version on trial writes on its stdout once the server has greeted it (then its version). */
export const TRIAL_CONNECTED = 'rmm-agent-trial: connected';
/** How long a trial has to end after it is told to (stdin closed, or SIGTERM) before it is killed. */
export const TRIAL_STOP_MS = 10_000;

/** DER of an Ed25519 SubjectPublicKeyInfo up to the key: these 12 bytes then the raw 32-byte key. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The text the server signs for an offer. A version never holds a colon (checkOffer), so it reads one way only. */
export function updateSignedText(target: string, version: string, sha256: string): string {
  return `rmm-agent-update:v1:${target}:${version}:${sha256}`;
}

/** Whether `signature` (base64) is the Ed25519 signature by `key` (raw 32 bytes) of the offer's text. */
export function verifyUpdateSignature(key: Buffer, offer: Pick<UpdateAvailableMessage, 'target' | 'version' | 'sha256' | 'signature'>): boolean {
  try {
    const publicKey = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, key]), format: 'der', type: 'spki' });
    const signature = Buffer.from(offer.signature, 'base64');
    if (signature.length !== 64) return false;
    return verify(null, Buffer.from(updateSignedText(offer.target, offer.version, offer.sha256), 'utf8'), publicKey, signature);
  } catch {
    return false;
  }
}

/**
 * The download URL of an offer. A path (`/agent/v1/download/linux-amd64`) is taken under the server's URL, as
 * every other path of the protocol is (a server under `https://host/rmm` serves it at `/rmm/agent/v1/…`); an
 * absolute URL must be of the server's own origin (scheme, host and port): a string says why not.
 */
export function resolveDownloadUrl(server: string, url: string): URL | string {
  let base: URL;
  try {
    base = new URL(server);
  } catch {
    return `the agent's server is not a URL: ${server}`;
  }
  let resolved: URL;
  try {
    if (url.startsWith('/') && !url.startsWith('//')) {
      resolved = new URL(`${base.origin}${base.pathname.replace(/\/+$/, '')}${url}`);
    } else {
      resolved = new URL(url, `${base.origin}${base.pathname.replace(/\/*$/, '/')}`);
    }
  } catch {
    return `not a URL: ${url}`;
  }
  if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') return `not an http(s) URL: ${url}`;
  if (resolved.origin !== base.origin) return `refused a download from ${resolved.origin}: not the agent's server (${base.origin})`;
  return resolved;
}

/** The offer's fields checked (types, forms, bounds); a string says what is wrong. */
export function checkOffer(msg: Partial<UpdateAvailableMessage>): string | undefined {
  if (typeof msg.version !== 'string' || !/^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/.test(msg.version)) return 'invalid version';
  if (typeof msg.target !== 'string' || !(AGENT_TARGETS as readonly string[]).includes(msg.target)) return 'invalid target';
  if (typeof msg.url !== 'string' || msg.url === '' || msg.url.length > 2048) return 'invalid url';
  if (typeof msg.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(msg.sha256)) return 'invalid sha256';
  if (typeof msg.size !== 'number' || !Number.isInteger(msg.size) || msg.size <= 0) return 'invalid size';
  if (msg.size > MAX_DOWNLOAD_BYTES) return `too large: ${msg.size} bytes (at most ${MAX_DOWNLOAD_BYTES})`;
  if (typeof msg.signature !== 'string' || msg.signature.length > 200) return 'invalid signature';
  return undefined;
}

/** An error as update.failed carries it: printable characters only, at most 1000. */
export function failureText(error: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const printable = error.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return Array.from(printable).slice(0, REFUSAL_MAX).join('') || 'unknown error';
}

/** RMM_AGENT_UPDATE_DEADLINE_SECONDS (for tests), else 120. */
export function deadlineSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.RMM_AGENT_UPDATE_DEADLINE_SECONDS);
  return Number.isInteger(n) && n > 0 && n <= 86_400 ? n : DEFAULT_DEADLINE_SECONDS;
}

/** `<prefix>/update.json`: an update waiting for the new version's first hello, or the report of a rollback. */
export type UpdateFile = { from: string; to: string; deadline: string } | { rolled_back: string; error: string };

export function updateFilePath(prefix: string): string {
  return join(prefix, 'update.json');
}

export function parseUpdateFile(text: string): UpdateFile | undefined {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  if (typeof v.rolled_back === 'string' && typeof v.error === 'string') return { rolled_back: v.rolled_back, error: v.error };
  if (typeof v.from === 'string' && typeof v.to === 'string' && typeof v.deadline === 'string' && !Number.isNaN(Date.parse(v.deadline))) {
    return { from: v.from, to: v.to, deadline: v.deadline };
  }
  return undefined;
}

export function readUpdateFile(prefix: string): UpdateFile | undefined {
  let text: string;
  try {
    text = readFileSync(updateFilePath(prefix), 'utf8');
  } catch {
    return undefined;
  }
  return parseUpdateFile(text);
}

/** Written atomically, 0600. */
export function writeUpdateFile(prefix: string, file: UpdateFile): void {
  const path = updateFilePath(prefix);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(file) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

export function removeUpdateFile(prefix: string): void {
  rmSync(updateFilePath(prefix), { force: true });
}

/** What `run` does at start about update.json. */
export type StartupAction =
  | { kind: 'none' }
  /** This process is the new version: confirm on the first hello, roll back after `inMs`. */
  | { kind: 'confirm'; from: string; to: string; inMs: number }
  /** Send update.failed after the first hello, then forget the file. */
  | { kind: 'report'; version: string; error: string };

export function startupAction(file: UpdateFile | undefined, ownVersion: string, nowMs: number, maxSeconds: number): StartupAction {
  if (!file) return { kind: 'none' };
  if ('rolled_back' in file) return { kind: 'report', version: file.rolled_back, error: file.error };
  if (file.to !== ownVersion) {
    // The swap happened, yet another version runs (someone put a binary back by hand): the offer did not take.
    return { kind: 'report', version: file.to, error: `${file.to} was installed, but ${ownVersion} started instead` };
  }
  // The deadline was set when the update was made; a restart in between (a crash, the service manager) keeps it.
  const inMs = Math.min(Math.max(0, Date.parse(file.deadline) - nowMs), maxSeconds * 1000);
  return { kind: 'confirm', from: file.from, to: file.to, inMs };
}

/** The files beside the running binary (`<prefix>/bin/rmm-agent[.exe]` when installed by the installer). */
export function binaryPaths(execPath: string): { running: string; staged: string; previous: string; failed: string } {
  const dir = dirname(execPath);
  const ext = basename(execPath).toLowerCase().endsWith('.exe') ? '.exe' : '';
  return {
    running: execPath,
    staged: join(dir, 'rmm-agent.download'),
    previous: join(dir, `rmm-agent.previous${ext}`),
    failed: join(dir, `rmm-agent.failed${ext}`),
  };
}

/**
 * Streams `url` into `file` (created 0700), hashing as it goes; throws with a reason when the answer is not
 * 200, passes `size` bytes, or its SHA-256 is not `sha256`. A gzip transfer is decoded by fetch: the hash is of
 * the binary.
 */
export async function download(url: URL, file: string, expected: { sha256: string; size: number }, timeoutMs = DOWNLOAD_TIMEOUT_MS): Promise<void> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' }).catch((err: Error) => {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    throw new Error(`download failed: ${cause ?? err.message}`);
  });
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`download failed: HTTP ${res.status}`);
  }
  const hash = createHash('sha256');
  const out = await open(file, 'w', 0o700);
  let bytes = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      if (bytes > expected.size) throw new Error(`download failed: more than the ${expected.size} bytes offered`);
      hash.update(chunk);
      await out.write(chunk);
    }
  } catch (err) {
    if ((err as Error).message.startsWith('download failed')) throw err;
    const why = (err as Error).name === 'TimeoutError' ? `not finished within ${timeoutMs / 1000} s` : (err as Error).message;
    throw new Error(`download failed: ${why}`, { cause: err });
  } finally {
    await out.close();
  }
  if (bytes !== expected.size) throw new Error(`download failed: ${bytes} bytes, ${expected.size} offered`);
  const sha256 = hash.digest('hex');
  if (sha256 !== expected.sha256) throw new Error(`sha256 mismatch: the download is ${sha256}, the offer ${expected.sha256}`);
}

/** `<binary> --version`: its first line (rejects after the time-out or a non-zero exit). */
export function binaryVersion(binary: string, timeoutMs = VERSION_CHECK_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, ['--version'], { timeout: timeoutMs, windowsHide: true, maxBuffer: 64 * 1024 }, (err, stdout) => {
      if (err) reject(new Error(`the new binary did not run: ${err.killed ? `no answer to --version within ${timeoutMs / 1000} s` : err.message}`));
      else resolve(String(stdout).trim().split('\n')[0] ?? '');
    });
  });
}

/** Starts `execPath args` in its own session, its stderr on ours, and lets it live on after this process. */
export function respawn(execPath: string, args: string[]): void {
  const child = spawn(execPath, args, { detached: true, stdio: ['ignore', 'ignore', 'inherit'], windowsHide: true });
  child.unref();
}

/** How a trial ended: the new version connected, or why not (the text update.failed carries). */
export type TrialResult = { ok: true } | { ok: false; error: string };

/**
 * Starts `binary run --prefix PREFIX` as a version on trial: TRIAL_ENV set, stdin and stdout pipes to this
 * process (its stderr on ours). It connects with the agent's credentials and, once greeted, writes
 * `TRIAL_CONNECTED <version>` on its stdout; it stops when its stdin closes, so it never outlives the process
 * that supervises it.
 */
export function startTrial(binary: string, prefix: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawn(binary, ['run', '--prefix', prefix], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...env, [TRIAL_ENV]: '1' }, windowsHide: true });
}

/**
 * Supervises a version on trial (startTrial): resolves ok once it says it connected as `version`, or with the
 * reason it did not: it exited first, could not be started, or said nothing within `deadlineMs`. Either way the
 * child is gone when this resolves (told to stop by closing its stdin, killed after `stopMs`): two processes
 * of one agent never hold the channel at once.
 */
export function superviseTrial(child: ChildProcess, version: string, deadlineMs: number, stopMs = TRIAL_STOP_MS): Promise<TrialResult> {
  return new Promise((resolve) => {
    let outcome: TrialResult | undefined;
    let exited = child.exitCode !== null || child.signalCode !== null;
    let buffered = '';
    const finish = (result: TrialResult): void => {
      if (outcome) return;
      outcome = result;
      clearTimeout(deadline);
      if (exited) return resolve(result);
      // Stop it: its stdin closed is "stop" (a trial that connected leaves the channel cleanly), then SIGKILL.
      child.stdin?.end();
      if (!result.ok) child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), result.ok ? stopMs : Math.min(stopMs, 2_000));
      // Past a SIGKILL a process is gone; a bound all the same, so that a stuck kill cannot hold this one for good.
      const giveUp = setTimeout(() => resolve(result), stopMs * 2);
      child.once('exit', () => {
        clearTimeout(kill);
        clearTimeout(giveUp);
        resolve(result);
      });
    };
    const deadline = setTimeout(() => finish({ ok: false, error: `${version} did not connect within ${Math.round(deadlineMs / 1000)} s` }), deadlineMs);
    child.stdin?.on('error', () => undefined); // (EPIPE: it is gone already; 'exit' says how)
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffered = (buffered + chunk).slice(-4096);
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      if (lines.some((l) => l.trim() === `${TRIAL_CONNECTED} ${version}`)) finish({ ok: true });
    });
    child.once('error', (err) => {
      exited = child.pid === undefined || exited; // (a spawn that failed has no process to wait for)
      finish({ ok: false, error: `${version} could not be started: ${err.message}` });
    });
    child.once('exit', (code, signal) => {
      exited = true;
      const how = code !== null ? `exited with code ${code}` : `was ended by ${signal ?? 'a signal'}`;
      finish({ ok: false, error: `${version} ${how} before connecting` });
    });
  });
}

export type Send = (message: AgentMessage) => boolean;

export interface UpdaterOptions {
  prefix: string;
  server: string;
  /** The raw update key, or undefined: this agent does not update itself. */
  key: Buffer | undefined;
  version: string;
  /** This build's target; null for the Node.js bundle. */
  target: AgentTarget | null;
  execPath: string;
  log: (line: string) => void;
  /** Stop the channel and start this binary again (run --service: exit 10; otherwise respawn and exit 0). */
  restart: () => void;
  /** Close the channel and keep it closed while a new version is on trial (AgentChannel.pause). */
  pause: () => Promise<void>;
  /** Connect again after a trial that failed (AgentChannel.resume). */
  resume: () => void;
  /** This process is a new version on trial (TRIAL_ENV): it touches no file and takes no offer. */
  trial?: boolean;
  /** A version on trial, once greeted: tell the process supervising it (a line on stdout). */
  onTrialConnected?: () => void;
  /** Starts the new version on trial (tests: another program); startTrial by default. */
  startTrial?: (binary: string, prefix: string) => ChildProcess;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** The update procedure (steps 1–5 of the contract, in apps/agent/README.md "Self-update"). One per `run` process. */
export class Updater {
  private busy = false;
  /** An update begun by an agent before the supervised trial (update.json with a deadline): this process confirms it. */
  private confirming?: { from: string; to: string; timer: NodeJS.Timeout };
  /** The version on trial, while one runs. */
  private trialChild?: ChildProcess;
  private trialConnected = false;
  /** An update.failed not yet delivered (no open connection when it happened): sent after the next hello. */
  private unsent?: UpdateFailedMessage;
  private readonly paths: ReturnType<typeof binaryPaths>;

  constructor(private readonly o: UpdaterOptions) {
    this.paths = binaryPaths(o.execPath);
  }

  /** The heartbeat's update_target: this build's target when it can update itself. */
  get updateTarget(): AgentTarget | undefined {
    return this.o.target !== null && this.o.key ? this.o.target : undefined;
  }

  /** At `run` start: what update.json says. A version on trial leaves every file to its supervisor. */
  start(): void {
    if (this.o.trial) return;
    try {
      rmSync(this.paths.staged, { force: true }); // a download an earlier process left half done, or a trial's
      if ((this.o.platform ?? process.platform) === 'win32') rmSync(this.paths.failed, { force: true });
    } catch (err) {
      this.o.log(`left behind: ${(err as Error).message}`);
    }
    const action = startupAction(readUpdateFile(this.o.prefix), this.o.version, Date.now(), deadlineSeconds(this.o.env));
    switch (action.kind) {
      case 'none':
        return;
      case 'report':
        this.unsent = { type: 'update.failed', version: action.version, error: failureText(action.error) };
        this.o.log(`the update to ${action.version} failed (${action.error}); telling the server once connected`);
        return;
      case 'confirm': {
        const seconds = Math.round(action.inMs / 1000);
        this.o.log(`updated from ${action.from} to ${action.to} by an agent that does not supervise a trial: rolling back unless the server greets this version within ${seconds} s`);
        const timer = setTimeout(() => this.rollBack(), action.inMs);
        this.confirming = { from: action.from, to: action.to, timer };
        return;
      }
    }
  }

  /** After each hello: a trial says it connected; a (legacy) update is confirmed; a failure not told yet is told. */
  onHello(send: Send): void {
    if (this.o.trial) {
      if (!this.trialConnected) {
        this.trialConnected = true;
        this.o.log(`greeted by the server as ${this.o.version}: telling the version that started this trial`);
        this.o.onTrialConnected?.();
      }
      return;
    }
    if (this.confirming) {
      clearTimeout(this.confirming.timer);
      this.o.log(`the update from ${this.confirming.from} to ${this.confirming.to} is done`);
      this.confirming = undefined;
      removeUpdateFile(this.o.prefix);
    }
    if (this.unsent && send(this.unsent)) {
      this.unsent = undefined;
      removeUpdateFile(this.o.prefix);
    }
  }

  /** The process is stopping: a version on trial stops with it (its stdin closes too when this process is gone). */
  stop(): void {
    const child = this.trialChild;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      child.kill('SIGTERM');
    }
  }

  /**
   * update.available (steps 1–5). Never throws: a failure is told to the server and the agent keeps running
   * (connected again after a trial that failed).
   */
  async offer(msg: UpdateAvailableMessage, send: Send): Promise<void> {
    const ignore = this.whyIgnore(msg);
    if (ignore) {
      this.o.log(`ignored update.available: ${ignore}`);
      return;
    }
    this.busy = true;
    const { staged } = this.paths;
    try {
      const invalid = checkOffer(msg);
      if (invalid) throw new Error(`invalid offer: ${invalid}`);
      if (!verifyUpdateSignature(this.o.key!, msg)) throw new Error('invalid signature: the offer is not signed by this agent\'s update key');
      const url = resolveDownloadUrl(this.o.server, msg.url);
      if (typeof url === 'string') throw new Error(url);
      this.o.log(`updating to ${msg.version}: downloading ${msg.size} bytes from ${url.href}`);
      await download(url, staged, msg);
      chmodSync(staged, 0o755);
      const version = await binaryVersion(staged);
      if (version !== msg.version) throw new Error(`the new binary says it is ${JSON.stringify(version.slice(0, 100))}, not ${msg.version}`);
    } catch (err) {
      rmSync(staged, { force: true });
      this.busy = false;
      const error = failureText((err as Error).message);
      this.o.log(`update to ${typeof msg.version === 'string' ? msg.version : '?'} refused: ${error}`);
      if (typeof msg.version === 'string') this.tell({ type: 'update.failed', version: msg.version.slice(0, 100), error }, send);
      return;
    }
    const trial = await this.trial(msg.version);
    let error = trial.ok ? undefined : trial.error;
    if (trial.ok) {
      try {
        this.swap();
      } catch (err) {
        error = `${msg.version} connected, but could not be installed: ${(err as Error).message}`;
      }
    }
    if (error === undefined) {
      this.o.log(`${msg.version} connected on trial and is installed (${this.paths.previous} kept); restarting on it`);
      this.o.restart();
      return;
    }
    this.fail(msg.version, failureText(error));
  }

  /** Step 3: this process disconnects, starts the new version and waits for it to connect (or not). */
  private async trial(version: string): Promise<TrialResult> {
    const seconds = deadlineSeconds(this.o.env);
    this.o.log(`${version} downloaded and checked: disconnecting while it runs on trial (${seconds} s to connect)`);
    await this.o.pause();
    let child: ChildProcess;
    try {
      child = (this.o.startTrial ?? ((b, p) => startTrial(b, p, this.o.env ?? process.env)))(this.paths.staged, this.o.prefix);
    } catch (err) {
      return { ok: false, error: `${version} could not be started: ${(err as Error).message}` };
    }
    this.trialChild = child;
    try {
      return await superviseTrial(child, version, seconds * 1000);
    } finally {
      this.trialChild = undefined;
    }
  }

  /** A trial that failed: the download goes, this version connects again and tells the server (kept in update.json meanwhile). */
  private fail(version: string, error: string): void {
    try {
      rmSync(this.paths.staged, { force: true });
    } catch (err) {
      this.o.log(`${this.paths.staged} not removed: ${(err as Error).message}`); // (Windows: removed at the next start)
    }
    try {
      writeUpdateFile(this.o.prefix, { rolled_back: version, error });
    } catch (err) {
      this.o.log(`update.json not written: ${(err as Error).message}`);
    }
    this.busy = false;
    this.unsent = { type: 'update.failed', version: version.slice(0, 100), error };
    this.o.log(`${error}: staying on ${this.o.version}; reconnecting`);
    this.o.resume();
  }

  private whyIgnore(msg: UpdateAvailableMessage): string | undefined {
    if (this.o.trial) return 'this process is a new version on trial';
    if (this.o.target === null) return 'this agent is not a binary build (the Node.js bundle does not update itself)';
    if (!this.o.key) return 'no update key in state.json (register --update-key)';
    if (msg.target !== this.o.target) return `for ${String(msg.target)}, this agent is ${this.o.target}`;
    if (msg.version === this.o.version) return `already version ${this.o.version}`;
    if (this.busy) return 'an update is in progress';
    if (this.confirming) return `the update to ${this.confirming.to} is not confirmed yet`;
    return undefined;
  }

  private tell(message: UpdateFailedMessage, send: Send): void {
    if (!send(message)) this.unsent = message;
  }

  /** Step 4, once the trial connected: previous ← running, running ← staged; undone if the second fails. */
  private swap(): void {
    const { running, staged, previous } = this.paths;
    renameSync(running, previous);
    try {
      renameSync(staged, running);
    } catch (err) {
      renameSync(previous, running);
      throw err;
    }
    removeUpdateFile(this.o.prefix); // (a report of an earlier failure: this version is what the server offers now)
  }

  /**
   * An update begun by an agent before the supervised trial (update.json `{from, to, deadline}`): this new version
   * was swapped in and restarted by it, and did not reach the server in time: restore the previous binary and restart it.
   */
  private rollBack(): void {
    const confirming = this.confirming;
    if (!confirming) return;
    this.confirming = undefined;
    const { running, previous, failed } = this.paths;
    const error = `${confirming.to} did not connect within ${deadlineSeconds(this.o.env)} s`;
    if (!existsSync(previous)) {
      this.o.log(`${error}, and there is no ${previous} to go back to: staying on ${confirming.to}`);
      removeUpdateFile(this.o.prefix);
      return;
    }
    try {
      if ((this.o.platform ?? process.platform) === 'win32') {
        // Windows cannot replace a running executable, but can rename it (removed at the next start)
        renameSync(running, failed);
        try {
          renameSync(previous, running);
        } catch (err) {
          renameSync(failed, running);
          throw err;
        }
      } else {
        renameSync(previous, running);
      }
      writeUpdateFile(this.o.prefix, { rolled_back: confirming.to, error });
    } catch (err) {
      this.o.log(`${error}; the rollback to ${confirming.from} failed: ${(err as Error).message}`);
      return;
    }
    this.o.log(`${error}: rolled back to ${confirming.from}; restarting`);
    this.o.restart();
  }
}
