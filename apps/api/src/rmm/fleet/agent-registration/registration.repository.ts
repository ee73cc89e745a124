import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../../database/transaction-host';
import { ClientScope } from '../../common/client-scope';

export interface RegistrationFacts {
  /** The agent's name in its client: the hostname the enrollment function was asked for, else the one sent. */
  hostname: string;
  /** The hostname the device sent (its own name). */
  osHostname: string;
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
  /** Hash of the hardware id the device sent; null: none sent (a re-enrollment then keeps the stored one). */
  hardwareHash: string | null;
}

/** What decides a re-enrollment: the agent's current secret (as its hash) or an operator's allowance; the hardware id is a fact. */
export interface EnrolledAgent {
  id: number;
  secretHash: string | null;
  hardwareHash: string | null;
  reenrollAllowedUntil: Date | null;
}

/** The writes of a registration, as SQL: the agent of (client_id, hostname), and the enrollment log. */
@Injectable()
export class RegistrationRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The agent enrolled under this hostname in this client, locked until the transaction ends; null when none. */
  async lockEnrolled(clientId: number, hostname: string): Promise<EnrolledAgent | null> {
    const [row] = await this.tx.rows<{ id: number; secret_hash: string | null; hardware_hash: string | null; reenroll_allowed_until: Date | null }>(
      `SELECT id, secret_hash, hardware_hash, reenroll_allowed_until FROM agents WHERE client_id = $1 AND hostname = $2 FOR UPDATE`,
      [clientId, hostname],
    );
    return row ? { id: row.id, secretHash: row.secret_hash, hardwareHash: row.hardware_hash, reenrollAllowedUntil: row.reenroll_allowed_until } : null;
  }

  /** Sets the agent's re-enrollment allowance; false when no such agent (of `clients`, when limited). */
  async allowReenrollment(id: number, until: Date, clients: ClientScope): Promise<boolean> {
    const res = await this.tx.exec(
      `UPDATE agents SET reenroll_allowed_until = $2 WHERE id = $1 AND ($3::int[] IS NULL OR client_id = ANY($3::int[]))`,
      [id, until, clients],
    );
    return res.rowCount > 0;
  }

  /**
   * A new agent, unless the hostname is already enrolled in the client (UQ_agents_client_hostname decides, so
   * two registrations of one hostname at the same moment make one row): its id, or null when the row exists.
   */
  async insertAgent(f: RegistrationFacts): Promise<number | null> {
    const [row] = await this.tx.rows<{ id: number }>(
      `INSERT INTO agents (hostname, client_id, site_id, deployment_id, plat, operating_system, version, cpu_model, total_ram, disks,
                           public_ip, local_ip, logged_in_username, monitoring_type, secret_hash, hardware_hash, os_hostname, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, 'offline')
       ON CONFLICT (client_id, hostname) DO NOTHING
       RETURNING id`,
      [
        f.hostname, f.clientId, f.siteId, f.deploymentId, f.plat, f.operatingSystem, f.version, f.cpuModel, f.totalRam,
        f.disks === null ? null : JSON.stringify(f.disks), f.publicIp, f.localIp, f.loggedInUsername, f.monitoringType, f.secretHash,
        f.hardwareHash, f.osHostname,
      ],
    );
    return row ? row.id : null;
  }

  /**
   * A re-enrollment (proven by the secret, or allowed by an operator): new facts (the device's own name among
   * them), the deployment's site, a new secret; the hardware hash sent (else the stored one is kept). The agent's
   * hostname is the one it was found by. Any allowance is used up.
   */
  async reenroll(id: number, f: RegistrationFacts): Promise<void> {
    await this.tx.exec(
      `UPDATE agents SET
         site_id = $2, deployment_id = $3, plat = $4, operating_system = $5, version = $6, cpu_model = $7, total_ram = $8,
         disks = $9, public_ip = $10, local_ip = $11, logged_in_username = $12, monitoring_type = $13, secret_hash = $14,
         hardware_hash = COALESCE($15, hardware_hash), os_hostname = $16, reenroll_allowed_until = NULL, updated_at = now()
       WHERE id = $1`,
      [
        id, f.siteId, f.deploymentId, f.plat, f.operatingSystem, f.version, f.cpuModel, f.totalRam,
        f.disks === null ? null : JSON.stringify(f.disks), f.publicIp, f.localIp, f.loggedInUsername, f.monitoringType, f.secretHash,
        f.hardwareHash, f.osHostname,
      ],
    );
  }

  /** The enrollment log row of a deployment made by the enrollment function becomes completed, once. */
  async completeEnrollment(deploymentUuid: string, agentId: number, at: Date): Promise<void> {
    await this.tx.exec(
      `UPDATE enrollment_log SET status = 'completed', agent_id = $2, completed_at = $3 WHERE deployment_uuid = $1 AND status = 'pending'`,
      [deploymentUuid, agentId, at],
    );
  }
}
