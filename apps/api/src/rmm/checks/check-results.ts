import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CHECK_STATUSES, CheckStatus } from '@app/entities';
import { Clock } from '../../common/clock';
import { AgentChannel } from '../agent-channel/agent-channel';
import { AlertsService } from '../alerts/alerts.service';
import { RmmEvents } from '../events/rmm-events';
import { ChecksRepository, RecordedResult } from './checks.repository';

/** more_info is kept to this many characters (longer text is cut, marked with an ellipsis). */
export const MORE_INFO_MAX = 4_000;

/**
 * Results of one check waiting to be stored on this instance: they are stored one at a time per check (the row
 * lock would make them wait anyway, each holding a pooled connection); past this many, more are dropped.
 */
export const MAX_QUEUED_PER_CHECK = 100;

/** A check.result message from an agent, validated. */
export interface CheckResultMessage {
  checkId: number;
  status: CheckStatus;
  moreInfo: string | null;
}

/** The result in an agent's `check.result` message, or null when it is not one (ignored: never an error to the agent). */
export function parseCheckResult(message: Record<string, unknown>): CheckResultMessage | null {
  const { checkId, status, moreInfo } = message;
  if (typeof checkId !== 'number' || !Number.isInteger(checkId) || checkId < 1 || checkId > 2_147_483_647) return null;
  if (typeof status !== 'string' || !(CHECK_STATUSES as readonly string[]).includes(status)) return null;
  if (moreInfo !== undefined && moreInfo !== null && typeof moreInfo !== 'string') return null;
  return { checkId, status: status as CheckStatus, moreInfo: typeof moreInfo === 'string' ? capMoreInfo(moreInfo) : null };
}

/** Cuts at MORE_INFO_MAX characters (never inside a surrogate pair) and drops NUL, which PostgreSQL's text refuses. */
export function capMoreInfo(text: string): string {
  const clean = text.split('\u0000').join('');
  if (clean.length <= MORE_INFO_MAX) return clean;
  let cut = MORE_INFO_MAX - 1;
  if (/[\uD800-\uDBFF]/.test(clean[cut - 1])) cut--;
  return `${clean.slice(0, cut)}…`;
}

/**
 * The agents' check results (`check.result` on the agent channel): each one is stored (ChecksRepository.recordResult,
 * one atomic statement), announced as check.status, and opens or resolves the check's check_failure alert:
 * failing at or past fails_b4_alert → AlertsService.raise (one open alert per check, whatever the concurrency);
 * passing → resolveBySystem. check.status is emitted before the alert is raised, so subscribers see
 * check.status, then alert.created.
 */
@Injectable()
export class CheckResults implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('checks');
  private off?: () => void;
  private readonly queues = new Map<number, { tail: Promise<void>; size: number }>();

  constructor(
    private readonly repo: ChecksRepository,
    private readonly channel: AgentChannel,
    private readonly alerts: AlertsService,
    private readonly events: RmmEvents,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.off = this.channel.handle('check.result', (agentId, message) => {
      const result = parseCheckResult(message);
      if (!result) {
        this.logger.debug(`agent ${agentId}: ignored a check.result that is not valid`);
        return;
      }
      this.enqueue(agentId, result);
    });
  }

  /** Stores the result after the ones of the same check received before it (never throws; failures are logged). */
  private enqueue(agentId: number, result: CheckResultMessage): void {
    const id = result.checkId;
    let queue = this.queues.get(id);
    if (!queue) {
      queue = { tail: Promise.resolve(), size: 0 };
      this.queues.set(id, queue);
    }
    if (queue.size >= MAX_QUEUED_PER_CHECK) {
      this.logger.warn(`agent ${agentId}: dropped a result of check ${id}: ${MAX_QUEUED_PER_CHECK} are waiting already`);
      return;
    }
    const q = queue;
    q.size++;
    q.tail = q.tail
      .then(() => this.record(agentId, result))
      .then(
        () => undefined,
        (err: Error) => this.logger.warn(`agent ${agentId}: result of check ${id} not stored: ${err.message}`),
      )
      .then(() => {
        q.size--;
        if (q.size === 0 && this.queues.get(id) === q) this.queues.delete(id);
      });
  }

  onApplicationShutdown(): void {
    this.off?.();
  }

  /** Stores one result of the agent's check and acts on it; null when the check is not this agent's (ignored). */
  async record(agentId: number, result: CheckResultMessage): Promise<RecordedResult | null> {
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
  }
}
