import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { projectRoot } from '../common/project-root';
import { LOG_LEVELS, LogLevel } from '../common/logging/logger';
import { PG_INT_MAX } from '../common/values';


/**
 * Configuration read once from the environment at boot. Optional secrets that are absent here
 * are generated on first start and kept in the database (see RuntimeConfig).
 */
export interface AppConfig {
  port: number;
  host: string;
  /** External PostgreSQL; absent means the embedded server under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  /** Prefix of every Redis key and pub/sub channel of several-instance state (REDIS_PREFIX): instances that share it share that state. */
  redisPrefix: string;
  /**
   * The proxies whose X-Forwarded-For is believed (Fastify's trustProxy): addresses/CIDRs, or a hop count.
   * Unset: none (request.ip is the connection's peer).
   */
  trustProxy: string[] | number | false;
  /** Base of the URLs the server hands out (download URLs); defaults to http://localhost:$PORT. */
  publicUrl: string;
  /** Whether PUBLIC_URL was given (without it, the console's origins include the loopback names: common/http/origin.ts). */
  publicUrlSet: boolean;
  /** The operator console's built files (index.html, assets/); not an environment variable: tests point it elsewhere. Default: dist/console. */
  consoleDir?: string;
  /** Native installers an operator provides (`<platform>-<arch>.<ext>`), served instead of the install scripts. */
  installersDir?: string;
  /** A native installer's download whose client reads nothing for this long is cut off. */
  downloadIdleTimeoutMs: number;
  /** RMM_AGENT_VERSION: the agent version this server offers; its binaries are built with it. Default: package.json's version. */
  agentVersion: string;
  /** RMM_AGENT_BIN_DIR: where the agent's binaries, their .gz and manifest.json are (built there on first download). Default: <project>/dist/agent/bin. */
  agentBinDir: string;
  /**
   * Whether a missing binary is built on first download (spawning scripts/build-agent.js). Not an environment
   * variable: always on for the server; the tests' app turns it off (a fuzzed download must not start a build)
   * except where a test exercises the build.
   */
  agentBuild: boolean;
  /**
   * RMM_AGENT_BUILD_NODE: the Node.js executable the on-demand build runs scripts/build-agent.js with. Default: the
   * server's own (process.execPath).
   */
  agentBuildNode?: string;
  logLevel: LogLevel;
  /** Secrets given by the operator (never printed). */
  jwtSecret?: string;
  dataAnonKey?: string;
  dataServiceRoleKey?: string;
  rmmAdminApiKey?: string;
  rmmApiKey?: string;
  /** The enrollment function's targets; absent means this server itself. */
  rmmApiUrl?: string;
  dataUrl?: string;
  rmmDefaultClientId?: number;
  rmmDefaultSiteId?: number;
  /** Management-backend limits (requests per minute per API key). */
  rateLimitPerMinute: number;
  deploymentRateLimitPerMinute: number;
  /** Registrations (POST /agent/v1/register) per minute per deployment; 429 past it, nothing written. */
  registerRateLimitPerMinute: number;
  /** Installer downloads per minute per (deployment link, client address); 429 past it, no download row written. */
  downloadRateLimitPerMinute: number;
  /** The enrollment function's time limit for one backend or data-platform call. */
  enrollUpstreamTimeoutMs: number;
  /** Enrollments one user may request per minute (the function answers 429 past it). */
  enrollRateLimitPerUserPerMinute: number;
  /** Requests one caller (user, or key when no user token) may make per minute to /rest/v1 and /functions/v1 together. */
  platformRateLimitPerUserPerMinute: number;
  /** Both /api/v3 budgets of the enrollment function's own key (it speaks for every user). */
  functionKeyRateLimitPerMinute: number;
  /** Failed sign-ins allowed per account, and per client address, within the window. */
  authFailedSigninsPerAccount: number;
  authFailedSigninsPerAddress: number;
  authFailedSigninWindowSeconds: number;
  /** Password hashes (argon2id, 64 MiB each) computed at once, and how many may wait for a turn. */
  authMaxConcurrentHashes: number;
  authHashQueueLength: number;
  /** Connections to PostgreSQL, and how long a request waits for one before answering 503. */
  dbPoolSize: number;
  dbPoolAcquireTimeoutMs: number;
  /** Whole-request time limit (headers and body), and how long an idle keep-alive connection is kept. */
  httpRequestTimeoutMs: number;
  httpKeepAliveTimeoutMs: number;
  /** Restarts of the embedded PostgreSQL after it dies, before the server gives up and exits. */
  embeddedPgRestartAttempts: number;
  /** Told to agents in `hello`: how often they send a heartbeat. */
  agentHeartbeatSeconds: number;
  /** An agent silent this long is offline (its connection is dropped), this long overdue. */
  agentOfflineAfterSeconds: number;
  agentOverdueAfterSeconds: number;
  /** Messages one agent connection may send per second on average (its burst: five times as many); past it: closed 1008. */
  agentMaxMessagesPerSecond: number;
  /** `json` (one object per line, for log collectors) or `pretty` (for people); default pretty on a terminal. */
  logFormat?: 'json' | 'pretty';
  /** Browser origins (`https://dash.example.com`) allowed to call /api/v3 (CORS); none by default. */
  rmmCorsOrigins: string[];
  /** How often each instance looks for due tasks, and how many task runs one instance carries at once. */
  taskTickMs: number;
  taskMaxConcurrentRuns: number;
  /**
   * How often each instance repairs what a lost message or a crash left undone (docs/decisions.md, "Who owns each
   * state"): agent_overdue alerts per the agents' status, and the check lists of the agents it holds.
   */
  reconcileSeconds: number;
  /** How often (once across the cluster) the policy engine recomputes every agent's policy items (docs/policies.md, "Propagation"). */
  policyReconcileSeconds: number;
  /** A console session ends after this long without a request, and this long after sign-in whatever happens. */
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  /** The Ed25519 key agent updates are signed with: base64 of its 32-byte seed (default: generated, kept in app_settings). */
  agentSigningKey?: string;
  /** At most this many agents updating themselves at once, across instances (docs/agent-binaries.md). */
  agentUpdateConcurrency: number;
  /** RMM_QUEUE_MAX_PER_AGENT: at most this many runs queued for one agent (more: 429; docs/security.md, N6). */
  queueMaxPerAgent: number;
  /** RMM_TERMINAL_IDLE_MINUTES: a terminal without a byte either way this long is closed (`idle`; docs/terminal.md). */
  terminalIdleMinutes: number;
  /** RMM_TERMINAL_MAX_HOURS: a terminal open this long is closed (`max_duration`), whatever happens in it. */
  terminalMaxHours: number;
  /** RMM_TERMINAL_RECORDING: record every terminal's output as asciicast v2 (docs/terminal.md, "Recording"). */
  terminalRecording: boolean;
  /** RMM_TERMINAL_RECORDING_DAYS: recordings are deleted this many days after their session closed. */
  terminalRecordingDays: number;
  /** RMM_AGENT_UPDATE_OFFER_SECONDS: an offer its agent has not answered this long is released (pending, offered again later). */
  agentUpdateOfferSeconds: number;
  /** RMM_AGENT_UPDATE_HALT_FAILURES: more than this many failed updates to a version within an hour halt its rollout. */
  agentUpdateHaltFailures: number;
  /**
   * RMM_FD_HEADROOM: open files kept free under the process's limit (RLIMIT_NOFILE's soft value, read at start):
   * new agent connections are refused (1013) within it. Absent: max(256, 2 × RMM_AGENT_UPDATE_CONCURRENCY + 128); 0: off.
   */
  fdHeadroom?: number;
  /** SMTP_URL: the server e-mail notifications are sent through (smtp:// or smtps://, credentials in the URL; a secret). */
  smtpUrl?: string;
  /** SMTP_FROM: the From of notification e-mails. Default: rmm@<PUBLIC_URL's host>. */
  smtpFrom: string;
  /** RMM_NOTIFY_ALLOW_PRIVATE: deliver to private, loopback and link-local addresses too (off: refused, docs/notifications.md). */
  notifyAllowPrivate: boolean;
  /** RMM_NOTIFY_RETRY_BASE_SECONDS: the first retry's delay; each next one doubles (with jitter), capped at an hour. */
  notifyRetryBaseSeconds: number;
  /** RMM_NOTIFY_RETRY_FOR_SECONDS: a delivery is retried this long after its first attempt, then failed. */
  notifyRetryForSeconds: number;
  /** RMM_NOTIFY_CONCURRENCY: deliveries one instance sends at once. */
  notifyConcurrency: number;
  /** RMM_NOTIFY_CHANNEL_CONCURRENCY: deliveries of one channel in flight at once, across every instance. */
  notifyChannelConcurrency: number;
  /** RMM_NOTIFY_CIRCUIT_MINUTES: a channel whose every attempt has failed this long is paused (its circuit opens). */
  notifyCircuitMinutes: number;
  /** RMM_ALERT_FLAP_LIMIT: a subject whose alert opens more than this many times in 30 minutes is flapping. */
  alertFlapLimit: number;
  /** RMM_NOTIFY_OFFLINE_GRACE_SECONDS: agent.offline is notified once an agent has stayed offline this long. */
  notifyOfflineGraceSeconds: number;
  /** RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR: notifications of one agent one channel is sent per hour; the rest summarised. */
  notifyMaxPerAgentPerHour: number;
  /**
   * A check's results are accepted at most once per max(run_interval / 2, 5 s) (docs/security.md, N2). Always
   * true but in tests that measure something else with bursts of results (not an environment variable, like
   * agentBuild).
   */
  checkResultSpacing: boolean;
  /** OpenID Connect single sign-on (docs/sso.md): null unless RMM_OIDC_ISSUER is set. */
  oidc: OidcConfig | null;
  /** RMM_PASSWORD_LOGIN: false turns password sign-in off for every operator but those marked break-glass. */
  passwordLogin: boolean;
  /** RMM_STEP_UP_MINUTES: dangerous actions need a session authenticated within this many minutes (docs/sso.md, "Step-up"). */
  stepUpMinutes: number;
}

