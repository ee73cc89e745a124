import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ENROLLMENT_LOG_LIMITS } from '@app/entities/enrollment-log.entity';
import { Clock } from '../common/clock';
import { RateLimiter } from '../common/rate-limit/rate-limiter';
import { RuntimeConfig } from '../config/runtime-config';
import { PLATFORM_BUDGET_WINDOW_MS, userBudgetBucket } from '../common/rate-limit/platform-budget';
import { defaultArch, EnrollmentStatusDto, EnrollResponseDto } from './enroll.dto';
import { EnrollError, EnrollErrorCode } from './enroll.errors';
import { UpstreamClient, UpstreamResult } from './upstream.client';
import { isUuid } from '../common/values';

/** What the function sees of an HTTP request: the body is still raw text (parsed at step 4). */
export interface FunctionRequest {
  method: string;
  authorization?: string;
  rawBody?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;
/** C0 controls and DEL: a NUL cannot be stored at all (22P05, a deployment without its audit row), the others break lines. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** A UTF-16 surrogate without its pair: not text PostgreSQL can store either. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Background retries of a failed audit insert (the answer does not wait for them). */
const AUDIT_RETRY_DELAYS_MS = [500, 2_000];

/**
 * POST /functions/v1/enroll-rmm, in the spec's processing order: method, token, profile, body
 * JSON, body fields, backend call, audit row, answer. It reaches the data platform and the
 * backend only over HTTP (DATA_URL, RMM_API_URL), so it can front another backend or Supabase.
 */
@Injectable()
export class EnrollService implements OnApplicationShutdown {
  private readonly logger = new Logger('enroll-rmm');
  private readonly pendingAudits = new Set<Promise<void>>();

  constructor(
    private readonly config: RuntimeConfig,
    private readonly clock: Clock,
    private readonly upstream: UpstreamClient,
    private readonly limiter: RateLimiter,
  ) {}

  async enroll(req: FunctionRequest): Promise<EnrollResponseDto> {
    // 1. Method (OPTIONS is answered before routing, with the CORS headers).
    if (req.method !== 'POST') throw new EnrollError(EnrollErrorCode.MethodNotAllowed);
    // 2. Bearer token, validated by the data platform.
    const userId = await this.userOf(req.authorization);
    await this.chargeCaller(userId);
    // 3. Profile, with the configured defaults for null tenant ids.
    const tenant = await this.tenantOf(userId);
    // 4. Body JSON; 5. fields.
    const body = parseBody(req.rawBody);
    const hostname = body.hostname;
    const platform = body.platform;
    if (typeof hostname !== 'string' || hostname.trim() === '' || typeof platform !== 'string' || platform.trim() === '') {
      throw new EnrollError(EnrollErrorCode.FieldsRequired);
    }
    checkText('hostname', hostname, ENROLLMENT_LOG_LIMITS.hostname);
    // The agent is registered under this very name (the spec's caller polls the agent list by it), and an agent's
    // hostname cannot start with white space.
    if (/^\s/.test(hostname)) throw new EnrollError(EnrollErrorCode.InvalidField, 'hostname must not start with white space');
    checkText('platform', platform, ENROLLMENT_LOG_LIMITS.platform);
    // 6. arch: the request's (unvalidated) or the platform's default.
    const arch = body.arch === undefined || body.arch === null || body.arch === '' ? defaultArch(platform) : body.arch;
    // 7. Deployment on the backend, expiring 24 hours from now.
    const requestedAt = this.clock.now();
    const expires = new Date(requestedAt.getTime() + DAY_MS).toISOString();
    // The user's own enrollment budget, so that one user cannot spend the backend's for every tenant.
    await this.charge(
      `enroll:user:${userId}`,
      this.config.enrollRateLimitPerUserPerMinute,
      MINUTE_MS,
      `Too many enrollments: at most ${this.config.enrollRateLimitPerUserPerMinute} per minute per user`,
    );
    const deployment = await this.createDeployment({ client: tenant.clientId, site: tenant.siteId, expires, arch });
    // 8. Audit row; its fate does not change the answer.
    await this.audit({
      user_id: userId,
      deployment_uuid: deployment.uuid,
      client_id: tenant.clientId,
      site_id: tenant.siteId,
      hostname,
      platform,
      // The request time the expiry was computed from, so that requested_at + 24 h is the deployment's expiry.
      requested_at: requestedAt.toISOString(),
      status: 'pending',
    });
    return { download_url: deployment.download_url, deployment_uuid: deployment.uuid, expires_at: expires };
  }

