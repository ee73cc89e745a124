// The agent protocol's shapes (docs/agent-protocol.md), copied here: the agent shares nothing else with the server.

// Set by scripts/build-agent.js (esbuild's and Bun's `define`); absent when the sources run as they are (unit tests).
declare const __RMM_AGENT_VERSION__: string | undefined;
declare const __RMM_AGENT_TARGET__: string | undefined;

/** This build's version (the server's package.json version, or the build's --version). */
export const AGENT_VERSION: string = typeof __RMM_AGENT_VERSION__ === 'string' ? __RMM_AGENT_VERSION__ : '0.1.0';

/** The single-file binary target this build is (`linux-amd64`, …, `windows-amd64`); null for the Node.js bundle. */
export const AGENT_TARGET: string | null = typeof __RMM_AGENT_TARGET__ === 'string' ? __RMM_AGENT_TARGET__ : null;

export type Platform = 'windows' | 'darwin' | 'linux';

export interface Disk {
  device: string;
  free: string;
  total: string;
  percent: number;
}

/** POST /agent/v1/register body. */
export interface Facts {
  hostname: string;
  plat: Platform;
  version: string;
  operating_system?: string;
  arch?: string;
  cpu_model?: string;
  total_ram?: number;
  disks?: Disk[];
  public_ip?: string;
  local_ip?: string;
  logged_in_username?: string;
  monitoring_type?: 'server' | 'workstation';
}

/** POST /agent/v1/register answer (200). */
export interface Registered {
  agent_id: string;
  agent_secret: string;
  /** The name the agent is registered under: the one the enrollment function was asked for, else the one sent (older servers: absent). */
  hostname?: string;
  client: number;
  site: number;
  reenrolled: boolean;
}

export type Shell = 'bash' | 'python' | 'powershell' | 'cmd';

export interface HelloMessage {
  type: 'hello';
  agent_id: string;
  heartbeat_seconds: number;
  server_time: string;
}

export interface ScriptRunMessage {
  type: 'script.run';
  id: string;
  runId: number;
  shell: string;
  body: string;
  args: string[];
  timeoutSeconds: number;
}

export interface ErrorMessage {
  type: 'error';
  message: string;
}

export type CheckType = 'diskspace' | 'ping' | 'cpuload' | 'memory' | 'winsvc' | 'script' | 'eventlog';
export type CheckStatus = 'passing' | 'failing' | 'pending';

/** One check of the agent's list (checks.sync). */
export interface CheckDefinition {
  id: number;
  checkType: CheckType;
  name: string;
  /** Seconds between two runs. */
  runInterval: number;
  /** Per type: diskspace {drive, threshold_percent}, ping {target}, cpuload/memory {threshold_percent}, winsvc {service_name}, eventlog {log_name, event_id?, event_type?, search_text?}. */
  settings: Record<string, unknown>;
  /** Script checks: the script to run. */
  script?: { shell: string; body: string; args: string[]; timeoutSeconds: number };
}

/** The agent's whole list of checks: sent at connect and after every change. */
export interface ChecksSyncMessage {
  type: 'checks.sync';
  id?: string;
  checks: CheckDefinition[];
}

/**
 * A new version of this agent for its target (docs/agent-protocol.md, "Self-update"). `signature`: Ed25519, by
 * the server's update key, of `rmm-agent-update:v1:<target>:<version>:<sha256>` (updateSignedText in update.ts).
 */
export interface UpdateAvailableMessage {
  type: 'update.available';
  version: string;
  target: string;
  /** Resolved against the agent's server; another origin is refused. */
  url: string;
  /** Hex SHA-256 of the binary (not of a gzip transfer of it). */
  sha256: string;
  size: number;
  signature: string;
}

/** The operator deleted this agent with ?uninstall=true: remove the service and the prefix's files, exit 0. */
export interface AgentUninstallMessage {
  type: 'agent.uninstall';
}

export type ServerMessage = HelloMessage | ScriptRunMessage | ChecksSyncMessage | ErrorMessage | UpdateAvailableMessage | AgentUninstallMessage;

export interface ScriptResult {
  retcode: number | null;
  stdout: string;
  stderr: string;
  executionTime: number;
  timedOut: boolean;
}

/**
 * The facts a heartbeat carries: the registration's, minus monitoring_type (the operator's once enrolled). Its
 * hostname is the device's own name: the server keeps it as os_hostname and does not rename the agent.
 */
export type HeartbeatFacts = Omit<Facts, 'monitoring_type'> & {
  /** The binary target this agent can update itself to (sent only by a binary that holds an update key). */
  update_target?: string;
};

export type AgentMessage =
  | { type: 'heartbeat'; facts?: Partial<HeartbeatFacts> }
  | { type: 'script.output'; runId: number; stream: 'stdout' | 'stderr'; chunk: string; seq: number }
  | { type: 'result'; id: string; ok: true; result: ScriptResult }
  | { type: 'result'; id: string; ok: false; error: string }
  | CheckResultMessage
  | UpdateFailedMessage;

/** The offered version was refused (bad signature, checksum, download, or it did not run) or was rolled back. */
export interface UpdateFailedMessage {
  type: 'update.failed';
  version: string;
  /** At most 1000 printable characters. */
  error: string;
}

/** One run of a check. */
export interface CheckResultMessage {
  type: 'check.result';
  checkId: number;
  status: CheckStatus;
  moreInfo: string;
}

/** Close codes the server uses. */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_REPLACED = 4000;
export const CLOSE_REENROLLED = 4001;