/** Names of the variables whose values are secrets: never logged, never echoed. */
export const SECRET_VARIABLES = [
  'JWT_SECRET',
  'DATA_ANON_KEY',
  'DATA_SERVICE_ROLE_KEY',
  'RMM_ADMIN_API_KEY',
  'RMM_API_KEY',
  'RMM_AGENT_SIGNING_KEY',
  'SMTP_URL',
  'RMM_OIDC_CLIENT_SECRET',
] as const;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable} ${reason}`);
  }
}

type Env = Record<string, string | undefined>;

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): AppConfig {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const givenPublicUrl = httpUrl(env, 'PUBLIC_URL');
  const publicUrl = givenPublicUrl ?? `http://localhost:${port}`;
  const jwtSecret = text(env, 'JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET', 'must be at least 32 characters long');
  }
  const installersDir = text(env, 'RMM_INSTALLERS_DIR');
  const offlineAfter = integer(env, 'RMM_AGENT_OFFLINE_AFTER_SECONDS', 120, 2, 86_400);
  const heartbeat = integer(env, 'RMM_AGENT_HEARTBEAT_SECONDS', 30, 1, 3_600);
  // One heartbeat lost or late must not make an agent offline (nor a task run it missed agent_offline).
  if (offlineAfter <= 2 * heartbeat) {
    const given = text(env, 'RMM_AGENT_OFFLINE_AFTER_SECONDS') === undefined ? `its default ${offlineAfter}` : `"${offlineAfter}"`;
    throw new ConfigError('RMM_AGENT_OFFLINE_AFTER_SECONDS', `must be greater than twice RMM_AGENT_HEARTBEAT_SECONDS (2 × ${heartbeat} = ${2 * heartbeat}), got ${given}`);
  }
  const overdueAfter = integer(env, 'RMM_AGENT_OVERDUE_AFTER_SECONDS', 1_800, 3, 2_592_000);
  if (overdueAfter <= offlineAfter) {
    throw new ConfigError('RMM_AGENT_OVERDUE_AFTER_SECONDS', `must be greater than RMM_AGENT_OFFLINE_AFTER_SECONDS (${offlineAfter}), got "${overdueAfter}"`);
  }
  return {
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: postgresUrl(env, 'DATABASE_URL'),
    dataDir: resolve(cwd, text(env, 'DATA_DIR') ?? '.data'),
    redisUrl: redisUrl(env, 'REDIS_URL'),
    redisPrefix: redisPrefix(env),
    trustProxy: trustProxy(env),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    publicUrlSet: givenPublicUrl !== undefined,
    installersDir: installersDir === undefined ? undefined : resolve(cwd, installersDir),
    downloadIdleTimeoutMs: integer(env, 'RMM_DOWNLOAD_IDLE_TIMEOUT_MS', 60_000, 1_000, 3_600_000),
    agentVersion: agentVersion(env),
    agentBinDir: resolve(cwd, text(env, 'RMM_AGENT_BIN_DIR') ?? join(projectRoot(), 'dist', 'agent', 'bin')),
    agentBuild: true,
    agentBuildNode: text(env, 'RMM_AGENT_BUILD_NODE'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    jwtSecret,
    dataAnonKey: text(env, 'DATA_ANON_KEY'),
    dataServiceRoleKey: text(env, 'DATA_SERVICE_ROLE_KEY'),
    rmmAdminApiKey: text(env, 'RMM_ADMIN_API_KEY'),
    rmmApiKey: text(env, 'RMM_API_KEY'),
    rmmApiUrl: httpUrl(env, 'RMM_API_URL')?.replace(/\/+$/, ''),
    dataUrl: httpUrl(env, 'DATA_URL')?.replace(/\/+$/, ''),
    rmmDefaultClientId: optionalInteger(env, 'RMM_DEFAULT_CLIENT_ID', 1, PG_INT_MAX),
    rmmDefaultSiteId: optionalInteger(env, 'RMM_DEFAULT_SITE_ID', 1, PG_INT_MAX),
    rateLimitPerMinute: integer(env, 'RMM_RATE_LIMIT_PER_MINUTE', 100, 1, 1_000_000),
    deploymentRateLimitPerMinute: integer(env, 'RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE', 20, 1, 1_000_000),
    registerRateLimitPerMinute: integer(env, 'RMM_REGISTER_RATE_LIMIT_PER_MINUTE', 20, 1, 1_000_000),
    downloadRateLimitPerMinute: integer(env, 'RMM_DOWNLOAD_RATE_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    enrollUpstreamTimeoutMs: integer(env, 'ENROLL_UPSTREAM_TIMEOUT_MS', 10_000, 100, 300_000),
    enrollRateLimitPerUserPerMinute: integer(env, 'ENROLL_RATE_LIMIT_PER_USER_PER_MINUTE', 10, 1, 1_000_000),
    platformRateLimitPerUserPerMinute: integer(env, 'PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE', 300, 1, 1_000_000),
    functionKeyRateLimitPerMinute: integer(env, 'RMM_FUNCTION_KEY_RATE_LIMIT_PER_MINUTE', 6000, 1, 10_000_000),
    authFailedSigninsPerAccount: integer(env, 'AUTH_FAILED_SIGNINS_PER_ACCOUNT', 10, 1, 1_000_000),
    authFailedSigninsPerAddress: integer(env, 'AUTH_FAILED_SIGNINS_PER_ADDRESS', 100, 1, 1_000_000),
    authFailedSigninWindowSeconds: integer(env, 'AUTH_FAILED_SIGNIN_WINDOW_SECONDS', 300, 1, 86_400),
    authMaxConcurrentHashes: integer(env, 'AUTH_MAX_CONCURRENT_HASHES', 2, 1, 64),
    authHashQueueLength: integer(env, 'AUTH_HASH_QUEUE_LENGTH', 8, 0, 10_000),
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 20, 2, 1_000),
    dbPoolAcquireTimeoutMs: integer(env, 'DB_POOL_ACQUIRE_TIMEOUT_MS', 5_000, 100, 600_000),
    httpRequestTimeoutMs: integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1_000, 3_600_000),
    httpKeepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 3_600_000),
    embeddedPgRestartAttempts: integer(env, 'EMBEDDED_PG_RESTART_ATTEMPTS', 5, 0, 100),
    agentHeartbeatSeconds: heartbeat,
    agentOfflineAfterSeconds: offlineAfter,
    agentOverdueAfterSeconds: overdueAfter,
    agentMaxMessagesPerSecond: integer(env, 'RMM_AGENT_MAX_MESSAGES_PER_SECOND', 200, 1, 100_000),
    logFormat: text(env, 'LOG_FORMAT') === undefined ? undefined : oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
    rmmCorsOrigins: origins(env, 'RMM_CORS_ORIGINS'),
    taskTickMs: integer(env, 'RMM_TASK_TICK_MS', 1_000, 100, 60_000),
    taskMaxConcurrentRuns: integer(env, 'RMM_TASK_MAX_CONCURRENT_RUNS', 20, 1, 1_000),
    reconcileSeconds: integer(env, 'RMM_RECONCILE_SECONDS', 60, 1, 86_400),
    policyReconcileSeconds: integer(env, 'RMM_POLICY_RECONCILE_SECONDS', 60, 1, 86_400),
    sessionIdleMinutes: integer(env, 'RMM_SESSION_IDLE_MINUTES', 60, 1, 525_600),
    sessionMaxHours: integer(env, 'RMM_SESSION_MAX_HOURS', 12, 1, 8_760),
    agentSigningKey: signingSeed(env, 'RMM_AGENT_SIGNING_KEY'),
    agentUpdateConcurrency: integer(env, 'RMM_AGENT_UPDATE_CONCURRENCY', 50, 1, 100_000),
    queueMaxPerAgent: integer(env, 'RMM_QUEUE_MAX_PER_AGENT', 100, 1, 100_000),
    terminalIdleMinutes: integer(env, 'RMM_TERMINAL_IDLE_MINUTES', 15, 1, 10_080),
    terminalMaxHours: integer(env, 'RMM_TERMINAL_MAX_HOURS', 8, 1, 720),
    terminalRecording: boolean(env, 'RMM_TERMINAL_RECORDING', false),
    terminalRecordingDays: integer(env, 'RMM_TERMINAL_RECORDING_DAYS', 90, 1, 36_500),
    agentUpdateOfferSeconds: integer(env, 'RMM_AGENT_UPDATE_OFFER_SECONDS', 120, 1, 86_400),
    agentUpdateHaltFailures: integer(env, 'RMM_AGENT_UPDATE_HALT_FAILURES', 5, 0, 1_000_000),
    fdHeadroom: optionalInteger(env, 'RMM_FD_HEADROOM', 0, 1_000_000),
    smtpUrl: smtpUrl(env, 'SMTP_URL'),
    smtpFrom: smtpFrom(env, 'SMTP_FROM', publicUrl),
    notifyAllowPrivate: boolean(env, 'RMM_NOTIFY_ALLOW_PRIVATE', false),
    notifyRetryBaseSeconds: integer(env, 'RMM_NOTIFY_RETRY_BASE_SECONDS', 30, 1, 3_600),
    notifyRetryForSeconds: integer(env, 'RMM_NOTIFY_RETRY_FOR_SECONDS', 86_400, 1, 604_800),
    notifyConcurrency: integer(env, 'RMM_NOTIFY_CONCURRENCY', 32, 1, 1_000),
    notifyChannelConcurrency: integer(env, 'RMM_NOTIFY_CHANNEL_CONCURRENCY', 4, 1, 1_000),
    notifyCircuitMinutes: decimal(env, 'RMM_NOTIFY_CIRCUIT_MINUTES', 15, 0.05, 10_080),
    alertFlapLimit: integer(env, 'RMM_ALERT_FLAP_LIMIT', 5, 1, 1_000),
    notifyOfflineGraceSeconds: integer(env, 'RMM_NOTIFY_OFFLINE_GRACE_SECONDS', 60, 0, 86_400),
    notifyMaxPerAgentPerHour: integer(env, 'RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR', 60, 1, 1_000_000),
    checkResultSpacing: true,
    oidc: oidcConfig(env),
    passwordLogin: boolean(env, 'RMM_PASSWORD_LOGIN', true),
    stepUpMinutes: integer(env, 'RMM_STEP_UP_MINUTES', 10, 1, 1_440),
  };
}