  /** GET /functions/v1/enroll-rmm/status: the caller's own enrollment, without the backend key. */
  async status(authorization: string | undefined, deploymentUuid: unknown): Promise<EnrollmentStatusDto> {
    const userId = await this.userOf(authorization);
    await this.chargeCaller(userId);
    if (typeof deploymentUuid !== 'string' || deploymentUuid === '') throw new EnrollError(EnrollErrorCode.DeploymentUuidRequired);
    if (!isUuid(deploymentUuid)) throw new EnrollError(EnrollErrorCode.EnrollmentNotFound);
    const res = await this.upstream.call(
      `${this.upstream.dataUrl}/rest/v1/enrollment_log?select=status,agent_id,hostname,requested_at` +
        `&deployment_uuid=eq.${deploymentUuid}&user_id=eq.${userId}&order=requested_at.desc&limit=1`,
      { method: 'GET', headers: this.serviceHeaders() },
    );
    if (res.kind !== 'answer' || res.status >= 500) throw new EnrollError(EnrollErrorCode.DataPlatformUnavailable);
    const row = Array.isArray(res.json) ? (res.json[0] as Record<string, unknown> | undefined) : undefined;
    if (res.status !== 200 || !row) throw new EnrollError(EnrollErrorCode.EnrollmentNotFound);
    const expiresAt = new Date(new Date(String(row.requested_at)).getTime() + DAY_MS);
    const status = row.status === 'pending' && expiresAt.getTime() <= this.clock.now().getTime() ? 'expired' : String(row.status);
    return {
      status,
      agent_id: typeof row.agent_id === 'number' ? row.agent_id : null,
      hostname: typeof row.hostname === 'string' ? row.hostname : null,
      expires_at: expiresAt.toISOString(),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.pendingAudits]);
  }

  /** The user's requests to the data platform and the functions together (PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE). */
  private chargeCaller(userId: string): Promise<void> {
    const limit = this.config.platformRateLimitPerUserPerMinute;
    return this.charge(userBudgetBucket(userId), limit, PLATFORM_BUDGET_WINDOW_MS, `Too many requests: at most ${limit} per minute`);
  }

  /** Counts one hit; past the limit, 429 `{error}` with Retry-After (the CORS headers are added to every answer). */
  private async charge(bucket: string, limit: number, windowMs: number, message: string): Promise<void> {
    const state = await this.limiter.hit(bucket, limit, windowMs);
    if (!state.allowed) {
      throw new EnrollError(EnrollErrorCode.TooManyRequests, message, { 'Retry-After': String(state.retryAfterSeconds) });
    }
  }

  private async userOf(authorization: string | undefined): Promise<string> {
    if (!authorization || !authorization.startsWith('Bearer ')) throw new EnrollError(EnrollErrorCode.MissingBearer);
    const token = authorization.slice('Bearer '.length).trim();
    if (!token) throw new EnrollError(EnrollErrorCode.InvalidUserToken);
    const res = await this.upstream.call(`${this.upstream.dataUrl}/auth/v1/user`, {
      method: 'GET',
      headers: { apikey: this.config.dataServiceRoleKey, authorization: `Bearer ${token}` },
    });
    if (res.kind !== 'answer' || res.status >= 500) {
      this.logger.error({ msg: 'data platform did not answer the token check', result: describe(res) });
      throw new EnrollError(EnrollErrorCode.DataPlatformUnavailable);
    }
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if (res.status !== 200 || typeof id !== 'string' || !isUuid(id)) throw new EnrollError(EnrollErrorCode.InvalidUserToken);
    return id;
  }

