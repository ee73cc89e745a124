import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AGENT_TARGETS, AgentTarget } from '@app/entities';
import { Clock } from '../../../common/clock';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { pgText } from '../../../common/values';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentChannel, LocalAgentChannel } from '../agent-channel/agent-channel';
import { RmmEvents } from '../../common/bus/rmm-events';
import { ClientScope } from '../../common/client-scope';
import { AgentUpdatesRepository, UpdateCounts } from './agent-updates.repository';
import { AgentSigningKey } from '../agent-binaries/signing-key';

/** Where the binaries offered come from (AgentBinaries: built lazily, measured once). */
export interface AgentBinarySource {
  /** The agent version this server offers (RMM_AGENT_VERSION, default its own). */
  readonly version: string;
  get(target: AgentTarget): Promise<{ version: string; size: number; sha256: string }>;
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
    );
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
    this.logger.warn(`agent ${agentId}: update to ${version} failed: ${why}`);
    this.events.emit('agent.update_failed', { agentId, version, error: why });
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
    for (const e of await this.repo.expire(new Date(now.getTime() - UPDATE_TIMEOUT_MS), now, `did not come back on the new version within ${UPDATE_TIMEOUT_MS / 60_000} minutes`)) {
      this.events.emit('agent.update_failed', { agentId: e.agentId, version: e.toVersion, error: 'no answer in time' });
    }
  }

  private async tick(): Promise<void> {
    const now = this.clock.now();
    const to = this.binaries.version;
    const { pending, running } = await this.repo.activity(to);
    this.active = pending || running;
    if (running) await this.repo.settleArrived(now);
    if (!pending || Date.now() < this.pausedUntil) return;
    const held = [...this.local.held()];
    if (held.length === 0) return;
    const offered = await this.repo.takeSlots(to, held, this.config.agentUpdateConcurrency, now);
    for (const u of offered) {
      let binary: { version: string; size: number; sha256: string };
      try {
        binary = await this.binaries.get(u.target as AgentTarget);
      } catch (err) {
        this.logger.warn(`no ${u.target} binary to offer (${(err as Error).message}); offering again in ${BUILD_FAILURE_PAUSE_MS / 1000} s`);
        this.pausedUntil = Date.now() + BUILD_FAILURE_PAUSE_MS;
        for (const rest of offered.slice(offered.indexOf(u))) await this.repo.release(rest.agentId);
        return;
      }
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
      this.events.emit('agent.updating', { agentId: u.agentId, fromVersion: u.fromVersion, toVersion: binary.version });
    }
  }

  /** GET /api/v3/agents/updates/. */
  async status(clients: ClientScope): Promise<UpdateCounts & { version: string; concurrency: number }> {
    return { version: this.binaries.version, concurrency: this.config.agentUpdateConcurrency, ...(await this.repo.counts(this.binaries.version, clients)) };
  }
}