/** Roles in order of power: the highest one a user's groups map to wins. */
export const OIDC_ROLE_ORDER = ['viewer', 'technician', 'admin'] as const;
export type OidcRole = (typeof OIDC_ROLE_ORDER)[number];

export interface OidcConfig {
  /** RMM_OIDC_ISSUER: the provider's issuer URL (discovery at <issuer>/.well-known/openid-configuration). */
  issuer: string;
  clientId: string;
  /** RMM_OIDC_CLIENT_SECRET: a secret (never logged); absent = a public client (PKCE only). */
  clientSecret?: string;
  /** RMM_OIDC_SCOPES, space-separated; default `openid email profile`. */
  scopes: string;
  /** RMM_OIDC_GROUPS_CLAIM: the ID token (or userinfo) claim that lists the user's groups; default `groups`. */
  groupsClaim: string;
  /** RMM_OIDC_ROLE_MAP: group → role (`rmm-admins=admin,rmm-techs=technician`); the highest matching role wins. */
  roleMap: ReadonlyMap<string, OidcRole>;
  /** RMM_OIDC_CLIENT_MAP: group → client ids (`acme-techs=3,globex=5+6`): a user in any of these groups is limited to the union. */
  clientMap: ReadonlyMap<string, readonly number[]>;
  /** RMM_OIDC_BUTTON: the sign-in button's label ("Sign in with <button>"); default `single sign-on`. */
  button: string;
  /** RMM_OIDC_MAX_SESSION_HOURS: a session signed in through the provider ends this long after sign-in (default RMM_SESSION_MAX_HOURS). */
  maxSessionHours: number;
}

