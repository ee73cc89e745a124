import { Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeploymentEntity } from '@app/entities';
import { Clock } from '../../../common/clock';
import { CommonErrorCode, DomainError, notFound } from '../../../common/errors/domain-error';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { isUuid, pgText } from '../../../common/values';
import { RuntimeConfig } from '../../../config/runtime-config';
import { TransactionHost } from '../../../database/transaction-host';
import { AlertsService } from '../../alerting/alerts/alerts.service';
import { hashApiKey } from '../../common/api-key-secret';
import { ClientScope } from '../../common/client-scope';
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

/** How long an operator's POST /api/v3/agents/{id}/reenroll/ lets the next registration take the agent over. */
export const REENROLL_ALLOWANCE_MS = 24 * 3_600_000;

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
}

/**
 * Only the current secret of that very agent proves it: it lives in the agent's state file (mode 0600, root's or
 * the service account's). The hardware id is no proof (finding N1 of issue #30): any local user can read the
 * machine id it is made from (/etc/machine-id is 0444, IOPlatformUUID and MachineGuid are readable by users).
 */
function proves(agent: EnrolledAgent, p: Proof): boolean {
  return p.agentId === agent.id && p.secretHash !== null && agent.secretHash !== null && sameHash(p.secretHash, agent.secretHash);
}

/** What the enrolled agent and the refused device have in common, for the operator (a fact, never proof). */
function hardwareMatch(agent: EnrolledAgent, sent: string | null): string {
  if (sent === null) return 'sent no hardware id';
  if (agent.hardwareHash === null) return 'sent a hardware id (none is stored for the enrolled agent)';
  return sameHash(sent, agent.hardwareHash) ? 'sent the same hardware id (which any local user can read: no proof)' : 'sent a different hardware id';
}

type Outcome = { agentId: number; reenrolled: boolean } | { conflictWith: EnrolledAgent };

/**
 * POST /agent/v1/register: a device that runs a deployment's installer becomes an agent of the deployment's
 * client and site. The deployment's uuid is the enrollment token; it stays usable (by several devices) until it
 * is revoked, expires or, with max_registrations, is used up. The agent's hostname is the one the enrollment
 * function was asked for when the function made the deployment, else the one the device sent (which is kept as
 * os_hostname either way). A hostname already enrolled in the client keeps its agent only for the same
 * installation: the request must carry that agent's current secret, or an operator must have allowed the
 * re-enrollment (allowReenrollment); otherwise 409 and an enrollment_conflict alert.
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
      // The agent's own secret, or else an operator's allowance (POST /api/v3/agents/{id}/reenroll/) still running:
      // the row is locked, so one registration uses an allowance; the UPDATE clears it either way.
      const allowed = enrolled.reenrollAllowedUntil !== null && enrolled.reenrollAllowedUntil.getTime() > now.getTime();
      const proven = proves(enrolled, proof);
      if (!proven && !allowed) return { conflictWith: enrolled };
      await this.repo.reenroll(enrolled.id, row);
      if (!proven) {
        this.logger.warn(`agent ${enrolled.id} (${JSON.stringify(hostname)}) taken over by a registration through deployment ${deployment.id} from ${from.ip ?? 'an unknown address'}, as an operator allowed`);
        // The conflict the operator answered is over: its alert is resolved in this transaction.
        await this.alerts.resolveBySystem({ alertType: 'enrollment_conflict', id: enrolled.id });
      }
      return this.counted(deployment, { agentId: enrolled.id, reenrolled: true }, now);
    });

    if ('conflictWith' in outcome) {
      await this.conflict(outcome.conflictWith, { deployment, hostname, osHostname: facts.hostname, hardwareHash, ip: from.ip });
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

  /**
   * The enrolled agent gets one open enrollment_conflict alert (UQ_alerts_open_enrollment_conflict: one per agent,
   * however many attempts) naming both: the agent and its hostname, and the refused device (the name it sent,
   * whether its hardware id matches, the deployment, the caller's address), and what the operator can do.
   */
  private async conflict(
    agent: EnrolledAgent,
    device: { deployment: DeploymentEntity; hostname: string; osHostname: string; hardwareHash: string | null; ip: string | null },
  ): Promise<void> {
    const from = device.ip ?? 'an unknown address';
    const hardware = hardwareMatch(agent, device.hardwareHash);
    this.logger.warn(
      `registration of ${JSON.stringify(device.hostname)} through deployment ${device.deployment.id} from ${from} refused: ${HOSTNAME_ENROLLED} (agent ${agent.id}; the device ${hardware})`,
    );
    try {
      await this.alerts.raise({
        alertType: 'enrollment_conflict',
        agentId: agent.id,
        severity: 'warning',
        message:
          `${HOSTNAME_ENROLLED}: agent ${agent.id} (${device.hostname}) is enrolled; a device calling itself ${JSON.stringify(device.osHostname)} ` +
          `registered this hostname through deployment ${device.deployment.id} from ${from} without the agent's current secret and was refused; it ${hardware}. ` +
          `If it is a reinstall of this device, allow re-enrollment (POST /api/v3/agents/${agent.id}/reenroll/) or delete the old agent; otherwise leave it refused`,
      });
    } catch (err) {
      // The refusal stands whatever happens to the alert (the agent may have been deleted meanwhile).
      this.logger.error(`enrollment_conflict alert for agent ${agent.id} not opened: ${(err as Error).message}`);
    }
  }

  /**
   * POST /api/v3/agents/{id}/reenroll/: the next registration of the agent's hostname within REENROLL_ALLOWANCE_MS
   * takes the agent over (same id, new secret; the old secret stops working then), once. 404 for an agent the
   * caller may not see. Calling it again moves the deadline.
   */
  async allowReenrollment(agentId: number, clients: ClientScope): Promise<Date> {
    const until = new Date(this.clock.now().getTime() + REENROLL_ALLOWANCE_MS);
    if (!(await this.repo.allowReenrollment(agentId, until, clients))) throw notFound();
    this.logger.log(`agent ${agentId}: re-enrollment allowed until ${until.toISOString()}`);
    return until;
  }
}

const usedUp = (): DomainError => new DomainError(RegistrationErrorCode.DeploymentUsedUp, 'deployment used up: ask for a new installer');
