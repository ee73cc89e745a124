import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const DEFAULT_PREFIX = '/opt/rmm-agent';

/**
 * The prefix a command works in: `--prefix` when given; else the installation this program is part of, when it
 * runs as `<prefix>/bin/rmm-agent[.exe]` (the binary) or `<prefix>/lib/rmm-agent.js` (the Node.js bundle) and
 * `<prefix>/state.json` exists; else /opt/rmm-agent. So `DIR/bin/rmm-agent status` reads DIR's state, whatever
 * the prefix was, and a copy in /usr/local/bin does not take /usr/local for a prefix.
 */
export function prefixOf(given: string | undefined, program: string, exists: (file: string) => boolean = existsSync): string {
  if (given !== undefined) return given;
  const folder = basename(dirname(program));
  const own = (folder === 'bin' && /^rmm-agent(\.exe)?$/i.test(basename(program))) || (folder === 'lib' && basename(program) === 'rmm-agent.js');
  const prefix = dirname(dirname(program));
  return own && exists(statePath(prefix)) ? prefix : DEFAULT_PREFIX;
}

/** What `register` leaves behind for `run` and `status`: <prefix>/state.json, mode 0600 (it holds the secret). */
export interface AgentState {
  server: string;
  agent_id: string;
  agent_secret: string;
  /** Base64 of the raw 32-byte Ed25519 public key that signs updates (`register --update-key`); absent: no self-update. */
  update_key?: string;
}

export function statePath(prefix: string): string {
  return join(prefix, 'state.json');
}

export function writeState(prefix: string, state: AgentState): string {
  mkdirSync(prefix, { recursive: true, mode: 0o700 });
  const file = statePath(prefix);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600); // the umask cannot widen it, but an existing file keeps its mode: set it
  renameSync(tmp, file);
  return file;
}

export function readState(prefix: string): AgentState {
  const file = statePath(prefix);
  let parsed: Partial<AgentState>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<AgentState>;
  } catch (err) {
    throw new Error(`cannot read ${file} (${(err as Error).message}): run \`register\` first`, { cause: err });
  }
  if (typeof parsed.server !== 'string' || typeof parsed.agent_id !== 'string' || typeof parsed.agent_secret !== 'string') {
    throw new Error(`${file} is not an agent state file: run \`register\` again`);
  }
  const state: AgentState = { server: parsed.server, agent_id: parsed.agent_id, agent_secret: parsed.agent_secret };
  // A damaged key is no key: the agent then runs without self-update rather than not at all.
  if (typeof parsed.update_key === 'string' && parseUpdateKey(parsed.update_key)) state.update_key = parsed.update_key;
  return state;
}

/** The raw key of `base64` (standard alphabet, padded) when it is exactly 32 bytes, else undefined. */
export function parseUpdateKey(base64: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(base64)) return undefined;
  const raw = Buffer.from(base64, 'base64');
  return raw.length === 32 && raw.toString('base64') === base64 ? raw : undefined;
}
