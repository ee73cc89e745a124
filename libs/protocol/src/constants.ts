// The values the agent protocol is made of, shared by the server (libs/entities' enumerations, common/values) and
// the agent. Plain data with no import: the operator console's build reads it too (through libs/entities/src/enums.ts).

/** The platforms an agent runs on (`plat`). */
export const PLATFORMS = ['windows', 'darwin', 'linux'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** How an agent is monitored (registration's `monitoring_type`). */
export const MONITORING_TYPES = ['server', 'workstation'] as const;
export type MonitoringType = (typeof MONITORING_TYPES)[number];

/**
 * The agent's single-file binaries (docs/api.md, "Agent binaries"): our name of each OS and CPU the server
 * builds one for. The file of each is `rmm-agent-<target>` (`.exe` on windows).
 */
export const AGENT_TARGETS = ['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64', 'windows-amd64'] as const;
export type AgentTarget = (typeof AGENT_TARGETS)[number];

/** The interpreters a script names (`script.run`'s `shell`). */
export const SHELLS = ['powershell', 'cmd', 'python', 'bash'] as const;
export type Shell = (typeof SHELLS)[number];

/** The checks an agent runs (`checks.sync`'s `checkType`). */
export const CHECK_TYPES = ['diskspace', 'ping', 'cpuload', 'memory', 'winsvc', 'script', 'eventlog'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

/** A check's verdict (`check.result`'s `status`). */
export const CHECK_STATUSES = ['passing', 'failing', 'pending'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** The longest reason an agent may give (update.failed, error; a refusal is cut to it). */
export const REFUSAL_MAX = 1_000;

/** The largest id (a PostgreSQL `integer`): run ids, check ids, agent ids. */
export const PG_INT_MAX = 2_147_483_647;

/**
 * An agent's hostname (docs/agent-protocol.md §1): 1–255 characters (code points, as the enrollment function and
 * PostgreSQL count them), no control characters, not starting with white space. Registration checks what a device
 * sends against it; a hostname requested through the enrollment function is applied at registration only when it
 * passes too.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const AGENT_HOSTNAME_PATTERN = /^[^\u0000-\u001f\u007f\s][^\u0000-\u001f\u007f]*$/;
export const AGENT_HOSTNAME_MAX = 255;