  private async tenantOf(userId: string): Promise<{ clientId: number; siteId: number }> {
    const res = await this.upstream.call(
      `${this.upstream.dataUrl}/rest/v1/user_profiles?select=rmm_client_id,rmm_site_id&id=eq.${userId}`,
      { method: 'GET', headers: this.serviceHeaders() },
    );
    // The spec: a missing row or a failed lookup is 404.
    const row = res.kind === 'answer' && res.status === 200 && Array.isArray(res.json) ? res.json[0] : undefined;
    if (!row || typeof row !== 'object') {
      if (res.kind !== 'answer' || res.status !== 200) this.logger.warn({ msg: 'profile lookup failed', result: describe(res) });
      throw new EnrollError(EnrollErrorCode.ProfileNotFound);
    }
    const { rmm_client_id: clientId, rmm_site_id: siteId } = row as { rmm_client_id: unknown; rmm_site_id: unknown };
    return {
      clientId: typeof clientId === 'number' ? clientId : this.config.rmmDefaultClientId,
      siteId: typeof siteId === 'number' ? siteId : this.config.rmmDefaultSiteId,
    };
  }

  private async createDeployment(body: { client: number; site: number; expires: string; arch: unknown }): Promise<{ uuid: string; download_url: string }> {
    const res = await this.upstream.call(`${this.upstream.rmmApiUrl}/api/v3/agents/deployments/`, {
      method: 'POST',
      headers: { 'x-api-key': this.config.rmmApiKey },
      body,
    });
    if (res.kind === 'answer' && res.status >= 200 && res.status < 300) {
      const d = res.json as { uuid?: unknown; download_url?: unknown } | undefined;
      if (typeof d?.uuid === 'string' && typeof d?.download_url === 'string') return { uuid: d.uuid, download_url: d.download_url };
    }
    // The backend's status and body are for the operator's log only (scrubbed of secrets when written).
    // A refusal (4xx: e.g. an arch the backend does not know, passed through as the spec says) is a warning;
    // a backend that fails or does not answer is an error.
    const refused = res.kind === 'answer' && res.status >= 400 && res.status < 500;
    this.logger[refused ? 'warn' : 'error']({ msg: 'backend deployment creation failed', result: describe(res) });
    throw new EnrollError(EnrollErrorCode.DeploymentFailed);
  }

  private async audit(row: Record<string, unknown>): Promise<void> {
    if (await this.insertAudit(row)) return;
    const retry = (async () => {
      for (const delay of AUDIT_RETRY_DELAYS_MS) {
        await new Promise((r) => setTimeout(r, delay));
        if (await this.insertAudit(row)) return;
      }
      this.logger.error({ msg: 'enrollment_log insert failed after retries', deployment_uuid: row.deployment_uuid, user_id: row.user_id });
    })();
    this.pendingAudits.add(retry);
    void retry.finally(() => this.pendingAudits.delete(retry));
  }

  private async insertAudit(row: Record<string, unknown>): Promise<boolean> {
    const res = await this.upstream.call(`${this.upstream.dataUrl}/rest/v1/enrollment_log`, {
      method: 'POST',
      headers: { ...this.serviceHeaders(), prefer: 'return=minimal' },
      body: row,
    });
    const ok = res.kind === 'answer' && res.status >= 200 && res.status < 300;
    if (!ok) this.logger.warn({ msg: 'enrollment_log insert failed', deployment_uuid: row.deployment_uuid, result: describe(res) });
    return ok;
  }

  private serviceHeaders(): Record<string, string> {
    const key = this.config.dataServiceRoleKey;
    return { apikey: key, authorization: `Bearer ${key}` };
  }
}

/** hostname and platform: bounded (in characters, as PostgreSQL counts them) and plain text, checked before the backend call. */
function checkText(field: 'hostname' | 'platform', value: string, max: number): void {
  if (value.length > max && [...value].length > max) throw new EnrollError(EnrollErrorCode.InvalidField, `${field} must be at most ${max} characters`);
  if (CONTROL_CHARACTERS.test(value)) throw new EnrollError(EnrollErrorCode.InvalidField, `${field} must not contain control characters`);
  if (LONE_SURROGATE.test(value)) throw new EnrollError(EnrollErrorCode.InvalidField, `${field} must be valid Unicode text`);
}

function parseBody(raw: string | undefined): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '');
  } catch {
    throw new EnrollError(EnrollErrorCode.InvalidJson);
  }
  // Valid JSON that is not an object (an array, a string, null) has no hostname or platform.
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function describe(res: UpstreamResult): Record<string, unknown> {
  if (res.kind === 'answer') return { status: res.status, body: res.text.slice(0, 1000) };
  return res.kind === 'timeout' ? { error: 'timeout' } : { error: 'unreachable', reason: res.reason };
}
