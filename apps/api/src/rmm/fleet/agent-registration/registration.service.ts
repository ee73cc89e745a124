import { Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeploymentEntity } from '@app/entities';
import { Clock } from '../../../common/clock';
import { CommonErrorCode, DomainError } from '../../../common/errors/domain-error';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { isUuid, pgText } from '../../../common/values';
import { RuntimeConfig } from '../../../config/runtime-config';
import { TransactionHost } from '../../../database/transaction-host';
import { AlertsService } from '../../alerting/alerts/alerts.service';
import { hashApiKey } from '../../common/api-key-secret';
import { DeploymentsRepository } from '../deployments/deployments.repository';
import { NotificationOutbox } from '../../alerting/notifications/notification-outbox';
import { RmmEvents } from '../../common/bus/rmm-events';
import { RegisterAgentDto, RegisteredAgentDto } from './registration.dto';
import { RegistrationErrorCode } from './registration.errors';
import { EnrolledAgent, RegistrationFacts, RegistrationRepository } from './registration.repository';

/** A new agent secret: `agt_` and 40 URL-safe characters (240 bits); stored as its SHA-256 only. */
export const generateAgentSecret = (): string => `agt_${randomBytes(30).toString('base64url')}`;

/** What is stored of a hardware id (itself the agent's hex SHA-256 of the machine id): its SHA-256, hex. */
export const hashHardwareId = (hardwareId: string): string => createHash('sha256').update(hardwareId.toLowerCase(), 'utf8').digest('hex');

/** The detail of a re-enrollment that did not prove the device (the same whatever was wrong in the proof). */
export const HOSTNAME_ENROLLED = 'hostname already enrolled by another device';

const MINUTE_MS = 60_000;

const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
};

/** What the request offers as proof that it is the device already enrolled under its hostname. */
interface Proof {
  agentId: number | null;
  secretHash: string | null;
  hardwareHash: string | null;
}

/** The current secret of that very agent, or the hardware id it registered with (none stored: the secret only). */
function proves(agent: EnrolledAgent, p: Proof): boolean {
  const bySecret = p.agentId === agent.id && p.secretHash !== null && agent.secretHash !== null && sameHash(p.secretHash, agent.secretHash);
  const byHardware = p.hardwareHash !== null && agent.hardwareHash !== null && sameHash(p.hardwareHash, agent.hardwareHash);
  return bySecret || byHardware;
}

type Outcome = { agentId: number; reenrolled: boolean } | { conflictWith: number };

/**
 * POST /agent/v1/register: a device that runs a deployment's installer becomes an agent of the deployment's
 * client and site. The deployment's uuid is the enrollment token; it stays usable (by several devices) until it
 * is revoked, expires or, with max_registrations, is used up. The agent's hostname is the one the enrollment
 * function was asked for when the function made the deployment, else the one the device sent (which is kept as
 * os_hostname either way). A hostname already enrolled in the client keeps its agent only for the same device:
 * the request must carry that agent's current secret or its hardware id.
 */
@Injectable()
export class RegistrationService {
  private readonly logger = new Logger('registration');

  constructor(
    private readonly repo: RegistrationRepository,
    private readonly deployments: DeploymentsRepository,
    private readonly tx: TransactionHost,
    private readonly clock: Clock,
    private readonly events: RmmEvents,
    private readonly alerts: AlertsService,
    private readonly limiter: RateLimiter,
    private readonly config: RuntimeConfig,
    private readonly outbox: NotificationOutbox,
  ) {}

