import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../database/transaction-host';

export interface RegistrationFacts {
  hostname: string;
  clientId: number;
  siteId: number;
  deploymentId: number;
  plat: string;
  operatingSystem: string | null;
  version: string;
  cpuModel: string | null;
  totalRam: number | null;
  disks: unknown[] | null;
  publicIp: string | null;
  localIp: string | null;
  loggedInUsername: string | null;
  monitoringType: string;
  secretHash: string;
}

/** The writes of a registration, as SQL: one upsert on (client_id, hostname), and the enrollment log. */
@Injectable()
export class RegistrationRepository {
  constructor(private readonly tx: TransactionHost) {}

  /**
   * One agent per (client, hostname), enforced by UQ_agents_client_hostname: a second registration of the
   * same host, even at the same moment, updates that row (new facts, the deployment's site, a new secret)
   * and answers its id.
   */
  async upsertAgent(f: RegistrationFacts): Promise<{ id: number; reenrolled: boolean }> {
    const [row] = await this.tx.query<Array<{ id: number; reenrolled: boolean }>>(
      `INSERT INTO agents (hostname, client_id, site_id, deployment_id, plat, operating_system, version, cpu_model, total_ram, disks,
                           public_ip, local_ip, logged_in_username, monitoring_type, secret_hash, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'offline')
       ON CONFLICT (client_id, hostname) DO UPDATE SET
         site_id = EXCLUDED.site_id, deployment_id = EXCLUDED.deployment_id, plat = EXCLUDED.plat,
         operating_system = EXCLUDED.operating_system, version = EXCLUDED.version, cpu_model = EXCLUDED.cpu_model,
         total_ram = EXCLUDED.total_ram, disks = EXCLUDED.disks, public_ip = EXCLUDED.public_ip, local_ip = EXCLUDED.local_ip,
         logged_in_username = EXCLUDED.logged_in_username, monitoring_type = EXCLUDED.monitoring_type,
         secret_hash = EXCLUDED.secret_hash, updated_at = now()
       RETURNING id, (xmax::text <> '0') AS reenrolled`,
      [
        f.hostname, f.clientId, f.siteId, f.deploymentId, f.plat, f.operatingSystem, f.version, f.cpuModel, f.totalRam,
        f.disks === null ? null : JSON.stringify(f.disks), f.publicIp, f.localIp, f.loggedInUsername, f.monitoringType, f.secretHash,
      ],
    );
    return { id: row.id, reenrolled: row.reenrolled };
  }

  /** The enrollment log row of a deployment made by the enrollment function becomes completed, once. */
  async completeEnrollment(deploymentUuid: string, agentId: number, at: Date): Promise<void> {
    await this.tx.query(
      `UPDATE enrollment_log SET status = 'completed', agent_id = $2, completed_at = $3 WHERE deployment_uuid = $1 AND status = 'pending'`,
      [deploymentUuid, agentId, at],
    );
  }
}
