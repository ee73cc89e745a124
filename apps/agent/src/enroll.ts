// rmm-enroll: the caller of the spec's "Caller sequence for enrolling a device" (steps 1–5), for a user who
// enrolls the machine it runs on. Built to one file, dist/agent/rmm-enroll.js (scripts/build-agent.js);
// `npm run enroll -- …` runs it. Steps go to stderr, the agent id to stdout; never a token, password or key.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname as osHostname, tmpdir } from 'node:os';
import { join } from 'node:path';

const USAGE = `usage: rmm-enroll --url BASE_URL --anon-key KEY --email E --password P
                  [--hostname H] [--platform linux|darwin|windows] [--prefix DIR] [--no-service]
Signs in, asks POST /functions/v1/enroll-rmm for a deployment, downloads and runs its installer, waits for
the agent to register and stores its id in the user's profile. Prints the agent id on stdout.
Exit codes: 1-5 the step that failed (1 sign-in, 2 deployment, 3 download/installer, 4 wait for the agent,
5 profile update), 64 wrong usage.`;

export const EXIT_USAGE = 64;
const STEPS = 5;
const INSTALLER_TIMEOUT_MS = 300_000;
const HTTP_TIMEOUT_MS = 30_000;

/** Test knobs (not for production use): the poll's interval and its overall limit. */
function envMs(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

class Failure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** A failure of step n: exits with n. */
const stepFailure = (step: number, why: string) => new Failure(`step ${step}/${STEPS} failed: ${why}`, step);

function say(step: number, what: string): void {
  process.stderr.write(`[${step}/${STEPS}] ${what}\n`);
}

interface Options {
  url: string;
  anonKey: string;
  email: string;
  password: string;
  hostname: string;
  platform: string;
  prefix?: string;
  noService: boolean;
}

function defaultPlatform(): string {
  return process.platform === 'win32' ? 'windows' : process.platform;
}

export function parseArgs(argv: string[]): Options {
  const values: Record<string, string> = {};
  let noService = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--no-service') {
      noService = true;
      continue;
    }
    if (arg === '--help' || arg === '-h') throw new Failure(USAGE, EXIT_USAGE);
    const m = /^--(url|anon-key|email|password|hostname|platform|prefix)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new Failure(`unexpected argument: ${arg}\n${USAGE}`, EXIT_USAGE);
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new Failure(`--${m[1]} needs a value`, EXIT_USAGE);
    values[m[1]] = value;
  }
  const missing = ['url', 'anon-key', 'email', 'password'].filter((k) => !values[k]);
  if (missing.length) throw new Failure(`missing ${missing.map((k) => `--${k}`).join(', ')}\n${USAGE}`, EXIT_USAGE);
  let url: string;
  try {
    const u = new URL(values.url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    url = u.toString().replace(/\/+$/, '');
  } catch {
    throw new Failure(`--url must be an http:// or https:// URL`, EXIT_USAGE);
  }
  const hostname = values.hostname || process.env.RMM_AGENT_HOSTNAME || osHostname();
  return {
    url,
    anonKey: values['anon-key'],
    email: values.email,
    password: values.password,
    hostname,
    platform: values.platform || defaultPlatform(),
    prefix: values.prefix,
    noService,
  };
}

/** The server's own words from an error body ({msg}, {message}, {error}, {detail}…), never more than a line or two. */
function serverMessage(status: number, text: string): string {
  let message: string | undefined;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const k of ['error_description', 'msg', 'message', 'error', 'detail']) {
      if (typeof body?.[k] === 'string' && body[k]) {
        message = body[k];
        break;
      }
    }
  } catch {
    /* not JSON */
  }
  message ??= text.trim().slice(0, 300) || '(empty answer)';
  return `HTTP ${status}: ${message}`;
}

