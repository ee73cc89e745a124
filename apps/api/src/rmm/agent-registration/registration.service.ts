import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { isUuid } from '../../common/values';
import { TransactionHost } from '../../database/transaction-host';
import { hashApiKey } from '../api-keys/api-key-secret';
import { DeploymentsRepository } from '../deployments/deployments.repository';
import { RmmEvents } from '../events/rmm-events';
import { RegisterAgentDto, RegisteredAgentDto } from './registration.dto';
import { RegistrationErrorCode } from './registration.errors';
import { RegistrationRepository } from './registration.repository';

/** A new agent secret: `agt_` and 40 URL-safe characters (240 bits); stored as its SHA-256 only. */
export const generateAgentSecret = (): string => `agt_${randomBytes(30).toString('base64url')}`;

/**
 * POST /agent/v1/register: a device that runs a deployment's installer becomes an agent of the deployment's
 * client and site. The deployment's uuid is the enrollment token; it stays usable (by several devices) until
 * it is revoked or expires.
 */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly repo: RegistrationRepository,
    private readonly deployments: DeploymentsRepository,
    private readonly tx: TransactionHost,
    private readonly clock: Clock,
    private readonly events: RmmEvents,
  ) {}

  async register(token: string | undefined, facts: RegisterAgentDto): Promise<RegisteredAgentDto> {
    const deployment = token && isUuid(token) ? await this.deployments.findByUuid(token.toLowerCase()) : null;
    if (!deployment) throw new DomainError(RegistrationErrorCode.UnknownDeployment, 'unknown deployment: the enrollment token names none');
    const now = this.clock.now();
    if (deployment.revokedAt) throw new DomainError(RegistrationErrorCode.DeploymentRevoked, 'deployment revoked: ask for a new installer');
    if (deployment.expiresAt.getTime() <= now.getTime()) throw new DomainError(RegistrationErrorCode.DeploymentExpired, 'deployment expired: ask for a new installer');

    const secret = generateAgentSecret();
    const agent = await this.tx.run(async () => {
      const saved = await this.repo.upsertAgent({
        hostname: facts.hostname,
        clientId: deployment.clientId,
        siteId: deployment.siteId,
        deploymentId: deployment.id,
        plat: facts.plat,
        operatingSystem: facts.operating_system ?? null,
        version: facts.version,
        cpuModel: facts.cpu_model ?? null,
        totalRam: facts.total_ram ?? null,
        disks: facts.disks ?? null,
        publicIp: facts.public_ip ?? null,
        localIp: facts.local_ip ?? null,
        loggedInUsername: facts.logged_in_username ?? null,
        monitoringType: facts.monitoring_type ?? 'workstation',
        secretHash: hashApiKey(secret),
      });
      await this.repo.completeEnrollment(deployment.uuid, saved.id, now);
      return saved;
    });
    // A re-enrolled agent's old secret stops working now: the agent channel closes a connection made with it.
    this.events.emit('agent.registered', { agentId: agent.id, reenrolled: agent.reenrolled });
    return { agent_id: String(agent.id), agent_secret: secret, client: deployment.clientId, site: deployment.siteId, reenrolled: agent.reenrolled };
  }
}
