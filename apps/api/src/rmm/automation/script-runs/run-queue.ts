import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { Job, Jobs } from '../../../common/jobs/jobs';
import { LocalAgentChannel } from '../../fleet/agent-channel/agent-channel';
import { AgentPresenceService } from '../../fleet/presence/agent-presence.service';
import { RmmEvents } from '../../common/bus/rmm-events';
import { ScriptRunsRepository } from './script-runs.repository';
import { ScriptRunsService } from './script-runs.service';

/** How often queued runs past their expiry are expired (once across the cluster), and each instance looks for held agents with queued runs (a missed connect). */
export const RUN_QUEUE_SWEEP_MS = 3_000;
/** The most agents one statement asks about. */
const SWEEP_BATCH = 5_000;

/**
 * The offline command queue's sender. Queued runs are rows (script_runs, status queued), so they survive a
 * restart; they are sent by the instance that holds the agent's connection, never by another: when the agent
 * connects there (AgentPresenceService's `connected`, told on that instance only), when a run is queued for an
 * agent it holds (script.queued: the agent connected between the check and the insert), and every
 * RUN_QUEUE_SWEEP_MS for any held agent with a queued run (a missed hook: the job `run-queue.held`, every instance). Per agent, one drain at a time on this
 * instance, and in the database one claim at a time (ScriptRunsRepository.claimNext, under the agent's advisory
 * lock): the oldest queued run first, the next only once the previous has ended, each exactly once whatever
 * the number of instances. Runs past their expires_at become `expired` (the cluster-once job `run-queue.expire`;
 * claimNext does it too, so one is never sent late).
 */
@Injectable()
export class RunQueue implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('run-queue');
  /** Agents being drained here; `again`: asked again meanwhile, look once more before stopping. */
  private readonly draining = new Map<number, { again: boolean; done: Promise<void> }>();
  private readonly off: Array<() => void> = [];
  private readonly jobs: Job[];
  private sweeping?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly repo: ScriptRunsRepository,
    private readonly runs: ScriptRunsService,
    private readonly local: LocalAgentChannel,
    private readonly presence: AgentPresenceService,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
    jobs: Jobs,
  ) {
    this.jobs = [
      // Once across the cluster: one UPDATE over every queued run.
      jobs.every('run-queue.expire', { seconds: RUN_QUEUE_SWEEP_MS / 1000, mode: 'cluster-once' }, () => this.repo.expire(this.clock.now())),
      // Every instance: the agents it holds.
      jobs.every('run-queue.held', { seconds: RUN_QUEUE_SWEEP_MS / 1000, mode: 'every-instance' }, () => this.kickQueued([...this.local.held()], true)),
    ];
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.off.push(
      // (a reconnect storm brings thousands of agents per batch: one statement finds the few with queued runs)
      this.presence.listen({ connected: (ids) => void this.kickQueued(ids) }),
      // Every instance hears it; only the one holding the agent acts (kick).
      this.events.on('script.queued', (e) => this.kick(e.agentId)),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const off of this.off.splice(0)) off();
    await Promise.all(this.jobs.map((job) => job.stop()));
  }

  /** One sweep now (one at a time): expiry, then a drain for every held agent with a queued run (both jobs' work, for tests). */
  sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = this.sweepNow()
      .catch((err: Error) => this.logger.warn(`run queue sweep failed: ${err.message}`))
      .finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepNow(): Promise<void> {
    await this.repo.expire(this.clock.now());
    await this.kickQueued([...this.local.held()]);
  }

  /**
   * Of these agents, those with a queued run get a drain (one statement per SWEEP_BATCH agents). A failure is logged
   * (the job run-queue.held asks again within RUN_QUEUE_SWEEP_MS), or thrown to that job (`rethrow`) to be counted.
   */
  private async kickQueued(agentIds: number[], rethrow = false): Promise<void> {
    try {
      for (let i = 0; i < agentIds.length && !this.stopped; i += SWEEP_BATCH) {
        for (const agentId of await this.repo.withQueued(agentIds.slice(i, i + SWEEP_BATCH))) this.kick(agentId);
      }
    } catch (err) {
      if (rethrow) throw err;
      this.logger.warn(`queued runs not looked up: ${(err as Error).message}`);
    }
  }

  /** Sends the agent's queued runs, if this instance holds its connection (never throws; failures are logged). */
  kick(agentId: number): void {
    if (this.stopped || !this.local.holds(agentId)) return;
    const current = this.draining.get(agentId);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: true, done: Promise.resolve() };
    this.draining.set(agentId, state);
    state.done = this.drain(agentId, state)
      .catch((err: Error) => this.logger.warn(`queued runs of agent ${agentId} not sent: ${err.message}`))
      .finally(() => this.draining.delete(agentId));
  }

  /** Claims and carries the agent's queued runs one after another while it is held here and some are left. */
  private async drain(agentId: number, state: { again: boolean }): Promise<void> {
    while (state.again) {
      state.again = false;
      while (!this.stopped && this.local.holds(agentId)) {
        const { run } = await this.repo.claimNext(agentId, () => this.clock.now());
        if (!run) break;
        this.logger.debug(`agent ${agentId}: sending queued run ${run.id}`);
        await this.runs.carry(run);
      }
    }
  }

  /** Resolves when no drain runs here (tests). */
  async idle(): Promise<void> {
    while (this.draining.size > 0) await Promise.all([...this.draining.values()].map((d) => d.done));
  }
}
