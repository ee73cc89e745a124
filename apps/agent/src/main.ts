// The reference agent: `register`, `run`, `start`, `stop`, `status`, `uninstall` (apps/agent/README.md). Built to one file, dist/agent/rmm-agent.js.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_PID, BACKGROUND_ENV, RUN_PID, runningAgent, startInBackground, stopAgent } from './background';
import { AgentChannel, EXIT_STOPPED, USER_AGENT } from './channel';
import { collectFacts, hardwareId, rawMachineId } from './facts';
import { parseRegistered } from './inbound';
import { AGENT_TARGET, AGENT_VERSION } from './protocol';
import { AgentState, DEFAULT_PREFIX, parseUpdateKey, prefixOf, readState, writeState } from './state';
import { uninstall } from './uninstall';
import { EXIT_RESTART, respawn, TRIAL_CONNECTED, TRIAL_ENV, Updater } from './update';

const USAGE = `rmm-agent ${AGENT_VERSION}${AGENT_TARGET ? ` (${AGENT_TARGET})` : ''}
usage:
  rmm-agent register --server URL --token DEPLOYMENT_UUID [--prefix DIR] [--update-key KEY]
  rmm-agent run [--service] [--prefix DIR]
  rmm-agent start [--prefix DIR]       run in the background (log DIR/agent.log, pid DIR/agent.pid)
  rmm-agent stop [--prefix DIR]
  rmm-agent status [--prefix DIR]      exit 3: not running
  rmm-agent uninstall [--prefix DIR]
  rmm-agent --version
--prefix defaults to the installation this program is in (DIR/bin/rmm-agent), else ${DEFAULT_PREFIX};
env RMM_AGENT_HOSTNAME overrides the hostname sent at registration.
--update-key: the server's update key (base64); --service: a service manager restarts this process (exit 10).`;

/** Exit codes (apps/agent/README.md). */
const EXIT_FAILED = 1;
const EXIT_UNKNOWN_DEPLOYMENT = 2;
const EXIT_DEPLOYMENT_GONE = 3;
const EXIT_HOSTNAME_ENROLLED = 5;
/** `status`: no `run` process of this prefix (systemd's and LSB's "not running"). */
const EXIT_NOT_RUNNING = 3;
const EXIT_USAGE = 64;

class Failure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** A new version on trial, started by the running one (update.ts, startTrial): its lines say so. */
const TRIAL = process.env[TRIAL_ENV] === '1';

function log(line: string): void {
  process.stderr.write(`${new Date().toISOString()} ${TRIAL ? `[trial of ${AGENT_VERSION}] ` : ''}${line}\n`);
}

/** Options that take no value (present: 'true'). */
const FLAGS = new Set(['service']);

/**
 * The command and its options, in any order (`status --prefix DIR`, or `--prefix DIR status` as the Node.js
 * agent's wrapper puts it when called with nothing: `rmm-agent` alone is no command).
 */
function parseArgs(argv: string[]): { command?: string; options: Record<string, string> } {
  const options: Record<string, string> = {};
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) {
      if (command === undefined && !argv[i].startsWith('-')) {
        command = argv[i];
        continue;
      }
      throw new Failure(`unexpected argument: ${argv[i]}\n${USAGE}`, EXIT_USAGE);
    }
    if (FLAGS.has(m[1])) {
      if (m[2] !== undefined) throw new Failure(`--${m[1]} takes no value`, EXIT_USAGE);
      options[m[1]] = 'true';
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new Failure(`--${m[1]} needs a value`, EXIT_USAGE);
    options[m[1]] = value;
  }
  return { command, options };
}

/** The program to start again as a `run` (start): the binary itself, or node and the bundle. */
const SELF: { command: string; args: string[] } = AGENT_TARGET ? { command: process.execPath, args: [] } : { command: process.execPath, args: [process.argv[1]] };

