import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AGENT_TARGETS, AgentTarget } from '@app/entities';
import { Clock } from '../../../common/clock';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { pgText } from '../../../common/values';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentChannel, LocalAgentChannel } from '../agent-channel/agent-channel';
import { TransactionHost } from '../../../database/transaction-host';
import { AlertsService } from '../../alerting/alerts/alerts.service';
import { RmmEvents } from '../../common/bus/rmm-events';
import { ClientScope, EVERY_CLIENT } from '../../common/client-scope';
import { AgentUpdatesRepository, UpdateCounts } from './agent-updates.repository';
import { AgentSigningKey } from '../agent-binaries/signing-key';

/** Where the binaries offered come from (AgentBinaries: built lazily, measured once). */
export interface AgentBinarySource {
  /** The agent version this server offers (RMM_AGENT_VERSION, default its own). */
  readonly version: string;
  get(target: AgentTarget): Promise<{ version: string; size: number; sha256: string }>;
  /** Why the last build of `target` failed (the build's own words), if it did. */
  lastFailure?(target: AgentTarget): string | undefined;
}

/** A halted rollout, as GET /api/v3/agents/updates/ shows it. */
export interface RolloutHalt {
  at: Date;
  reason: string;
}
export const AGENT_BINARY_SOURCE = Symbol('AgentBinarySource');

/** How often each instance offers free slots to the agents it holds (and sooner when a slot frees). */
const TICK_MS = 1_000;
/** How often updates offered UPDATE_TIMEOUT_MS ago are closed as failed (once across the cluster). */
const EXPIRE_EVERY_MS = 30_000;
/** An update offered this long ago whose agent has neither come back on the new version nor said why: failed. */
export const UPDATE_TIMEOUT_MS = 15 * 60_000;
/** After a binary could not be had (its build failed): wait this long before offering again. */
const BUILD_FAILURE_PAUSE_MS = 60_000;
/** The window RMM_AGENT_UPDATE_HALT_FAILURES counts failures in. */
const HALT_WINDOW_MS = 60 * 60_000;
const TARGETS: ReadonlySet<string> = new Set(AGENT_TARGETS);

/**
 * Staged self-update (docs/agent-binaries.md): an agent that reports another version than the server's, as a binary
 * that can update itself (the `update_target` fact), in a client whose `agent_update` is auto, gets a pending update;
 * each instance offers pending updates to the agents it holds while fewer than RMM_AGENT_UPDATE_CONCURRENCY are
 * running across all instances (update.available, signed); an update is done when the agent comes back on the new
 * version, failed when it says so (update.failed: refused or rolled back) or after UPDATE_TIMEOUT_MS.
 */
