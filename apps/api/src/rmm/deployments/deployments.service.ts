import { Injectable } from '@nestjs/common';
import { ApiKeyEntity, DeploymentEntity } from '@app/entities';
import { Clock } from '../../common/clock';
import { DomainError, invalid, notFound } from '../../common/errors/domain-error';
import { isUuid } from '../../common/values';
import { TransactionHost } from '../../database/transaction-host';
import { DeploymentsErrorCode } from './deployments.errors';
import { RuntimeConfig } from '../../config/runtime-config';
import { ClientsService } from '../clients/clients.service';
import { Page } from '../common/pagination.dto';
import { CreateDeploymentDto } from './deployments.dto';
import { DeploymentsRepository } from './deployments.repository';
import { buildInstaller, choosePlatform, Installer, InstallerPlatform } from './installer';

const DAY_MS = 86_400_000;
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
  ) {}

  get publicUrl(): string {
    return this.config.publicUrl;
  }

  /** RMM_DOWNLOAD_IDLE_TIMEOUT_MS: a native installer's download whose client reads nothing this long is cut off. */
  get downloadIdleTimeoutMs(): number {
    return this.config.downloadIdleTimeoutMs;
  }

  async create(body: CreateDeploymentDto, key: ApiKeyEntity | undefined): Promise<DeploymentEntity> {
    const now = this.clock.now().getTime();
    const expiresAt = body.expires ? new Date(body.expires) : new Date(now + DAY_MS);
    if (expiresAt.getTime() <= now) throw invalid('validation error', [{ field: 'expires', message: 'must be in the future' }]);
    if (expiresAt.getTime() > now + MAX_LIFETIME_MS) throw invalid('validation error', [{ field: 'expires', message: 'at most one year ahead' }]);
    const site = await this.clients.findSite(body.site);
    if (!(await this.clients.exists(body.client))) throw invalid('validation error', [{ field: 'client', message: `no client ${body.client}` }]);
    if (!site || site.clientId !== body.client) throw invalid('validation error', [{ field: 'site', message: `site ${body.site} does not belong to client ${body.client}` }]);
    return this.repo.insert({
      clientId: body.client,
      siteId: body.site,
      arch: body.arch ?? 'amd64',
      installFlags: body.install_flags ?? null,
      expiresAt,
      createdByKeyId: key?.id ?? null,
    });
  }

  listActive(page: Page): Promise<[DeploymentEntity[], number]> {
    return this.repo.listActive(this.clock.now(), page);
  }

  /** Revokes (idempotent: an already revoked or expired deployment stays so). */
  async revoke(id: number): Promise<void> {
    if (!(await this.repo.findById(id))) throw notFound();
    await this.tx.run(async () => {
      await this.repo.revoke(id, this.clock.now());
      await this.repo.failPendingEnrollment(id);
    });
  }

  /**
   * The installer of an active deployment; 410 once revoked or expired, 404 for an unknown uuid. Every
   * attempt on a known deployment is recorded (time, address, user agent, answer).
   */
  /** The installer for `platform` (absent: chosen from the User-Agent); every request is recorded. */
  async download(uuid: string, from: { ip: string | null; userAgent: string | null; platform?: InstallerPlatform }): Promise<Installer> {
    const d = isUuid(uuid) ? await this.repo.findByUuid(uuid.toLowerCase()) : null;
    if (!d) throw notFound();
    const now = this.clock.now();
    const gone = d.revokedAt ? DeploymentsErrorCode.Revoked : d.expiresAt.getTime() <= now.getTime() ? DeploymentsErrorCode.Expired : null;
    await this.repo.recordDownload({ deploymentId: d.id, ip: from.ip, userAgent: from.userAgent?.slice(0, 500) ?? null, status: gone ? 410 : 200, downloadedAt: now });
    if (gone) throw new DomainError(gone, gone === DeploymentsErrorCode.Revoked ? 'deployment revoked' : 'deployment expired');
    return buildInstaller(d, this.config.publicUrl.replace(/\/+$/, ''), choosePlatform(from.platform, from.userAgent), this.config.installersDir);
  }
}
