import { Inject, Injectable } from '@nestjs/common';
import { DeploymentEntity } from '@app/entities';
import { ClientScope, inScope } from '../../common/client-scope';
import { clientFilter, Principal } from '../../common/principal';
import { Clock } from '../../../common/clock';
import { CommonErrorCode, DomainError, invalid, notFound } from '../../../common/errors/domain-error';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { isUuid } from '../../../common/values';
import { TransactionHost } from '../../../database/transaction-host';
import { AGENT_UPDATE_PUBLIC_KEY } from '../agent-binaries/agent-update-key';
import { DeploymentsErrorCode } from './deployments.errors';
import { RuntimeConfig } from '../../../config/runtime-config';
import { ClientsService } from '../../tenancy/clients/clients.service';
import { Page } from '../../common/pagination.dto';
import { CreateDeploymentDto } from './deployments.dto';
import { DeploymentsRepository } from './deployments.repository';
import { buildInstaller, choosePlatform, Installer, InstallerPlatform } from './installer';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const GONE_DETAIL: Record<DeploymentsErrorCode, string> = {
  [DeploymentsErrorCode.Revoked]: 'deployment revoked',
  [DeploymentsErrorCode.Expired]: 'deployment expired',
  [DeploymentsErrorCode.UsedUp]: 'deployment used up',
};
/** The longest a deployment may live: a download link is a credential. */
const MAX_LIFETIME_MS = 365 * DAY_MS;

@Injectable()
export class DeploymentsService {
  constructor(
    private readonly repo: DeploymentsRepository,
    private readonly clients: ClientsService,
    private readonly clock: Clock,
    private readonly config: RuntimeConfig,
    private readonly tx: TransactionHost,
    private readonly limiter: RateLimiter,
    /** The server's public update key (base64), which the installers embed for `register --update-key`. */
    @Inject(AGENT_UPDATE_PUBLIC_KEY) private readonly updateKey: string,
  ) {}

  get publicUrl(): string {
    return this.config.publicUrl;
  }

  /** RMM_DOWNLOAD_IDLE_TIMEOUT_MS: a native installer's download whose client reads nothing this long is cut off. */
  get downloadIdleTimeoutMs(): number {
    return this.config.downloadIdleTimeoutMs;
  }

  async create(body: CreateDeploymentDto, key: Principal | undefined): Promise<DeploymentEntity> {
    const now = this.clock.now().getTime();
    const expiresAt = body.expires ? new Date(body.expires) : new Date(now + DAY_MS);
    if (expiresAt.getTime() <= now) throw invalid('validation error', [{ field: 'expires', message: 'must be in the future' }]);
    if (expiresAt.getTime() > now + MAX_LIFETIME_MS) throw invalid('validation error', [{ field: 'expires', message: 'at most one year ahead' }]);
    const place = await this.clients.placeOf(body.client, body.site);
    // Another client than the caller's is answered as an unknown one.
    if (!place.clientExists || !inScope(clientFilter(key), body.client)) throw invalid('validation error', [{ field: 'client', message: `no client ${body.client}` }]);
    if (place.siteClientId !== body.client) throw invalid('validation error', [{ field: 'site', message: `site ${body.site} does not belong to client ${body.client}` }]);
    return this.repo.insert({
      clientId: body.client,
      siteId: body.site,
      arch: body.arch ?? 'amd64',
      installFlags: body.install_flags ?? null,
      expiresAt,
      createdByKeyId: key?.kind === 'api_key' ? key.id : null,
      maxRegistrations: body.max_registrations ?? null,
    });
  }

  /** `clients`: the caller's (other clients' deployments do not exist for it: 404, absent from the list). */
  listActive(page: Page, clients: ClientScope): Promise<[DeploymentEntity[], number]> {
    return this.repo.listActive(this.clock.now(), page, clients);
  }

  /** Revokes (idempotent: an already revoked or expired deployment stays so). */
  async revoke(id: number, clients: ClientScope): Promise<void> {
    if (!(await this.repo.findById(id, clients))) throw notFound();
    await this.tx.run(async () => {
      await this.repo.revoke(id, this.clock.now());
      await this.repo.failPendingEnrollment(id);
    });
  }

  /**
   * The installer for `platform` (absent: chosen from the User-Agent) of an active deployment; 410 once revoked,
   * expired or used up, 404 for an unknown uuid. Every attempt on a known deployment within the per (link, address)
   * budget (RMM_DOWNLOAD_RATE_LIMIT_PER_MINUTE) is recorded (time, address, user agent, answer); past it 429 and
   * nothing is written, so that callers without a key cannot grow the download log without bound.
   */
  async download(uuid: string, from: { ip: string | null; userAgent: string | null; platform?: InstallerPlatform }): Promise<Installer> {
    if (!isUuid(uuid)) throw notFound();
    const token = uuid.toLowerCase();
    const budget = await this.limiter.hit(`download:${token}:${from.ip ?? ''}`, this.config.downloadRateLimitPerMinute, MINUTE_MS);
    if (!budget.allowed) throw new DomainError(CommonErrorCode.RateLimited, 'rate limited', [], { 'Retry-After': String(budget.retryAfterSeconds) });
    const d = await this.repo.findByUuid(token);
    if (!d) throw notFound();
    const now = this.clock.now();
    const gone = d.revokedAt
      ? DeploymentsErrorCode.Revoked
      : d.expiresAt.getTime() <= now.getTime()
        ? DeploymentsErrorCode.Expired
        : d.maxRegistrations !== null && d.registrations >= d.maxRegistrations
          ? DeploymentsErrorCode.UsedUp
          : null;
    await this.repo.recordDownload({ deploymentId: d.id, ip: from.ip, userAgent: from.userAgent?.slice(0, 500) ?? null, status: gone ? 410 : 200, downloadedAt: now });
    if (gone) throw new DomainError(gone, GONE_DETAIL[gone]);
    // A deployment the enrollment function made registers the device under the hostname it was asked for: the script says so.
    const requested = await this.repo.requestedHostname(d.uuid);
    const platform = choosePlatform(from.platform, from.userAgent);
    return buildInstaller(d, this.config.publicUrl.replace(/\/+$/, ''), platform, this.updateKey, this.config.installersDir, requested);
  }
}
