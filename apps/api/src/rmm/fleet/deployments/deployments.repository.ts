import { Injectable } from '@nestjs/common';
import { IsNull, Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { DeploymentDownloadEntity, DeploymentEntity } from '@app/entities';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { isAgentHostname } from '../../../common/values';

@Injectable()
export class DeploymentsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get deployments(): Repository<DeploymentEntity> {
    return this.tx.repo(DeploymentEntity);
  }

  private get downloads(): Repository<DeploymentDownloadEntity> {
    return this.tx.repo(DeploymentDownloadEntity);
  }


  insert(d: Pick<DeploymentEntity, 'clientId' | 'siteId' | 'arch' | 'installFlags' | 'expiresAt' | 'createdByKeyId' | 'maxRegistrations'>): Promise<DeploymentEntity> {
    // (one INSERT … RETURNING is atomic by itself: no transaction around it, two statements fewer per deployment)
    return this.deployments.save(this.deployments.create(d), { transaction: false });
  }

  /** Not revoked and not expired at `now`, by id (uses IDX_deployments_active). `clients`: only those clients' (rows and count). */
  listActive(now: Date, page: Page, clients: ClientScope): Promise<[DeploymentEntity[], number]> {
    const q = this.deployments.createQueryBuilder('d').where('d.revokedAt IS NULL AND d.expiresAt > :now', { now });
    if (clients !== null) q.andWhere('d.clientId = ANY(:clients)', { clients: [...clients] });
    return q.orderBy('d.id', 'ASC').offset(page.offset).limit(page.limit).getManyAndCount();
  }

  /** By id; null for a deployment of a client outside `clients`. */
  findById(id: number, clients: ClientScope): Promise<DeploymentEntity | null> {
    const q = this.deployments.createQueryBuilder('d').where('d.id = :id', { id });
    if (clients !== null) q.andWhere('d.clientId = ANY(:clients)', { clients: [...clients] });
    return q.getOne();
  }

  findByUuid(uuid: string): Promise<DeploymentEntity | null> {
    return this.deployments.findOneBy({ uuid });
  }

  async revoke(id: number, at: Date): Promise<void> {
    await this.deployments.update({ id, revokedAt: IsNull() }, { revokedAt: at });
  }

  /**
   * Counts one successful registration, unless the deployment's max_registrations are used up: false then. One
   * UPDATE, so registrations of a one-time link at the same moment count one (the row lock orders them).
   */
  async countRegistration(id: number): Promise<boolean> {
    const rows = await this.tx.rows<{ id: number }>(
      // (a CTE, so that the driver answers rows rather than an UPDATE's [rows, count])
      `WITH counted AS (UPDATE deployments SET registrations = registrations + 1
         WHERE id = $1 AND (max_registrations IS NULL OR registrations < max_registrations) RETURNING id)
       SELECT id FROM counted`,
      [id],
    );
    return rows.length === 1;
  }

  /** A deployment revoked before any device used it: its enrollment log row (if the function made it) failed. */
  async failPendingEnrollment(id: number): Promise<void> {
    await this.tx.exec(
      `UPDATE enrollment_log e SET status = 'failed' FROM deployments d WHERE d.id = $1 AND e.deployment_uuid = d.uuid::text AND e.status = 'pending'`,
      [id],
    );
  }

  /** Enrollment log rows whose deployment expired unused become `expired`; returns how many. */
  async expirePendingEnrollments(now: Date): Promise<number> {
    const { rowCount } = await this.tx.exec(
      `UPDATE enrollment_log e SET status = 'expired' FROM deployments d
        WHERE e.status = 'pending' AND e.deployment_uuid = d.uuid::text AND d.expires_at <= $1`,
      [now],
    );
    return rowCount;
  }

  /**
   * The hostname the enrollment function was asked for when it made this deployment (its enrollment_log row, the
   * latest if several name the uuid), when it is a valid agent hostname; null for a deployment the function did
   * not make (or whose row names none, or one that is not a hostname an agent may have).
   */
  async requestedHostname(uuid: string): Promise<string | null> {
    const [row] = await this.tx.rows<{ hostname: string | null }>(
      `SELECT hostname FROM enrollment_log WHERE deployment_uuid = $1 AND hostname IS NOT NULL ORDER BY requested_at DESC, id DESC LIMIT 1`,
      [uuid],
    );
    return row && isAgentHostname(row.hostname) ? row.hostname : null;
  }

  async recordDownload(row: Pick<DeploymentDownloadEntity, 'deploymentId' | 'ip' | 'userAgent' | 'status' | 'downloadedAt'>): Promise<void> {
    await this.downloads.insert(row);
  }
}