/** `group=value` pairs separated by commas; a group name may hold anything but `=` and `,`. */
function pairs(env: Env, name: string, example: string): Array<[string, string]> {
  const value = text(env, name);
  if (value === undefined) return [];
  return value.split(',').map((part) => {
    const eq = part.lastIndexOf('=');
    const key = eq > 0 ? part.slice(0, eq).trim() : '';
    const val = eq > 0 ? part.slice(eq + 1).trim() : '';
    if (!key || !val) throw new ConfigError(name, `must be group=value pairs separated by commas (e.g. ${example}), got "${part.trim().slice(0, 80)}"`);
    return [key, val] as [string, string];
  });
}

function oidcConfig(env: Env): OidcConfig | null {
  // Every variable is read (and checked) whether or not single sign-on is on: a mistake is reported at start either way.
  const issuerUrl = parseUrl(env, 'RMM_OIDC_ISSUER', ['https:', 'http:'], 'https://login.example.com/realms/msp');
  const clientId = text(env, 'RMM_OIDC_CLIENT_ID');
  const clientSecret = text(env, 'RMM_OIDC_CLIENT_SECRET');
  const scopes = text(env, 'RMM_OIDC_SCOPES') ?? 'openid email profile';
  const groupsClaim = text(env, 'RMM_OIDC_GROUPS_CLAIM') ?? 'groups';
  const button = text(env, 'RMM_OIDC_BUTTON') ?? 'single sign-on';
  const maxSessionHours = integer(env, 'RMM_OIDC_MAX_SESSION_HOURS', integer(env, 'RMM_SESSION_MAX_HOURS', 12, 1, 8_760), 1, 8_760);
  const rolePairs = pairs(env, 'RMM_OIDC_ROLE_MAP', 'rmm-admins=admin,rmm-techs=technician,rmm-view=viewer');
  const clientPairs = pairs(env, 'RMM_OIDC_CLIENT_MAP', 'acme-techs=3,globex=5+6');
  if (!issuerUrl) return null;
  if (!clientId) throw new ConfigError('RMM_OIDC_CLIENT_ID', 'is required when RMM_OIDC_ISSUER is set');
  const roleMap = new Map<string, OidcRole>();
  for (const [group, role] of rolePairs) {
    if (!(OIDC_ROLE_ORDER as readonly string[]).includes(role)) throw new ConfigError('RMM_OIDC_ROLE_MAP', `role of "${group.slice(0, 80)}" must be admin, technician or viewer, got "${role.slice(0, 80)}"`);
    roleMap.set(group, role as OidcRole);
  }
  if (roleMap.size === 0) throw new ConfigError('RMM_OIDC_ROLE_MAP', 'is required when RMM_OIDC_ISSUER is set (e.g. rmm-admins=admin,rmm-techs=technician): without it no one may sign in');
  const clientMap = new Map<string, number[]>();
  for (const [group, ids] of clientPairs) {
    const list = ids.split('+').map((id) => id.trim());
    if (!list.every((id) => /^[1-9]\d{0,9}$/.test(id))) throw new ConfigError('RMM_OIDC_CLIENT_MAP', `clients of "${group.slice(0, 80)}" must be client ids joined by + (e.g. 5+6), got "${ids.slice(0, 80)}"`);
    clientMap.set(group, [...new Set([...(clientMap.get(group) ?? []), ...list.map(Number)])]);
  }
  return {
    // As written: the ID token's `iss` must equal it exactly (a URL's normal form could add a trailing slash).
    issuer: env.RMM_OIDC_ISSUER!.trim(),
    clientId,
    clientSecret,
    scopes,
    groupsClaim,
    roleMap,
    clientMap,
    button,
    maxSessionHours,
  };
}

