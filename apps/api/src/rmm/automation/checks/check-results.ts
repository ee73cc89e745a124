import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CheckStatus } from '@app/entities';
import { Clock } from '../../../common/clock';
import { Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { TransactionHost } from '../../../database/transaction-host';
import { pgText } from '../../../common/values';
import { AgentChannel, LocalAgentChannel } from '../../fleet/agent-channel/agent-channel';
import type { CheckResultMessage as CheckResultWire } from '../../fleet/agent-channel/agent-protocol';
import { AlertsService } from '../../alerting/alerts/alerts.service';
import { RmmEvents } from '../../common/bus/rmm-events';
import { CheckResultGate, MAX_DROPS_PER_MINUTE } from './check-result-gate';
import { ChecksRepository, RecordedResult } from './checks.repository';

/** The close (1008) of an agent whose results keep coming faster than its checks run (docs/agent-protocol.md). */
export const TOO_MANY_RESULTS = `too many check results: more than ${MAX_DROPS_PER_MINUTE} in a minute before their check's spacing, max(run_interval / 2, 5 s)`;

/** more_info is kept to this many characters (longer text is cut, marked with an ellipsis). */
export const MORE_INFO_MAX = 4_000;

/**
 * Results of one agent waiting to be stored on this instance: they are stored one at a time per agent, in the
 * order received (each holding a pooled connection while it is written); past this many, more are dropped.
 */
export const MAX_QUEUED_PER_AGENT = 100;

/** A check.result message from an agent, as stored. */
export interface CheckResultMessage {
  checkId: number;
  status: CheckStatus;
  moreInfo: string | null;
}

/** The result a `check.result` message carries (the message already valid against its schema: agent-protocol.ts). */
export function toCheckResult(message: { checkId: number; status: CheckStatus; moreInfo?: string | null }): CheckResultMessage {
  return { checkId: message.checkId, status: message.status, moreInfo: typeof message.moreInfo === 'string' ? capMoreInfo(message.moreInfo) : null };
}

/** Cuts at MORE_INFO_MAX characters (never inside a surrogate pair), made storable (pgText: NUL and lone surrogates become U+FFFD). */
export function capMoreInfo(text: string): string {
  if (text.length <= MORE_INFO_MAX) return pgText(text);
  let cut = MORE_INFO_MAX - 1;
  if (/[\uD800-\uDBFF]/.test(text[cut - 1])) cut--;
  return pgText(`${text.slice(0, cut)}…`);
}

/**
 * The agents' check results (`check.result` on the agent channel): each one is stored (ChecksRepository.recordResult,
 * one atomic statement), announced as check.status, and opens or resolves the check's check_failure alert:
 * failing at or past fails_b4_alert → AlertsService.raise (one open alert per check, whatever the concurrency);
 * passing → resolveBySystem. check.status is emitted before the alert is raised, so subscribers see
 * check.status, then alert.created.
 *
 * Ownership before capacity: a result counts only for a check this agent was given in the latest `checks.sync`
 * sent over its connection (this instance holds it, so it sent the list: LocalAgentChannel.onSent); any other
 * check id is dropped at once, before it takes a queue slot or any database work, so one agent's flood of
 * others' ids can neither starve their agents' results nor load the database. The queues are per agent.
 *
 * What one agent can cost (docs/security.md, N2): a check's results are accepted at most once per
 * max(run_interval / 2, 5 s) (CheckResultGate); earlier ones are dropped before any queue or query, counted in
 * agents.check_results_dropped (written every 10 s by the job `checks.result-drops`), and the drop that makes more
 * than 100 in a minute closes the agent's connection (1008).
 */
@Injectable()
export class CheckResults implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('checks');
  private readonly off: Array<() => void> = [];
  private readonly queues = new Map<number, { tail: Promise<void>; size: number }>();
  /** Per agent held here, the checks its latest checks.sync carried, and when each was last accepted. */
  readonly gate: CheckResultGate;

  constructor(
    private readonly repo: ChecksRepository,
    private readonly channel: AgentChannel,
    private readonly local: LocalAgentChannel,
    private readonly alerts: AlertsService,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
    private readonly tx: TransactionHost,
    config: RuntimeConfig,
    jobs: Jobs,
  ) {
    this.gate = new CheckResultGate(config.checkResultSpacing);
    // Every instance: the drops are this instance's memory.
    jobs.every('checks.result-drops', { seconds: 10, mode: 'every-instance' }, () => this.flushDrops());
  }

  onApplicationBootstrap(): void {
    this.off.push(
      this.local.onSent('checks.sync', (agentId, message) => {
        const checks = Array.isArray(message.checks) ? (message.checks as Array<{ id: number; runInterval?: unknown }>) : [];
        this.gate.synced(agentId, checks);
      }),
      this.local.watch({ attached: (agentId) => this.gate.ungiven(agentId), detached: (agentId) => this.gate.ungiven(agentId) }),
      this.channel.handle('check.result', (agentId, message) => {
        const result = toCheckResult(message as unknown as CheckResultWire);
        const verdict = this.gate.admit(agentId, result.checkId, this.clock.now().getTime());
        if (verdict === 'accept') this.enqueue(agentId, result);
        else if (verdict === 'close') {
          this.logger.warn(`agent ${agentId}: closed (1008): ${TOO_MANY_RESULTS}`);
          this.local.close(agentId, 1008, TOO_MANY_RESULTS);
        }
        // 'unknown': not one of its checks; 'drop': too early. Neither takes a queue slot or a query.
      }),
    );
  }

  /** Stores the result after the ones of the same agent received before it (never throws; failures are logged). */
  private enqueue(agentId: number, result: CheckResultMessage): void {
    let queue = this.queues.get(agentId);
    if (!queue) {
      queue = { tail: Promise.resolve(), size: 0 };
      this.queues.set(agentId, queue);
    }
    if (queue.size >= MAX_QUEUED_PER_AGENT) {
      this.logger.warn(`agent ${agentId}: dropped a result of check ${result.checkId}: ${MAX_QUEUED_PER_AGENT} of its results are waiting already`);
      return;
    }
    const q = queue;
    q.size++;
    q.tail = q.tail
      .then(() => this.record(agentId, result))
      .then(
        () => undefined,
        (err: Error) => this.logger.warn(`agent ${agentId}: result of check ${result.checkId} not stored: ${err.message}`),
      )
      .then(() => {
        q.size--;
        if (q.size === 0 && this.queues.get(agentId) === q) this.queues.delete(agentId);
      });
  }

  onApplicationShutdown(): void {
    for (const off of this.off.splice(0)) off();
  }

  /** Writes the drops counted since the last flush into agents.check_results_dropped; forgets agents gone from here. */
  async flushDrops(): Promise<void> {
    const drops = this.gate.takeDrops();
    if (drops.size > 0) await this.repo.addDroppedResults(drops);
    this.gate.prune(this.clock.now().getTime(), (agentId) => this.local.holds(agentId));
  }
  /**
   * Stores one result of the agent's check and acts on it, in one transaction: a reader never sees the check
   * passing while its alert is still open, nor failing past fails_b4_alert without its alert (the events follow
   * the commit, in order). Null when the check is not this agent's (ignored).
   */
  async record(agentId: number, result: CheckResultMessage): Promise<RecordedResult | null> {
    return this.tx.run(async () => {
      const r = await this.repo.recordResult(agentId, result.checkId, result.status, result.moreInfo, this.clock.now());
      if (!r) {
        this.logger.debug(`agent ${agentId}: ignored a result for check ${result.checkId}, not one of its checks`);
        return null;
      }
      this.events.emit('check.status', { agentId, checkId: r.checkId, status: r.status, previousStatus: r.previousStatus, moreInfo: result.moreInfo });
      if (result.status === 'failing' && r.status === 'failing') {
        const detail = result.moreInfo ? `: ${result.moreInfo}` : '';
        const failures = r.failCount === 1 ? 'failed' : `failed ${r.failCount} times in a row`;
        await this.alerts.raise({ alertType: 'check_failure', agentId, checkId: r.checkId, severity: r.severity, message: capMoreInfo(`check "${r.name}" ${failures}${detail}`) });
      } else if (result.status === 'passing') {
        await this.alerts.resolveBySystem({ alertType: 'check_failure', id: r.checkId });
      }
      return r;
    });
  }
}
