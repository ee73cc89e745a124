import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentChannel, LocalAgentChannel } from '../../fleet/agent-channel/agent-channel';
import { AgentPresenceService } from '../../fleet/presence/agent-presence.service';
import { ScriptsService } from '../scripts/scripts.service';
import { CheckToRun, ChecksRepository, EMPTY_LIST_FINGERPRINT } from './checks.repository';
import { SentLists } from './sent-lists';

/** The most agents one statement reads the lists (or fingerprints) of. */
const READ_BATCH = 5_000;

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
 * connects (told directly by AgentPresenceService on the instance the agent connected to, never through
 * pub/sub), and again whenever one of its checks is created, changed or deleted, or the script of one of its
 * script checks changes, whichever instance the change came through (with several instances the AgentChannel
 * reaches the agent on the instance that holds it). The agents of one connect batch have their lists read in one
 * SELECT (`agent_id = ANY($1)`), so a reconnect storm costs a few statements. Every RMM_RECONCILE_SECONDS each
 * instance (the job `checks.reconcile`, on every instance: it compares what it sent to the agents it holds) compares the fingerprint of each held agent's list with the one it last sent it (SentLists; one
 * statement per 5,000 agents, no script bodies read) and sends again the lists that changed: a change whose
 * message was lost (another instance's notify over Redis) reaches the agent within one period.
 */
@Injectable()
export class CheckSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('checks');
  private readonly off: Array<() => void> = [];
  /** Agents whose list is being sent now; `again`: it changed meanwhile, send it once more after. */
  private readonly sending = new Map<number, { again: boolean }>();
  /** What each connection held here was last sent. */
  private readonly sent = new SentLists();
  private reconciling?: Promise<unknown>;

  constructor(
    private readonly repo: ChecksRepository,
    private readonly channel: AgentChannel,
    private readonly local: LocalAgentChannel,
    private readonly presence: AgentPresenceService,
    private readonly scripts: ScriptsService,
    config: RuntimeConfig,
    jobs: Jobs,
  ) {
    jobs.every('checks.reconcile', { seconds: config.reconcileSeconds, mode: 'every-instance' }, () => this.reconcile());
  }

  onApplicationBootstrap(): void {
    this.off.push(
      // Once, by the instance the agent connected to, directly (not an event that could be lost).
      this.presence.listen({ connected: (ids) => void this.sendBatch(ids) }),
      this.local.watch({ attached: (agentId) => this.sent.forget(agentId), detached: (agentId) => this.sent.forget(agentId) }),
      this.scripts.onChanged((scriptId) => void this.scriptChanged(scriptId).catch((err: Error) => this.logger.warn(`checks of script ${scriptId} not re-sent: ${err.message}`))),
    );
  }

  onApplicationShutdown(): void {
    for (const off of this.off.splice(0)) off();
  }

  /**
   * Sends again the list of every agent held here whose list changed since it was last sent on its connection
   * (or that was never sent one); the agents it sent to.
   */
  reconcile(): Promise<number[]> {
    const run = (this.reconciling ?? Promise.resolve()).then(async () => {
      const held = [...this.local.held()];
      const resent: number[] = [];
      for (let i = 0; i < held.length; i += READ_BATCH) {
        const ids = held.slice(i, i + READ_BATCH);
        const stale = this.sent.stale(ids, await this.repo.fingerprintsOf(ids), EMPTY_LIST_FINGERPRINT).filter((id) => !this.sending.has(id));
        if (stale.length > 0) await this.sendBatch(stale);
        resent.push(...stale);
      }
      return resent;
    });
    this.reconciling = run.catch(() => undefined);
    return run;
  }

  /** The list went out to a connection held here: remembered, so the reconcile knows what it holds. */
  private sentTo(agentId: number, fingerprint: string, delivered: boolean): void {
    if (delivered && this.local.holds(agentId)) this.sent.record(agentId, fingerprint);
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

  /**
   * The batch's lists, read in one statement and sent to each agent connected here. An agent whose list is
   * being sent already gets one more send after it (push); one that fails here is retried one by one.
   */
  private async sendBatch(agentIds: number[]): Promise<void> {
    const states = new Map<number, { again: boolean }>();
    for (const agentId of agentIds) {
      if (this.sending.has(agentId)) {
        this.push(agentId);
        continue;
      }
      const state = { again: false };
      this.sending.set(agentId, state);
      states.set(agentId, state);
    }
    if (states.size === 0) return;
    const ids = [...states.keys()];
    let lists: Map<number, { checks: CheckToRun[]; fingerprint: string }> | null = null;
    try {
      lists = await this.repo.toRunOfAgents(ids);
    } catch (err) {
      this.logger.warn(`checks of ${ids.length} agent(s) not read in one batch, sending one by one: ${(err as Error).message}`);
    }
    for (const [agentId, state] of states) {
      if (lists) {
        const list = lists.get(agentId);
        const checks = (list?.checks ?? []).map(toSyncedCheck);
        const delivered = await this.channel.notify(agentId, { type: 'checks.sync', checks }).catch((err: Error) => {
          this.logger.warn(`checks of agent ${agentId} not sent: ${err.message}`);
          return false;
        });
        this.sentTo(agentId, list?.fingerprint ?? EMPTY_LIST_FINGERPRINT, delivered);
      } else {
        state.again = true;
      }
      void this.sendLoop(agentId, state);
    }
  }

  /**
   * Sends these agents their current lists (a policy change): read in one statement per READ_BATCH agents, and
   * sent to those connected (through the AgentChannel, whichever instance holds them). Resolves once sent.
   */
  async pushMany(agentIds: number[]): Promise<void> {
    for (let i = 0; i < agentIds.length; i += READ_BATCH) await this.sendBatch(agentIds.slice(i, i + READ_BATCH));
  }

  /** Sends the agent its current checks; false when it is not connected here. */
  async send(agentId: number): Promise<boolean> {
    if (!(await this.channel.isOnline(agentId))) return false;
    const list = (await this.repo.toRunOfAgents([agentId])).get(agentId);
    const delivered = await this.channel.notify(agentId, { type: 'checks.sync', checks: (list?.checks ?? []).map(toSyncedCheck) });
    this.sentTo(agentId, list?.fingerprint ?? EMPTY_LIST_FINGERPRINT, delivered);
    return delivered;
  }

  private async scriptChanged(scriptId: number): Promise<void> {
    for (const agentId of await this.repo.agentsRunningScript(scriptId)) this.push(agentId);
  }
}