/** An Ed25519 seed: base64 (or base64url) of exactly 32 bytes, returned as standard base64. */
function signingSeed(env: Env, name: string): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const bytes = /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64') : Buffer.alloc(0);
  if (bytes.length !== 32) throw new ConfigError(name, 'must be the base64 of a 32-byte Ed25519 seed (e.g. openssl rand -base64 32)');
  return bytes.toString('base64');
}

/** true/false (also 1/0, yes/no). */
function boolean(env: Env, name: string, fallback: boolean): boolean {
  const value = text(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no'].includes(value)) return false;
  throw new ConfigError(name, `must be true or false, got "${value.slice(0, 80)}"`);
}

/** smtp://user:pass@host:port or smtps://…; messages about it never show the password. */
function smtpUrl(env: Env, name: string): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError(name, 'must be a URL like smtp://user:password@mail.example.com:587 or smtps://user:password@mail.example.com:465');
  }
  return value;
}

/** An e-mail address, optionally with a display name ("RMM <rmm@example.com>"); default rmm@<PUBLIC_URL's host>. */
function smtpFrom(env: Env, name: string, publicUrl: string): string {
  const value = text(env, name);
  if (value === undefined) return `rmm@${new URL(publicUrl).hostname}`;
  const address = /<([^<>]+)>\s*$/.exec(value)?.[1] ?? value;
  if (value.length > 320 || /[\r\n]/.test(value) || !/^[^\s@<>]+@[^\s@<>]+$/.test(address)) {
    throw new ConfigError(name, `must be an e-mail address like rmm@example.com or "RMM <rmm@example.com>", got "${value.slice(0, 80)}"`);
  }
  return value;
}

