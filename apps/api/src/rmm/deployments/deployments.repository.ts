import { Injectable } from '@nestjs/common';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { TransactionHost } from '../../database/transaction-host';
import { DeploymentDownloadEntity, DeploymentEntity } from '@app/entities';
import { Page } from '../common/pagination.dto';

@Injectable()
export class DeploymentsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get deployments(): Repository<DeploymentEntity> {
    return this.tx.repo(DeploymentEntity);
  }

  private get downloads(): Repository<DeploymentDownloadEntity> {
    return this.tx.repo(DeploymentDownloadEntity);
  }


  insert(d: Pick<DeploymentEntity, 'clientId' | 'siteId' | 'arch' | 'installFlags' | 'expiresAt' | 'createdByKeyId'>): Promise<DeploymentEntity> {
    return this.deployments.save(this.deployments.create(d));
  }

  /** Not revoked and not expired at `now`, by id (uses IDX_deployments_active). */
  listActive(now: Date, page: Page): Promise<[DeploymentEntity[], number]> {
    return this.deployments.findAndCount({ where: { revokedAt: IsNull(), expiresAt: MoreThan(now) }, order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  findById(id: number): Promise<DeploymentEntity | null> {
    return this.deployments.findOneBy({ id });
  }

  findByUuid(uuid: string): Promise<DeploymentEntity | null> {
    return this.deployments.findOneBy({ uuid });
  }

  async revoke(id: number, at: Date): Promise<void> {
    await this.deployments.update({ id, revokedAt: IsNull() }, { revokedAt: at });
  }

  /** A deployment revoked before any device used it: its enrollment log row (if the function made it) failed. */
  async failPendingEnrollment(id: number): Promise<void> {
    await this.tx.query(
      `UPDATE enrollment_log e SET status = 'failed' FROM deployments d WHERE d.id = $1 AND e.deployment_uuid = d.uuid::text AND e.status = 'pending'`,
      [id],
    );
  }

  /** Enrollment log rows whose deployment expired unused become `expired`; returns how many. */
  async expirePendingEnrollments(now: Date): Promise<number> {
    const rows: unknown[] = await this.tx.query(
      // (a CTE, so that the driver answers rows rather than an UPDATE's [rows, count])
      `WITH changed AS (UPDATE enrollment_log e SET status = 'expired' FROM deployments d
        WHERE e.status = 'pending' AND e.deployment_uuid = d.uuid::text AND d.expires_at <= $1
       RETURNING e.id) SELECT id FROM changed`,
      [now],
    );
    return rows.length;
  }

  async recordDownload(row: Pick<DeploymentDownloadEntity, 'deploymentId' | 'ip' | 'userAgent' | 'status' | 'downloadedAt'>): Promise<void> {
    await this.downloads.insert(row);
  }
}