@Injectable()
export class AgentUpdatesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('agent-updates');
  private readonly off: Array<() => void> = [];
  private readonly round: Job;
  private readonly expiry: Job;
  private pausedUntil = 0;
  /** Agents this instance offered an update to: their disconnect releases the offer at once (N3). */
  private readonly offeredHere = new Set<number>();
  /** The agent each target's open agent_build_failed alert is on (resolved when that target's binary is had). */
  private readonly buildAlerts = new Map<string, number>();
  /** Whether some update may be pending or running (refreshed every tick): a heartbeat on the server's version then costs nothing. */
  private active = true;

  constructor(
    private readonly repo: AgentUpdatesRepository,
    private readonly channel: AgentChannel,
    private readonly local: LocalAgentChannel,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
    private readonly config: RuntimeConfig,
    private readonly signing: AgentSigningKey,
    @Inject(AGENT_BINARY_SOURCE) private readonly binaries: AgentBinarySource,
    private readonly alerts: AlertsService,
    private readonly tx: TransactionHost,
    jobs: Jobs,
  ) {
    // Every instance: it offers slots to the agents it holds. A kick runs it at once (one run at a time).
    this.round = jobs.every('agent-updates.offer', { seconds: TICK_MS / 1000, mode: 'every-instance' }, () => this.tick());
    // Once across the cluster: one UPDATE over every update (each row changes once, its event from the instance that changed it).
    this.expiry = jobs.every('agent-updates.expire', { seconds: EXPIRE_EVERY_MS / 1000, mode: 'cluster-once' }, () => this.expire());
  }

  get version(): string {
    return this.binaries.version;
  }

  onApplicationBootstrap(): void {
    this.off.push(
      this.channel.handle('heartbeat', (agentId, message) => {
        const facts = message.facts as Record<string, unknown> | undefined;
        if (!facts || typeof facts.version !== 'string') return;
        const target = typeof facts.update_target === 'string' && TARGETS.has(facts.update_target) ? (facts.update_target as AgentTarget) : null;
        void this.observe(agentId, facts.version, target).catch((err: Error) => this.logger.warn(`agent ${agentId}: update state not written: ${err.message}`));
      }),
      this.channel.handle('update.failed', (agentId, message) => {
        void this.failed(agentId, String(message.version), String(message.error)).catch((err: Error) =>
          this.logger.warn(`agent ${agentId}: update failure not written: ${err.message}`),
        );
      }),
      // An offered agent that goes away gives its slot back at once (N3); its update is offered again after
      // RMM_AGENT_UPDATE_OFFER_SECONDS, by when one that rolled back has said so (update.failed). One that comes
      // back on the new version meanwhile is done (arrived takes a pending update too).
      this.local.watch({
        attached: () => undefined,
        detached: (agentId) => {
          if (!this.offeredHere.delete(agentId)) return;
          void this.repo
            .release(agentId, this.offerDeadline())
            .then((released) => released && this.kick())
            .catch((err: Error) => this.logger.warn(`agent ${agentId}: update slot not released: ${err.message}`));
        },
      }),
    );
  }

  /** When an offer given back now is offered again. */
  private offerDeadline(): Date {
    return new Date(this.clock.now().getTime() + this.config.agentUpdateOfferSeconds * 1000);
  }

  async onApplicationShutdown(): Promise<void> {
    for (const off of this.off.splice(0)) off();
    await Promise.all([this.round.stop(), this.expiry.stop()]);
  }

  /** An agent said which version it runs (its first heartbeat after each connect carries every fact). */
  async observe(agentId: number, version: string, target: AgentTarget | null): Promise<void> {
    const to = this.binaries.version;
    if (version === to) {
      if (this.active && (await this.repo.arrived(agentId, version, this.clock.now()))) {
        this.logger.log(`agent ${agentId} is on ${version}: update done`);
        this.kick();
      }
      return;
    }
    if (target === null) return; // (not a binary that can update itself: the Node.js agent, or no update key)
    if (await this.repo.want(agentId, version, target, to)) {
      this.active = true;
      this.kick();
    }
  }

  /** The agent refused, or rolled back, `version`. */
  async failed(agentId: number, version: string, error: string): Promise<void> {
    const why = pgText(error.slice(0, 1_000));
    const row = await this.repo.failed(agentId, version, why, this.clock.now());
    if (!row) return;
    this.offeredHere.delete(agentId);
    this.logger.warn(`agent ${agentId}: update to ${version} failed: ${why}`);
    this.events.emit('agent.update_failed', { agentId, version, error: why });
    await this.haltIfFailing(version, agentId);
    this.kick();
  }

  /**
   * More than RMM_AGENT_UPDATE_HALT_FAILURES updates to `version` failed within the hour (since its last resume):
   * its rollout halts, offered to no agent until an admin resumes it, and an agent_update_halted alert opens on the
   * agent whose failure tipped it (notified like every alert). The halt's INSERT decides: one alert per halt.
   */
  private async haltIfFailing(version: string, agentId: number): Promise<void> {
    const now = this.clock.now();
    await this.tx.run(async () => {
      const halt = await this.repo.haltIfFailing(version, new Date(now.getTime() - HALT_WINDOW_MS), this.config.agentUpdateHaltFailures, now);
      if (!halt) return;
      this.logger.error(`the rollout of agent version ${version} is halted: ${halt.reason} (POST /api/v3/agents/updates/resume/ resumes it)`);
      const alert = await this.alerts.raise({ alertType: 'agent_update_halted', agentId, severity: 'error', message: `rollout of agent version ${version} halted: ${halt.reason}`.slice(0, 1_000) });
      if (alert) await this.repo.setHaltAlert(version, alert.id);
    });
  }

  /** POST /api/v3/agents/updates/resume/: the offered version's rollout goes on; its alert is resolved (by `by`). */
  async resume(by: string): Promise<void> {
    const version = this.binaries.version;
    const ended = await this.repo.resume(version, by, this.clock.now());
    if (!ended) return;
    this.logger.log(`the rollout of agent version ${version} is resumed by ${by}`);
    if (ended.alertId !== null) await this.alerts.resolve(ended.alertId, by, EVERY_CLIENT);
    this.active = true;
    this.kick();
  }

  /** Runs a round now (or right after the one under way). */
  kick(): void {
    void this.round.runNow();
  }

  /** Waits for the round under way, if any, and the one asked for meanwhile (tests). */
  settled(): Promise<void> {
    return this.round.idle();
  }

  /** Updates offered UPDATE_TIMEOUT_MS ago whose agent neither came back on the new version nor said why: failed. */
  private async expire(): Promise<void> {
    const now = this.clock.now();
    const expired = await this.repo.expire(new Date(now.getTime() - UPDATE_TIMEOUT_MS), now, `did not come back on the new version within ${UPDATE_TIMEOUT_MS / 60_000} minutes`);
    for (const e of expired) {
      this.events.emit('agent.update_failed', { agentId: e.agentId, version: e.toVersion, error: 'no answer in time' });
    }
    const last = expired.at(-1);
    if (last) await this.haltIfFailing(last.toVersion, last.agentId);
  }

  private async tick(): Promise<void> {
    const now = this.clock.now();
    const to = this.binaries.version;
    const { pending, running, halted } = await this.repo.activity(to);
    this.active = pending || running;
    if (running) {
      await this.repo.settleArrived(now);
      // Offers not answered in time give their slots back, and are offered again later (N3).
      const unanswered = await this.repo.releaseUnanswered(new Date(now.getTime() - this.config.agentUpdateOfferSeconds * 1000), this.offerDeadline());
      if (unanswered.length > 0) {
        unanswered.forEach((id) => this.offeredHere.delete(id));
        this.logger.warn(`${unanswered.length} update offer(s) not answered within ${this.config.agentUpdateOfferSeconds} s (RMM_AGENT_UPDATE_OFFER_SECONDS): released, offered again later`);
      }
    }
    if (!pending || halted || Date.now() < this.pausedUntil) return;
    const held = [...this.local.held()];
    if (held.length === 0) return;
    // Every binary the waiting updates need is built (or found) before the first offer goes out (U2), never on an
    // agent's download: a build that fails is an alert, and no agent is offered what cannot be downloaded.
    const ready = new Map<string, { version: string; size: number; sha256: string }>();
    for (const w of await this.repo.waitingTargets(to, held, now)) {
      const binary = await this.binaryFor(w.target as AgentTarget, w.agentId);
      if (binary) ready.set(w.target, binary);
    }
    if (ready.size === 0) return;
    const offered = await this.repo.takeSlots(to, held, this.config.agentUpdateConcurrency, now, [...ready.keys()]);
    for (const u of offered) {
      const binary = ready.get(u.target)!;
      const sent = this.local.send(u.agentId, {
        type: 'update.available',
        version: binary.version,
        target: u.target,
        url: `/agent/v1/download/${u.target}`,
        sha256: binary.sha256,
        size: binary.size,
        signature: this.signing.signUpdate(u.target, binary.version, binary.sha256),
      });
      if (!sent) {
        await this.repo.release(u.agentId);
        continue;
      }
      this.offeredHere.add(u.agentId);
      this.events.emit('agent.updating', { agentId: u.agentId, fromVersion: u.fromVersion, toVersion: binary.version });
    }
  }

  /**
   * The target's binary (built first when missing), or null when it cannot be had: then the offers pause for
   * BUILD_FAILURE_PAUSE_MS and an agent_build_failed alert opens on the agent waiting longest for it (resolved
   * once the binary is had).
   */
  private async binaryFor(target: AgentTarget, waiting: number): Promise<{ version: string; size: number; sha256: string } | null> {
    try {
      const binary = await this.binaries.get(target);
      const alerted = this.buildAlerts.get(target);
      if (alerted !== undefined) {
        this.buildAlerts.delete(target);
        await this.alerts.resolveBySystemForAgents('agent_build_failed', [alerted]);
      }
      return binary;
    } catch (err) {
      const why = this.binaries.lastFailure?.(target) ?? (err as Error).message;
      this.logger.warn(`no ${target} binary to offer (${(err as Error).message}); offering again in ${BUILD_FAILURE_PAUSE_MS / 1000} s`);
      this.pausedUntil = Date.now() + BUILD_FAILURE_PAUSE_MS;
      const opened = await this.alerts.raise({
        alertType: 'agent_build_failed',
        agentId: waiting,
        severity: 'error',
        message: pgText(`the agent binary ${target} ${this.binaries.version} could not be built on this server, so no update is offered: ${why}`.slice(0, 1_000)),
      });
      if (opened || !this.buildAlerts.has(target)) this.buildAlerts.set(target, waiting);
      return null;
    }
  }

  /** GET /api/v3/agents/updates/. */
  async status(clients: ClientScope): Promise<UpdateCounts & { version: string; concurrency: number; halt: RolloutHalt | null }> {
    const version = this.binaries.version;
    const halt = await this.repo.halt(version);
    return {
      version,
      concurrency: this.config.agentUpdateConcurrency,
      halt: halt ? { at: halt.at, reason: halt.reason } : null,
      ...(await this.repo.counts(version, clients)),
    };
  }
}