async function call(step: number, url: string, init: RequestInit): Promise<{ status: number; text: string; json: any }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw stepFailure(step, `cannot reach ${new URL(url).origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

async function signIn(o: Options): Promise<{ token: string; userId: string }> {
  say(1, `signing in as ${o.email}…`);
  const res = await call(1, `${o.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: o.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: o.email, password: o.password }),
  });
  if (res.status !== 200) throw stepFailure(1, `sign-in refused: ${serverMessage(res.status, res.text)}`);
  const token = res.json?.access_token;
  const userId = res.json?.user?.id;
  if (typeof token !== 'string' || typeof userId !== 'string') throw stepFailure(1, 'the sign-in answer has no access_token or user id');
  return { token, userId };
}

async function requestDeployment(o: Options, token: string): Promise<{ downloadUrl: string; uuid: string }> {
  say(2, `asking for a deployment for ${o.hostname} (${o.platform})…`);
  const res = await call(2, `${o.url}/functions/v1/enroll-rmm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ hostname: o.hostname, platform: o.platform }),
  });
  if (res.status !== 200) throw stepFailure(2, serverMessage(res.status, res.text));
  const { download_url: downloadUrl, deployment_uuid: uuid } = (res.json ?? {}) as Record<string, unknown>;
  if (typeof downloadUrl !== 'string' || typeof uuid !== 'string') throw stepFailure(2, 'the answer has no download_url or deployment_uuid');
  process.stderr.write(`      deployment ${uuid}\n`);
  return { downloadUrl, uuid };
}

function progress(received: number, total: number | undefined): void {
  if (!process.stderr.isTTY) return;
  const kb = (n: number) => `${Math.round(n / 1024)} KiB`;
  if (total) {
    const width = 30;
    const done = Math.min(width, Math.round((received / total) * width));
    process.stderr.write(`\r      [${'#'.repeat(done)}${'.'.repeat(width - done)}] ${kb(received)} / ${kb(total)}`);
  } else {
    process.stderr.write(`\r      ${kb(received)}`);
  }
}

async function download(o: Options, downloadUrl: string, dir: string): Promise<string> {
  say(3, 'downloading the installer…');
  const u = new URL(downloadUrl);
  u.searchParams.set('platform', o.platform);
  let res: Response;
  try {
    res = await fetch(u, { redirect: 'follow', signal: AbortSignal.timeout(INSTALLER_TIMEOUT_MS) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw stepFailure(3, `cannot download the installer from ${u.origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (res.status !== 200) throw stepFailure(3, `download refused: ${serverMessage(res.status, await res.text())}`);
  const total = Number(res.headers.get('content-length')) || undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  if (res.body) {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      chunks.push(Buffer.from(chunk));
      received += chunk.length;
      progress(received, total);
    }
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  const body = Buffer.concat(chunks);
  const windows = o.platform === 'windows';
  if (!windows && !body.subarray(0, 2).equals(Buffer.from('#!'))) {
    throw stepFailure(3, 'the installer is not a shell script (the server served something else; is it older than the installer?)');
  }
  const file = join(dir, windows ? 'rmm-installer.ps1' : 'rmm-installer.sh');
  writeFileSync(file, body, { mode: 0o700 });
  return file;
}

const INSTALLER_EXITS: Record<number, string> = {
  2: 'unknown deployment',
  3: 'deployment revoked, expired or used up: enroll again for a new one',
  4: 'requirements missing on this machine',
  5: 'this hostname is already enrolled by another device: if this is a reinstall of it, ask an operator to allow re-enrollment (the console\'s agent page, "Allow re-enrollment", or POST /api/v3/agents/{id}/reenroll/) and enroll again within 24 hours, or to delete the old agent',
  64: 'the installer did not accept its options',
};

function runInstaller(o: Options, file: string): Promise<void> {
  say(3, `running the installer${o.prefix ? ` (prefix ${o.prefix})` : ''}…`);
  const args = [...(o.prefix ? ['--prefix', o.prefix] : []), ...(o.noService ? ['--no-service'] : [])];
  const [cmd, argv] = o.platform === 'windows' ? ['powershell', ['-ExecutionPolicy', 'Bypass', '-File', file, ...args]] : ['sh', [file, ...args]];
  // The server registers the device under the hostname asked for at step 2 (--hostname included): the agent
  // reports the machine's own name (RMM_AGENT_HOSTNAME, when set here, still overrides it), kept as os_hostname.
  const env = { ...process.env };
  return new Promise((resolve, reject) => {
    // the installer's output goes to stderr: stdout carries the agent id only
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 2, 2], detached: process.platform !== 'win32' });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (process.platform !== 'win32' && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        /* gone already */
      }
    }, INSTALLER_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(stepFailure(3, `cannot run ${cmd}: ${err.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return reject(stepFailure(3, `the installer did not finish within ${INSTALLER_TIMEOUT_MS / 1000} s`));
      if (code === 0) return resolve();
      const why = code === null ? `killed by ${signal}` : `exit code ${code}${INSTALLER_EXITS[code] ? ` (${INSTALLER_EXITS[code]})` : ''}`;
      reject(stepFailure(3, `the installer failed: ${why}`));
    });
  });
}

async function waitForAgent(o: Options, token: string, uuid: string): Promise<number> {
  const interval = envMs('ENROLL_POLL_INTERVAL_MS', 5_000);
  const limit = envMs('ENROLL_POLL_TIMEOUT_MS', 120_000);
  say(4, `waiting for the agent to register (every ${interval / 1000} s, at most ${limit / 1000} s)…`);
  const deadline = Date.now() + limit;
  let last: string;
  for (;;) {
    const res = await call(4, `${o.url}/functions/v1/enroll-rmm/status?deployment_uuid=${encodeURIComponent(uuid)}`, {
      headers: { authorization: `Bearer ${token}` },
    }).catch((err: Failure) => ({ status: 0, text: err.message, json: undefined }));
    if (res.status === 200) {
      const id = res.json?.agent_id;
      const n = typeof id === 'string' ? Number(id) : id;
      if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) return n;
      last = `status ${res.json?.status ?? 'unknown'}`;
    } else if (res.status === 400 || res.status === 401 || res.status === 404) {
      throw stepFailure(4, serverMessage(res.status, res.text));
    } else {
      last = res.status ? serverMessage(res.status, res.text) : res.text;
    }
    if (Date.now() + interval > deadline) break;
    await new Promise((r) => setTimeout(r, interval));
  }
  // No automatic retry: each retry would create another deployment (the spec's caller sequence, step 4).
  throw stepFailure(
    4,
    `timed out after ${limit / 1000} s: no agent registered for deployment ${uuid} (last: ${last}). ` +
      'Not retried automatically, because each retry would create another deployment; check the installer and enroll again.',
  );
}

async function storeAgentId(o: Options, token: string, userId: string, agentId: number): Promise<void> {
  say(5, `storing agent ${agentId} in the user's profile…`);
  const res = await call(5, `${o.url}/rest/v1/user_profiles?id=eq.${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    headers: { apikey: o.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
    body: JSON.stringify({ rmm_agent_id: agentId }),
  });
  if (res.status !== 204) throw stepFailure(5, serverMessage(res.status, res.text));
}

export async function enroll(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  const { token, userId } = await signIn(o);
  const { downloadUrl, uuid } = await requestDeployment(o, token);
  const dir = mkdtempSync(join(tmpdir(), 'rmm-enroll-'));
  try {
    const file = await download(o, downloadUrl, dir);
    await runInstaller(o, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const agentId = await waitForAgent(o, token, uuid);
  await storeAgentId(o, token, userId, agentId);
  process.stderr.write(`enrolled: agent ${agentId}\n`);
  process.stdout.write(`${agentId}\n`);
  return 0;
}

if (require.main === module) {
  enroll(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof Failure) {
        process.stderr.write(`${err.message}\n`);
        process.exit(err.code);
      }
      process.stderr.write(`failed: ${(err as Error)?.message ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
