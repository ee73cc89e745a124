import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AgentChannel } from '../agent-channel/agent-channel';
import { RmmEvents } from '../events/rmm-events';
import { ScriptsService } from '../scripts/scripts.service';
import { CheckToRun, ChecksRepository } from './checks.repository';

/** Agents connecting within this window get their lists read in one statement (a reconnect storm). */
const ONLINE_BATCH_MS = 25;

/** One check as `checks.sync` carries it (docs/agent-protocol.md). */
export interface SyncedCheck {
  id: number;
  checkType: string;
  name: string;
  runInterval: number;
  settings: Record<string, unknown>;
  /** Script checks only: what to run (args and time-out: the check's, else the script's defaults). */
  script?: { shell: string; body: string; args: string[]; timeoutSeconds: number };
}

/** The check as the agent gets it: a script check's script reference replaced by the script itself. */
export function toSyncedCheck(c: CheckToRun): SyncedCheck {
  const synced: SyncedCheck = { id: c.id, checkType: c.checkType, name: c.name, runInterval: c.runInterval, settings: c.settings };
  if (c.checkType === 'script' && c.script) {
    const { args, timeout, ...settings } = c.settings as { args?: string[]; timeout?: number };
    synced.settings = settings;
    synced.script = { shell: c.script.shell, body: c.script.body, args: args ?? c.script.defaultArgs, timeoutSeconds: timeout ?? c.script.defaultTimeout };
  }
  return synced;
}

/**
 * Keeps each connected agent's list of checks current: the whole list (`checks.sync`) when its channel
 * connects (agent.online), and again whenever one of its checks is created, changed or deleted, or the script
 * of one of its script checks changes, whichever instance the change came through (with several instances the
 * AgentChannel reaches the agent on the instance that holds it). The agents connecting within ONLINE_BATCH_MS
 * have their lists read in one SELECT (`agent_id = ANY($1)`), so a reconnect storm costs a few statements.
 */
@Injectable()
export class CheckSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('checks');
  private readonly off: Array<() => void> = [];
  /** Agents whose list is being sent now; `again`: it changed meanwhile, send it once more after. */
  private readonly sending = new Map<number, { again: boolean }>();
  /** Agents connected in the current batch window (agent.online), not yet sent their list. */
  private readonly onlinePending = new Set<number>();
  private onlineTimer?: NodeJS.Timeout;

  constructor(
    private readonly repo: ChecksRepository,
    private readonly channel: AgentChannel,
    private readonly events: RmmEvents,
    private readonly scripts: ScriptsService,
  ) {}

  onApplicationBootstrap(): void {
    this.off.push(
      // Once, by the instance the agent connected to (it emitted agent.online): see RmmEventOptions.local.
      this.events.on('agent.online', ({ agentId }) => this.online(agentId), { local: true }),
      this.scripts.onChanged((scriptId) => void this.scriptChanged(scriptId).catch((err: Error) => this.logger.warn(`checks of script ${scriptId} not re-sent: ${err.message}`))),
    );
  }

  onApplicationShutdown(): void {
    for (const off of this.off.splice(0)) off();
    clearTimeout(this.onlineTimer);
    this.onlineTimer = undefined;
    this.onlinePending.clear();
  }

  /**
   * Sends the agent its current checks, if it is connected here (never throws; a failure is logged). One send
   * per agent at a time: a change during a send makes one more send after it, so two lists read at nearly the
   * same moment can never reach the agent newest first and leave it with the older one.
   */
  push(agentId: number): void {
    const current = this.sending.get(agentId);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: true };
    this.sending.set(agentId, state);
    void this.sendLoop(agentId, state);
  }

  /** Sends while `state.again` (a change came during the last send), then frees the agent for the next push. */
  private async sendLoop(agentId: number, state: { again: boolean }): Promise<void> {
    while (state.again) {
      state.again = false;
      await this.send(agentId).catch((err: Error) => this.logger.warn(`checks of agent ${agentId} not sent: ${err.message}`));
    }
    this.sending.delete(agentId);
  }

  /** agent.online: the agent joins the batch of this moment (one SELECT for all of them). */
  private online(agentId: number): void {
    this.onlinePending.add(agentId);
    this.onlineTimer ??= setTimeout(() => {
      this.onlineTimer = undefined;
      void this.sendBatch();
    }, ONLINE_BATCH_MS);
  }

  /**
   * The batch's lists, read in one statement and sent to each agent connected here. An agent whose list is
   * being sent already gets one more send after it (push); one that fails here is retried one by one.
   */
  private async sendBatch(): Promise<void> {
    const states = new Map<number, { again: boolean }>();
    for (const agentId of this.onlinePending) {
      if (this.sending.has(agentId)) {
        this.push(agentId);
        continue;
      }
      const state = { again: false };
      this.sending.set(agentId, state);
      states.set(agentId, state);
    }
    this.onlinePending.clear();
    if (states.size === 0) return;
    const ids = [...states.keys()];
    let lists: Map<number, CheckToRun[]> | null = null;
    try {
      lists = await this.repo.toRunOfAgents(ids);
    } catch (err) {
      this.logger.warn(`checks of ${ids.length} agent(s) not read in one batch, sending one by one: ${(err as Error).message}`);
    }
    for (const [agentId, state] of states) {
      if (lists) {
        const checks = (lists.get(agentId) ?? []).map(toSyncedCheck);
        await this.channel.notify(agentId, { type: 'checks.sync', checks }).catch((err: Error) => this.logger.warn(`checks of agent ${agentId} not sent: ${err.message}`));
      } else {
        state.again = true;
      }
      void this.sendLoop(agentId, state);
    }
  }

  /** Sends the agent its current checks; false when it is not connected here. */
  async send(agentId: number): Promise<boolean> {
    if (!(await this.channel.isOnline(agentId))) return false;
    const checks = (await this.repo.toRun(agentId)).map(toSyncedCheck);
    return this.channel.notify(agentId, { type: 'checks.sync', checks });
  }

  private async scriptChanged(scriptId: number): Promise<void> {
    for (const agentId of await this.repo.agentsRunningScript(scriptId)) this.push(agentId);
  }
}