  async register(token: string | undefined, facts: RegisterAgentDto, from: { ip: string | null } = { ip: null }): Promise<RegisteredAgentDto> {
    const deployment = token && isUuid(token) ? await this.deployments.findByUuid(token.toLowerCase()) : null;
    if (!deployment) throw new DomainError(RegistrationErrorCode.UnknownDeployment, 'unknown deployment: the enrollment token names none');
    await this.charge(deployment);
    const now = this.clock.now();
    if (deployment.revokedAt) throw new DomainError(RegistrationErrorCode.DeploymentRevoked, 'deployment revoked: ask for a new installer');
    if (deployment.expiresAt.getTime() <= now.getTime()) throw new DomainError(RegistrationErrorCode.DeploymentExpired, 'deployment expired: ask for a new installer');
    if (deployment.maxRegistrations !== null && deployment.registrations >= deployment.maxRegistrations) throw usedUp();

    // A deployment the enrollment function made names the device: the hostname the function was asked for (the
    // one the spec's caller polls the agent list by) is the agent's; the device's own name is kept as os_hostname.
    const hostname = (await this.deployments.requestedHostname(deployment.uuid)) ?? facts.hostname;
    const secret = generateAgentSecret();
    const hardwareHash = facts.hardware_id ? hashHardwareId(facts.hardware_id) : null;
    const row: RegistrationFacts = {
      hostname,
      osHostname: facts.hostname,
      clientId: deployment.clientId,
      siteId: deployment.siteId,
      deploymentId: deployment.id,
      plat: facts.plat,
      operatingSystem: facts.operating_system ?? null,
      version: facts.version,
      cpuModel: facts.cpu_model ?? null,
      totalRam: facts.total_ram ?? null,
      // (jsonb refuses a lone surrogate that text columns take as U+FFFD: pgText makes both the same)
      disks: facts.disks?.map((d) => ({ device: pgText(d.device), free: pgText(d.free), total: pgText(d.total), percent: d.percent })) ?? null,
      publicIp: facts.public_ip ?? null,
      localIp: facts.local_ip ?? null,
      loggedInUsername: facts.logged_in_username ?? null,
      monitoringType: facts.monitoring_type ?? 'workstation',
      secretHash: hashApiKey(secret),
      hardwareHash,
    };
    const proof: Proof = {
      agentId: facts.agent_id === undefined ? null : Number(facts.agent_id),
      secretHash: facts.agent_secret === undefined ? null : hashApiKey(facts.agent_secret),
      hardwareHash,
    };

    const outcome = await this.tx.run(async (): Promise<Outcome> => {
      let enrolled = await this.repo.lockEnrolled(deployment.clientId, hostname);
      // A row made by a registration of the same hostname at the same moment (or deleted meanwhile): look again.
      for (let attempt = 0; !enrolled && attempt < 3; attempt++) {
        const created = await this.repo.insertAgent(row);
        if (created !== null) return this.counted(deployment, { agentId: created, reenrolled: false }, now);
        enrolled = await this.repo.lockEnrolled(deployment.clientId, hostname);
      }
      if (!enrolled) throw new DomainError(CommonErrorCode.Unavailable, 'registration conflicted with concurrent changes: retry');
      if (!proves(enrolled, proof)) return { conflictWith: enrolled.id };
      await this.repo.reenroll(enrolled.id, row);
      return this.counted(deployment, { agentId: enrolled.id, reenrolled: true }, now);
    });

    if ('conflictWith' in outcome) {
      await this.conflict(outcome.conflictWith, deployment, hostname, from.ip);
      throw new DomainError(RegistrationErrorCode.HostnameEnrolled, HOSTNAME_ENROLLED);
    }
    // A re-enrolled agent's old secret stops working now: the agent channel closes a connection made with it.
    this.events.emit('agent.registered', { agentId: outcome.agentId, reenrolled: outcome.reenrolled });
    return {
      agent_id: String(outcome.agentId),
      agent_secret: secret,
      hostname,
      client: deployment.clientId,
      site: deployment.siteId,
      reenrolled: outcome.reenrolled,
    };
  }

  /** RMM_REGISTER_RATE_LIMIT_PER_MINUTE attempts per deployment (every instance's, with Redis); past it 429, nothing written. */
  private async charge(deployment: DeploymentEntity): Promise<void> {
    const state = await this.limiter.hit(`register:${deployment.uuid}`, this.config.registerRateLimitPerMinute, MINUTE_MS);
    if (!state.allowed) {
      throw new DomainError(CommonErrorCode.RateLimited, 'rate limited', [], { 'Retry-After': String(state.retryAfterSeconds) });
    }
  }

  /** The successful registration counts against the deployment's max_registrations (rolled back when used up). */
  private async counted(deployment: DeploymentEntity, outcome: { agentId: number; reenrolled: boolean }, now: Date): Promise<Outcome> {
    if (!(await this.deployments.countRegistration(deployment.id))) throw usedUp();
    await this.repo.completeEnrollment(deployment.uuid, outcome.agentId, now);
    // enrollment.completed, in the registration's transaction (new and re-enrolled devices alike).
    await this.outbox.agents('enrollment.completed', [outcome.agentId]);
    return outcome;
  }

  /** The enrolled agent gets one open enrollment_conflict alert naming the deployment and the caller's address. */
  private async conflict(agentId: number, deployment: DeploymentEntity, hostname: string, ip: string | null): Promise<void> {
    const from = ip ?? 'an unknown address';
    this.logger.warn(`registration of ${JSON.stringify(hostname)} through deployment ${deployment.id} from ${from} refused: ${HOSTNAME_ENROLLED} (agent ${agentId})`);
    try {
      await this.alerts.raise({
        alertType: 'enrollment_conflict',
        agentId,
        severity: 'warning',
        message: `${HOSTNAME_ENROLLED}: a registration of this hostname through deployment ${deployment.id} from ${from} did not prove it is this device, and was refused`,
      });
    } catch (err) {
      // The refusal stands whatever happens to the alert (the agent may have been deleted meanwhile).
      this.logger.error(`enrollment_conflict alert for agent ${agentId} not opened: ${(err as Error).message}`);
    }
  }
}

const usedUp = (): DomainError => new DomainError(RegistrationErrorCode.DeploymentUsedUp, 'deployment used up: ask for a new installer');
