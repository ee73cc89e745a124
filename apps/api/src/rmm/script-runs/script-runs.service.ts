import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ApiKeyEntity, ScriptEntity, ScriptOutputMode, ScriptRunEntity } from '@app/entities';
import { Clock } from '../../common/clock';
import { DomainError, notFound } from '../../common/errors/domain-error';
import { AgentChannel, AgentCommands } from '../agent-channel/agent-channel';
import { AgentsErrorCode } from '../agents/agents.errors';
import { RmmEvents } from '../events/rmm-events';
import { Page } from '../common/pagination.dto';
import { ScriptRunAcceptedDto, ScriptRunResultDto } from './script-runs.dto';
import { RunFilter, RunOutcome, ScriptRunsRepository } from './script-runs.repository';

/** stdout and stderr are kept up to this many characters each (the rest is cut, and the run says so). */
export const RUN_OUTPUT_CAP = 64 * 1024;
/** Seconds the server waits past a script's time-out for the agent's answer (the agent kills it at the time-out). */
export const ANSWER_GRACE_SECONDS = 5;
const STALE_SWEEP_MS = 60_000;

type Answer = AgentCommands['script.run']['out'];

/**
 * runscript for real: every run is stored, sent to the agent over its channel, and its outcome recorded:
 * `wait` and `collector` answer when the script has finished (the newest collector run of a script is the
 * agent's latest value for it); `forget` answers 202 at once. An agent that goes mid-run ends the wait with
 * 502 and the run `interrupted`; no answer by time-out + 5 s is 504 and the run `timed_out`.
 */
@Injectable()
export class ScriptRunsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('script-runs');
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly repo: ScriptRunsRepository,
    private readonly channel: AgentChannel,
    private readonly clock: Clock,
    private readonly events: RmmEvents,
  ) {}

  /** At start and every minute: runs left open by a server that died are marked interrupted. */
  onApplicationBootstrap(): void {
    const sweep = (): void => void this.repo.interruptStale(this.clock.now()).catch((err: Error) => this.logger.warn(`stale-run sweep failed: ${err.message}`));
    sweep();
    clearInterval(this.sweeper);
    this.sweeper = setInterval(sweep, STALE_SWEEP_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  async run(
    agentId: number,
    script: ScriptEntity,
    ask: { output: ScriptOutputMode; args?: string[]; timeout?: number },
    key: ApiKeyEntity | undefined,
  ): Promise<{ accepted: true; body: ScriptRunAcceptedDto } | { accepted: false; body: ScriptRunResultDto }> {
    if (!(await this.channel.isOnline(agentId))) throw new DomainError(AgentsErrorCode.NotConnected, 'agent is not connected');
    const timeoutSeconds = ask.timeout ?? script.defaultTimeout ?? 90;
    const args = ask.args ?? script.defaultArgs;
    const run = await this.repo.insert(
      { agentId, scriptId: script.id, scriptName: script.name, shell: script.shell, args, output: ask.output, timeoutSeconds, requestedByKeyId: key?.id ?? null },
      this.clock.now(),
    );
    const pending = this.channel.request(agentId, 'script.run', { runId: run.id, shell: script.shell, body: script.body, args, timeoutSeconds }, (timeoutSeconds + ANSWER_GRACE_SECONDS) * 1000);
    this.events.emit('script.started', { agentId, runId: run.id, script: script.id });
    if (ask.output === 'forget') {
      void this.settle(run, pending).catch(() => undefined);
      return { accepted: true, body: { id: run.id, status: 'running' } };
    }
    const answer = await this.settle(run, pending);
    return {
      accepted: false,
      body: { id: run.id, execution_time: answer.executionTime.toFixed(3), retcode: answer.retcode, stdout: answer.stdout, stderr: answer.stderr, timed_out: answer.timedOut },
    };
  }

  list(agentId: number, filter: RunFilter, page: Page): Promise<[ScriptRunEntity[], number]> {
    return this.repo.list(agentId, filter, page);
  }

  async get(agentId: number, runId: number): Promise<ScriptRunEntity> {
    const run = await this.repo.findById(agentId, runId);
    if (!run) throw notFound();
    return run;
  }

  /** Waits for the agent's answer and records the outcome, whatever it is; rethrows a failure. */
  private async settle(run: ScriptRunEntity, pending: Promise<Answer>): Promise<Answer> {
    let answer: Answer;
    try {
      answer = await pending;
    } catch (err) {
      const code = err instanceof DomainError ? err.code : undefined;
      const status: RunOutcome['status'] = code === AgentsErrorCode.NoAnswer ? 'timed_out' : code === AgentsErrorCode.Disconnected ? 'interrupted' : 'failed';
      await this.repo
        .finish(run.id, { status, retcode: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, timedOut: status === 'timed_out', executionTime: null, finishedAt: this.clock.now() })
        .catch((e: Error) => this.logger.warn(`run ${run.id} outcome not written: ${e.message}`));
      this.events.emit('script.finished', { agentId: run.agentId, runId: run.id, retcode: null, executionTime: 0, timedOut: status === 'timed_out' });
      throw err;
    }
    const stdout = String(answer.stdout ?? '');
    const stderr = String(answer.stderr ?? '');
    await this.repo.finish(run.id, {
      status: answer.timedOut ? 'timed_out' : 'finished',
      retcode: Number.isInteger(answer.retcode) ? answer.retcode : null,
      stdout: stdout.slice(0, RUN_OUTPUT_CAP),
      stderr: stderr.slice(0, RUN_OUTPUT_CAP),
      stdoutTruncated: stdout.length > RUN_OUTPUT_CAP,
      stderrTruncated: stderr.length > RUN_OUTPUT_CAP,
      timedOut: answer.timedOut === true,
      executionTime: Number.isFinite(answer.executionTime) ? answer.executionTime : null,
      finishedAt: this.clock.now(),
    });
    const executionTime = Number.isFinite(answer.executionTime) ? answer.executionTime : 0;
    this.events.emit('script.finished', { agentId: run.agentId, runId: run.id, retcode: Number.isInteger(answer.retcode) ? answer.retcode : null, executionTime, timedOut: answer.timedOut === true });
    return { ...answer, executionTime };
  }
}