/** The prefix of a command (state.ts, prefixOf): --prefix, else this installation's, else /opt/rmm-agent. */
const prefix = (options: Record<string, string>): string => prefixOf(options.prefix, AGENT_TARGET ? process.execPath : (process.argv[1] ?? ''));

async function register(options: Record<string, string>): Promise<number> {
  const { server, token } = options;
  if (!server || !token) throw new Failure(`register needs --server and --token\n${USAGE}`, EXIT_USAGE);
  let base: string;
  try {
    const u = new URL(server);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    base = u.toString().replace(/\/+$/, '');
  } catch {
    throw new Failure(`--server must be an http:// or https:// URL, not ${server}`, EXIT_USAGE);
  }
  const updateKey = options['update-key'];
  if (updateKey !== undefined && !parseUpdateKey(updateKey)) {
    throw new Failure('--update-key must be the base64 of a 32-byte Ed25519 public key (the server prints it: npm run cli -- keys show)', EXIT_USAGE);
  }
  const dir = prefix(options);
  const facts = collectFacts();
  // The proof that this is the installation already enrolled under this hostname (docs/agent-protocol.md §1): the
  // secret of the previous installation in this prefix (state.json, mode 0600), sent only to the server it was
  // issued by (never another server's secret). The hardware id goes along as a fact, never as proof.
  const previous = previousState(dir);
  const proven = previous && previous.server === base && /^\d{1,10}$/.test(previous.agent_id) && previous.agent_secret !== '';
  const request = {
    ...facts,
    ...optional('hardware_id', hardwareId(rawMachineId())),
    ...(proven ? { agent_id: previous.agent_id, agent_secret: previous.agent_secret } : {}),
  };
  let res: Response;
  for (let attempt = 1; ; attempt++) {
    try {
      res = await fetch(`${base}/agent/v1/register`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      throw new Failure(`cannot reach ${base}: ${cause ?? (err as Error).message}`, EXIT_FAILED);
    }
    // 429: the deployment's registrations per minute are spent (many devices installing at once); wait as told.
    if (res.status !== 429 || attempt > REGISTER_RETRIES) break;
    const seconds = Math.min(Math.max(Number(res.headers.get('retry-after')) || 1, 1), 60);
    await res.text().catch(() => undefined);
    log(`registration rate limited: retrying in about ${seconds} s (${attempt}/${REGISTER_RETRIES})`);
    await new Promise((r) => setTimeout(r, seconds * 1000 + Math.floor(Math.random() * 1000)));
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not JSON: reported below by its status */
  }
  const detail = typeof body.detail === 'string' ? body.detail : text.slice(0, 200);
  if (res.status === 404) throw new Failure(`registration refused: ${detail}\ncheck the enrollment token (--token)`, EXIT_UNKNOWN_DEPLOYMENT);
  if (res.status === 410) throw new Failure(`registration refused: ${detail}`, EXIT_DEPLOYMENT_GONE);
  if (res.status === 409) {
    throw new Failure(
      `registration refused: ${detail}\nthis hostname is enrolled in this client and this installation could not prove it is that agent ` +
        `(no state file of it in ${dir} with its current secret; the machine id proves nothing). If this is a reinstall of that device, ` +
        "ask an operator to allow re-enrollment of the agent listed under this hostname (the console's agent page, \"Allow re-enrollment\", " +
        'or POST /api/v3/agents/{id}/reenroll/) and run the installer again within 24 hours, or to delete the old agent ' +
        '(or, unless the deployment came from the enrollment function, which names the device itself, set RMM_AGENT_HOSTNAME)',
      EXIT_HOSTNAME_ENROLLED,
    );
  }
  if (res.status !== 200) {
    const errors = Array.isArray(body.errors) ? `\n${JSON.stringify(body.errors)}` : '';
    throw new Failure(`registration failed: HTTP ${res.status}: ${detail}${errors}`, EXIT_FAILED);
  }
  const reg = parseRegistered(body);
  if (typeof reg === 'string') throw new Failure(`registration failed: the server's answer is not one of the protocol: ${reg}`, EXIT_FAILED);
  // Without --update-key, a re-registration with the same server keeps the key it had.
  const keep = updateKey ?? (previous?.server === base ? previous.update_key : undefined);
  const file = writeState(dir, { server: base, agent_id: reg.agent_id, agent_secret: reg.agent_secret, ...(keep ? { update_key: keep } : {}) });
  // The server may register the device under another name than its own: the hostname the enrollment function was asked for.
  const as = reg.hostname && reg.hostname !== facts.hostname ? `as ${reg.hostname} (this machine: ${facts.hostname})` : `as ${facts.hostname}`;
  log(`registered ${as}: agent ${reg.agent_id}${reg.reenrolled ? ' (re-enrolled: same agent id, new secret)' : ''}; state in ${file}`);
  process.stdout.write(`${reg.agent_id}\n`);
  return 0;
}

/** Attempts after a 429 (each waits the server's Retry-After, at most 60 s, plus up to 1 s of jitter). */
const REGISTER_RETRIES = 4;

const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** The state file a previous installation left in this prefix, if any (a missing or damaged one is no proof: none). */
function previousState(prefix: string): AgentState | undefined {
  try {
    return readState(prefix);
  } catch {
    return undefined;
  }
}

async function run(options: Record<string, string>): Promise<number> {
  const dir = prefix(options);
  const service = options.service === 'true';
  const state = readState(dir);
  // A version on trial is not the agent's process yet: the pid files keep naming the one supervising it.
  const pidFile = TRIAL ? undefined : join(dir, RUN_PID);
  if (pidFile) writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  // A background agent (`start`) keeps agent.pid naming it, also once a self-update has started a new process.
  const agentPidFile = process.env[BACKGROUND_ENV] === '1' && !TRIAL ? join(dir, AGENT_PID) : undefined;
  if (agentPidFile) writeFileSync(agentPidFile, `${process.pid}\n`, { mode: 0o600 });
  let respawnAtExit = false;
  const updater = new Updater({
    prefix: dir,
    server: state.server,
    key: state.update_key ? parseUpdateKey(state.update_key) : undefined,
    version: AGENT_VERSION,
    target: AGENT_TARGET,
    execPath: process.execPath,
    log,
    // Under a service manager it starts the binary again (exit 10); otherwise this process does, on its way out.
    restart: () => {
      respawnAtExit = !service;
      channel.stop(service ? EXIT_RESTART : EXIT_STOPPED);
    },
    pause: () => channel.pause(),
    resume: () => channel.resume(),
    trial: TRIAL,
    onTrialConnected: () => process.stdout.write(`${TRIAL_CONNECTED} ${AGENT_VERSION}\n`),
  });
  const channel: AgentChannel = new AgentChannel(state, log, {
    updateTarget: updater.updateTarget,
    onHello: (send) => updater.onHello(send),
    onUpdateAvailable: (msg, send) => void updater.offer(msg, send),
    onUninstall: () => {
      log('the server asks this agent to uninstall itself');
      // Exit 0 even when something is left: a service manager would restart a failure, without a state file.
      uninstall(dir, { self: true, log });
      channel.stop(EXIT_STOPPED);
    },
  });
  updater.start();
  const onSignal = (signal: string): void => {
    log(`${signal}: stopping`);
    channel.stop(EXIT_STOPPED);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  if (TRIAL) {
    // The supervising version closes this pipe to end the trial, and so does its exit: a trial never outlives it.
    process.stdout.on('error', () => undefined);
    process.stdin.on('error', () => undefined);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      onSignal('the version that started this trial closed its pipe');
    };
    process.stdin.once('end', end);
    process.stdin.once('close', end);
    process.stdin.resume();
  }
  log(`rmm-agent ${AGENT_VERSION}: agent ${state.agent_id}, server ${state.server}`);
  const code = await channel.start();
  updater.stop();
  for (const file of [pidFile, agentPidFile]) {
    if (file && existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
  }
  // the new binary (or the restored one) writes run.pid itself
  if (respawnAtExit) respawn(process.execPath, process.argv.slice(2));
  return code;
}

/**
 * The server's answer to this agent's credentials: GET /agent/v1/ping (docs/agent-protocol.md), which registers
 * no presence (the channel would: online, then offline, in the console, with their notifications) and leaves a
 * running process's connection alone.
 */
async function ping(state: AgentState): Promise<{ ok: boolean; says: string }> {
  let res: Response;
  try {
    res = await fetch(`${state.server}/agent/v1/ping`, {
      headers: { 'X-Agent-Id': state.agent_id, Authorization: `Bearer ${state.agent_secret}`, 'User-Agent': USER_AGENT },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { ok: false, says: `not reachable (${cause ?? (err as Error).message})` };
  }
  await res.text().catch(() => undefined);
  if (res.status === 200) return { ok: true, says: 'server reachable, credentials accepted' };
  if (res.status === 401) return { ok: false, says: 'credentials refused (401): register again' };
  return { ok: false, says: `the server answered HTTP ${res.status}` };
}

/**
 * `status`: the agent id, the server, whether a `run` process of this prefix is alive (none: exit 3, as systemd's
 * `status`), and whether the server takes this agent's credentials (without connecting: no presence).
 */
async function status(options: Record<string, string>): Promise<number> {
  const dir = prefix(options);
  const state = readState(dir);
  process.stdout.write(`agent_id: ${state.agent_id}\nserver: ${state.server}\nprefix: ${dir}\n`);
  const running = runningAgent(dir);
  process.stdout.write(running ? `run process: ${running.pid}${running.service ? ' (service)' : ''}\n` : 'run process: none (not running)\n');
  const answer = await ping(state);
  process.stdout.write(`channel: ${answer.says}\n`);
  if (!running) {
    process.stderr.write(`the agent is not running: start it with ${join(dir, 'bin', 'rmm-agent')} start (or its service)\n`);
    return EXIT_NOT_RUNNING;
  }
  return answer.ok ? 0 : EXIT_FAILED;
}

async function start(options: Record<string, string>): Promise<number> {
  const dir = prefix(options);
  readState(dir); // registered first (a clear message here rather than in agent.log)
  return startInBackground({ prefix: dir, command: SELF.command, args: SELF.args, out: (line) => process.stderr.write(`rmm-agent: ${line}\n`) });
}

function uninstallCommand(options: Record<string, string>): number {
  const problems = uninstall(prefix(options), { self: false, log });
  if (problems.length === 0) return 0;
  process.stderr.write(`rmm-agent: uninstall incomplete:\n  ${problems.join('\n  ')}\n`);
  return EXIT_FAILED;
}

async function main(argv: string[]): Promise<number> {
  switch (argv[0]) {
    case 'version':
    case '--version':
      process.stdout.write(`${AGENT_VERSION}\n`);
      return 0;
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return 0;
  }
  const { command, options } = parseArgs(argv);
  switch (command) {
    case 'register':
      return register(options);
    case 'run':
      return run(options);
    case 'start':
      return start(options);
    case 'stop':
      return stopAgent(prefix(options), (line) => process.stderr.write(`rmm-agent: ${line}\n`));
    case 'status':
      return status(options);
    case 'uninstall':
      return uninstallCommand(options);
    case undefined:
      process.stderr.write(`no command given\n${USAGE}\n`);
      return EXIT_USAGE;
    default:
      process.stderr.write(`unknown command: ${command}\n${USAGE}\n`);
      return EXIT_USAGE;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`rmm-agent: ${(err as Error).message}\n`);
    process.exit(err instanceof Failure ? err.code : EXIT_FAILED);
  },
);