function text(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  return value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  return optionalInteger(env, name, min, max) ?? fallback;
}

/** A number with an optional fraction (e.g. 0.1), within [min, max]. */
function decimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = text(env, name);
  if (value === undefined) return fallback;
  if (!/^\d{1,9}(\.\d{1,6})?$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `must be a number from ${min} to ${max} (a fraction like 0.5 is allowed), got "${value.slice(0, 80)}"`);
  }
  return Number(value);
}

function optionalInteger(env: Env, name: string, min: number, max: number): number | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = text(env, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

function parseUrl(env: Env, name: string, protocols: string[], example: string): URL | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `is not a valid URL (expected something like ${example})`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')} (expected something like ${example})`);
  }
  if (!url.hostname) throw new ConfigError(name, `has no host (expected something like ${example})`);
  return url;
}

function httpUrl(env: Env, name: string): string | undefined {
  return parseUrl(env, name, ['http:', 'https:'], 'https://rmm.example.com')?.toString();
}

function postgresUrl(env: Env, name: string): string | undefined {
  const url = parseUrl(env, name, ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database');
  if (url && url.pathname.replace(/^\//, '') === '') {
    throw new ConfigError(name, 'names no database (expected something like postgres://user:password@host:5432/database)');
  }
  return url ? text(env, name) : undefined;
}

/** TRUST_PROXY: "10.0.0.0/8,127.0.0.1" (addresses or CIDRs whose X-Forwarded-For is believed) or a hop count "1". */
function trustProxy(env: Env): string[] | number | false {
  const value = text(env, 'TRUST_PROXY');
  if (value === undefined) return false;
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1) return Number(value);
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.find((e) => {
    const [address, bits, ...rest] = e.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return true;
    if (bits === undefined) return false;
    return !/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128);
  });
  if (entries.length === 0 || bad !== undefined) {
    throw new ConfigError('TRUST_PROXY', `must be a comma-separated list of IP addresses or CIDRs (e.g. 10.0.0.0/8,127.0.0.1), or a hop count (1-99)${bad ? `; not an address: "${bad.slice(0, 80)}"` : ''}`);
  }
  return entries;
}

