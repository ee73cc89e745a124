// The agent protocol's shapes (docs/agent-protocol.md), copied here: the agent shares nothing else with the server.

export const AGENT_VERSION = '0.1.0';

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

export type ServerMessage = HelloMessage | ScriptRunMessage | ErrorMessage;

export interface ScriptResult {
  retcode: number | null;
  stdout: string;
  stderr: string;
  executionTime: number;
  timedOut: boolean;
}

/** The facts a heartbeat carries: the registration's, minus hostname and monitoring_type (the operator's once enrolled). */
export type HeartbeatFacts = Omit<Facts, 'hostname' | 'monitoring_type'>;

export type AgentMessage =
  | { type: 'heartbeat'; facts?: Partial<HeartbeatFacts> }
  | { type: 'script.output'; runId: number; stream: 'stdout' | 'stderr'; chunk: string; seq: number }
  | { type: 'result'; id: string; ok: true; result: ScriptResult }
  | { type: 'result'; id: string; ok: false; error: string };

/** Close codes the server uses. */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_REPLACED = 4000;
export const CLOSE_REENROLLED = 4001;
