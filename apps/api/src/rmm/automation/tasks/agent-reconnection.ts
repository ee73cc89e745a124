import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentChannel } from '../../fleet/agent-channel/agent-channel';
import { RmmEvents } from '../../common/bus/rmm-events';

/** How often the waiting runs ask whether their agent is back (an agent.online event answers sooner). */
const POLL_MS = 1_000;

/**
 * The start window of task runs. Agents come back over some seconds after a start (after a restart each one
 * reconnects at a random 1–5 s; after a longer outage, on its back-off), so a run claimed for an agent that is
 * not connected, while this instance started less than RMM_AGENT_OFFLINE_AFTER_SECONDS ago, waits for it until
 * that long after the start: the time a silent agent is given anyway before it counts as offline. After the
 * window an agent that is not connected is offline at once. Real time (not the Clock): reconnections take real
 * seconds, whatever time a test's clock shows.
 */
@Injectable()
export class AgentReconnection implements OnApplicationBootstrap {
  private readonly logger = new Logger('tasks');
  private startedAt = performance.now();
  /** The runs waiting here, each its own check of its agent. */
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly channel: AgentChannel,
    private readonly events: RmmEvents,
    private readonly config: RuntimeConfig,
    jobs: Jobs,
  ) {
    // Every instance: one poll for all the runs waiting here (with none, a tick costs nothing).
    jobs.every('tasks.reconnection-poll', { seconds: POLL_MS / 1000, mode: 'every-instance' }, () => this.waiting.forEach((check) => check()));
  }

  onApplicationBootstrap(): void {
    this.startedAt = performance.now();
  }

  /**
   * Resolves true as soon as the agent is connected (here, or to another instance over Redis), false when the
   * start window closes first (at once after it) or `stop` aborts.
   */
  async waitFor(agentId: number, stop: AbortSignal): Promise<boolean> {
    if (await this.channel.isOnline(agentId)) return true;
    const left = this.startedAt + this.config.agentOfflineAfterSeconds * 1000 - performance.now();
    if (left <= 0 || stop.aborted) return false;
    this.logger.debug(`waiting up to ${Math.ceil(left / 1000)} s for agent ${agentId} to reconnect after the start`);
    return new Promise<boolean>((resolve) => {
      let settled = false;
      const settle = (online: boolean): void => {
        if (settled) return;
        settled = true;
        off();
        this.waiting.delete(check);
        clearTimeout(deadline);
        stop.removeEventListener('abort', abort);
        resolve(online);
      };
      const check = (): void =>
        void this.channel.isOnline(agentId).then(
          (online) => online && settle(true),
          () => undefined, // (Redis unreachable a moment: the next poll asks again)
        );
      const off = this.events.on('agent.online', (e) => e.agentId === agentId && check());
      this.waiting.add(check);
      // (a timer that bounds this one wait)
      const deadline = setTimeout(() => settle(false), left);
      const abort = (): void => settle(false);
      stop.addEventListener('abort', abort);
    });
  }
}