/**
 * A semantic version (1.2.3, 1.2.3-rc.1, 1.2.3+build.5): it names binaries, is passed to the build script and is
 * part of the signed update text (`rmm-agent-update:v1:<target>:<version>:<sha256>`), so nothing else is allowed.
 */
const SEMVER = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

function agentVersion(env: Env): string {
  const value = text(env, 'RMM_AGENT_VERSION');
  if (value === undefined) return packageVersion();
  if (value.length > 64 || !SEMVER.test(value)) {
    throw new ConfigError('RMM_AGENT_VERSION', `must be a version like 1.2.3 or 1.2.3-rc.1 (at most 64 characters), got "${value.slice(0, 80)}"`);
  }
  return value;
}

/** This server's own version (package.json), which its agent binaries carry unless RMM_AGENT_VERSION says otherwise. */
export function packageVersion(): string {
  const { version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
  return version;
}

function redisPrefix(env: Env): string {
  const value = text(env, 'REDIS_PREFIX') ?? 'rmm:';
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(value)) throw new ConfigError('REDIS_PREFIX', `must be 1-64 letters, digits or ":._-", got "${value.slice(0, 80)}"`);
  return value;
}

function redisUrl(env: Env, name: string): string | undefined {
  return parseUrl(env, name, ['redis:', 'rediss:'], 'redis://127.0.0.1:6379') ? text(env, name) : undefined;
}

/**
 * A comma-separated list of browser origins: scheme, host and optional port, nothing else (a browser's
 * `Origin` header never has a path). Each is kept as the browser writes it (`HTTPS://Dash.example.com:443/`
 * becomes `https://dash.example.com`); `*`, a path, a query or an empty entry is refused.
 */
function origins(env: Env, name: string): string[] {
  const value = text(env, name);
  if (value === undefined) return [];
  const example = 'https://dash.example.com';
  return [
    ...new Set(
      value.split(',').map((entry) => {
        const item = entry.trim();
        if (item === '') throw new ConfigError(name, `has an empty entry (expected a comma-separated list of origins like ${example})`);
        let url: URL | undefined;
        try {
          url = new URL(item);
        } catch {
          url = undefined;
        }
        const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && !item.endsWith('?') && !item.endsWith('#');
        if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname || !bare) {
          throw new ConfigError(name, `has "${item}", which is not an origin (expected scheme, host and optional port, like ${example})`);
        }
        return url.origin;
      }),
    ),
  ];
}

