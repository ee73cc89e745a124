import { Injectable, Logger } from '@nestjs/common';
import { ScriptEntity, ScriptOutputMode, ScriptRunEntity } from '@app/entities';
import { ClientScope } from '../../common/client-scope';
import { clientFilter, Principal } from '../../common/principal';
import { Clock } from '../../../common/clock';
import { DomainError, fieldInvalid, notFound } from '../../../common/errors/domain-error';
import { Jobs } from '../../../common/jobs/jobs';
import { RuntimeConfig } from '../../../config/runtime-config';
import { pgText } from '../../../common/values';
import { AgentChannel, AgentCommands } from '../../fleet/agent-channel/agent-channel';
import { AgentsErrorCode } from '../../fleet/agent-channel/agent-channel.errors';
import { RmmEvents } from '../../common/bus/rmm-events';
import { Page } from '../../common/pagination.dto';
import { AgentsService } from '../../fleet/agents/agents.service';
import { ScriptsService } from '../scripts/scripts.service';
import { CustomFieldsService } from '../../tenancy/custom-fields/custom-fields.service';
import { QUEUE_EXPIRES_IN_DEFAULT, RunScriptDto, ScriptRunAcceptedDto, ScriptRunResultDto } from './script-runs.dto';
import { ScriptRunsErrorCode } from './script-runs.errors';
import { NewQueuedRun, RunFilter, RunOutcome, ScriptRunsRepository } from './script-runs.repository';

/** stdout and stderr are kept up to this many characters each (the rest is cut, and the run says so). */
export const RUN_OUTPUT_CAP = 64 * 1024;
/** Seconds the server waits past a script's time-out for the agent's answer (the agent kills it at the time-out). */
export const ANSWER_GRACE_SECONDS = 5;
const STALE_SWEEP_MS = 60_000;
/**
 * The most one agent's queued runs may hold, bodies and arguments together (UTF-8 bytes, as they are sent): an
 * agent that never comes back cannot make its queue grow the database without bound (N6), whatever the count.
 */
export const QUEUE_MAX_BYTES_PER_AGENT = 10 * 1024 * 1024;

type Answer = AgentCommands['script.run']['out'];

/** A run's end as recorded: the agent's answer (as stored), or the failure that ended the wait. */
type Settled = { answer: Answer; outcome: RunOutcome; error?: undefined } | { answer?: undefined; outcome: RunOutcome; error: unknown };

/** What became of a run the server asked for itself (runForServer). */
export type ServerRunResult =
  | { sent: false; runId?: number }
  | { sent: true; runId: number; timeoutSeconds: number; outcome: RunOutcome };

/**
 * runscript for real: every run is stored, sent to the agent over its channel, and its outcome recorded:
 * `wait` and `collector` answer when the script has finished (the newest collector run of a script is the
 * agent's latest value for it); `forget` answers 202 at once. An agent that goes mid-run ends the wait with
 * 502 and the run `interrupted`; no answer by time-out + 5 s is 504 and the run `timed_out`; a refusal by the
 * agent (`ok: false`: an interpreter it lacks) is 422 "agent refused: <reason>" and an answer the protocol does
 * not allow 502 "agent sent an invalid answer", both with the run `failed` and its `error` saying why.
 * With `queue`, an agent that is not connected is no 409: the run is stored `queued` (with the script's body as it
 * is now, and an expiry) and RunQueue sends it when the agent connects (run-queue.ts).
 */
@Injectable()
export class ScriptRunsService {
  private readonly logger = new Logger('script-runs');

  constructor(
    private readonly repo: ScriptRunsRepository,
    private readonly channel: AgentChannel,
    private readonly clock: Clock,
    private readonly events: RmmEvents,
    private readonly agents: AgentsService,
    private readonly scripts: ScriptsService,
    private readonly config: RuntimeConfig,
    private readonly fields: CustomFieldsService,
    jobs: Jobs,
  ) {
    // At start and every minute, once across the cluster (one UPDATE over every run): runs left open by a server
    // that died are marked interrupted.
    jobs.every('script-runs.stale', { seconds: STALE_SWEEP_MS / 1000, mode: 'cluster-once', atStart: true }, () => this.sweepStale());
  }

  /** Runs left open by a server that died (past their time-out and a margin) are marked interrupted; how many. */
  sweepStale(): Promise<number> {
    return this.repo.interruptStale(this.clock.now());
  }

  /**
   * Checked in this order: the body (by the pipe), the agent (404, also when it is another client's than the
   * caller's), the script (400, a body field), then the agent's channel (409 at once when not connected, unless
   * `queue`: then the run waits for the agent); then the run is stored and sent (run).
   */
  async start(agentId: number, body: RunScriptDto, key: Principal | undefined): Promise<{ accepted: true; body: ScriptRunAcceptedDto } | { accepted: false; body: ScriptRunResultDto }> {
    // (the body's fields that depend on each other: still the body's checks, before the agent's)
    if (body.expires_in !== undefined && body.queue !== true) throw fieldInvalid('expires_in', 'only with queue: true');
    if (body.queue === true && body.output !== undefined && body.output !== 'forget') throw fieldInvalid('output', 'must be forget (or left out) with queue: true');
    if (body.custom_field !== undefined && body.output !== 'collector') throw fieldInvalid('custom_field', 'only with output collector');
    if (!(await this.agents.exists(agentId, clientFilter(key)))) throw notFound();
    if (!(await this.scripts.exists(body.script))) throw fieldInvalid('script', `no script ${body.script}`);
    if (body.custom_field !== undefined && !(await this.fields.agentFieldExists(body.custom_field))) throw fieldInvalid('custom_field', `no agent field ${body.custom_field}`);
    const script = await this.scripts.get(body.script);
    const output = body.queue === true ? 'forget' : (body.output ?? 'wait');
    return this.run(agentId, script, { output, args: body.args, timeout: body.timeout, queue: body.queue === true, expiresIn: body.expires_in, customField: body.custom_field }, key);
  }

  /** Cancels a queued run of the agent (404 for an unknown agent or run, or one of another client than the caller's). */
  async cancelOf(agentId: number, runId: number, clients: ClientScope): Promise<ScriptRunEntity> {
    if (!(await this.agents.exists(agentId, clients))) throw notFound();
    return this.cancel(agentId, runId);
  }

  /** The agent's runs (404 for an unknown agent, or one of another client than the caller's). */
  async runsOf(agentId: number, filter: RunFilter, page: Page, clients: ClientScope): Promise<[ScriptRunEntity[], number]> {
    if (!(await this.agents.exists(agentId, clients))) throw notFound();
    return this.list(agentId, filter, page);
  }

  /** One run of the agent (404 for an unknown agent or run, or one of another client than the caller's). */
  async runOf(agentId: number, runId: number, clients: ClientScope): Promise<ScriptRunEntity> {
    if (!(await this.agents.exists(agentId, clients))) throw notFound();
    return this.get(agentId, runId);
  }

  async run(
    agentId: number,
    script: ScriptEntity,
    ask: { output: ScriptOutputMode; args?: string[]; timeout?: number; queue?: boolean; expiresIn?: number; customField?: string },
    key: Principal | undefined,
  ): Promise<{ accepted: true; body: ScriptRunAcceptedDto } | { accepted: false; body: ScriptRunResultDto }> {
    const timeoutSeconds = ask.timeout ?? script.defaultTimeout ?? 90;
    const args = ask.args ?? script.defaultArgs;
    // Placeholders are filled in now (400 "unknown field client.foo" before anything is stored); the run keeps them
    // as given, so a secret's value is never stored (a queued run fills them in again when it is sent).
    const sent = await this.fields.fillArgs(agentId, args);
    if (!(await this.channel.isOnline(agentId))) {
      if (!ask.queue) throw new DomainError(AgentsErrorCode.NotConnected, 'agent is not connected');
      const queued = await this.enqueue(agentId, script, { args, timeoutSeconds, expiresInSeconds: ask.expiresIn, requestedByKeyId: key?.kind === 'api_key' ? key.id : null });
      return { accepted: true, body: { id: queued.id, status: 'queued' } };
    }
    const run = await this.repo.insert(
      { agentId, scriptId: script.id, scriptName: script.name, shell: script.shell, args, output: ask.output, timeoutSeconds, requestedByKeyId: key?.kind === 'api_key' ? key.id : null },
      this.clock.now(),
    );
    const settled = this.launch(run, script.body, sent);
    if (ask.output === 'forget') {
      void settled.catch(() => undefined);
      return { accepted: true, body: { id: run.id, status: 'running' } };
    }
    const done = await settled;
    if (done.answer === undefined) throw done.error;
    const answer = done.answer;
    if (ask.customField !== undefined && done.outcome.status === 'finished' && done.outcome.retcode === 0) await this.collect(run.id, agentId, ask.customField, answer.stdout);
    return {
      accepted: false,
      body: { id: run.id, execution_time: answer.executionTime.toFixed(3), retcode: answer.retcode, stdout: answer.stdout, stderr: answer.stderr, timed_out: answer.timedOut },
    };
  }

  /**
   * A collector run's output stored as the agent's custom field; a value the field refuses fails the run with the
   * reason (422, the reason as detail).
   */
  private async collect(runId: number, agentId: number, field: string, stdout: string): Promise<void> {
    const stored = await this.fields.collect(agentId, field, stdout);
    if (stored.ok) return;
    await this.repo.failCollected(runId, stored.reason);
    throw new DomainError(ScriptRunsErrorCode.CollectedRefused, stored.reason);
  }

  /**
   * Stores a run that waits for its agent (queued; the script's body as it is now; expiring `expiresInSeconds`
   * from now) and announces it (script.queued). 429 "too many queued runs for this agent" when the agent already
   * has RMM_QUEUE_MAX_PER_AGENT runs, or QUEUE_MAX_BYTES_PER_AGENT with this one, waiting (nothing written). Every instance hears the event, and the one holding the agent's
   * connection, if one does by now, sends it (RunQueue); otherwise the agent's next connect does.
   */
  async enqueue(
    agentId: number,
    script: ScriptEntity,
    ask: { args?: string[]; timeoutSeconds?: number; expiresInSeconds?: number; requestedByKeyId: number | null },
  ): Promise<ScriptRunEntity> {
    const expiresAt = new Date(this.clock.now().getTime() + (ask.expiresInSeconds ?? QUEUE_EXPIRES_IN_DEFAULT) * 1000);
    const queued: NewQueuedRun = {
      agentId,
      scriptId: script.id,
      scriptName: script.name,
      shell: script.shell,
      args: ask.args ?? script.defaultArgs,
      output: 'forget',
      timeoutSeconds: ask.timeoutSeconds ?? script.defaultTimeout ?? 90,
      requestedByKeyId: ask.requestedByKeyId,
      body: script.body,
      expiresAt,
    };
    const run = await this.repo.insertQueued(queued, { runs: this.config.queueMaxPerAgent, bytes: QUEUE_MAX_BYTES_PER_AGENT });
    if (!run) throw new DomainError(ScriptRunsErrorCode.QueueFull, 'too many queued runs for this agent');
    this.events.emit('script.queued', { agentId, runId: run.id, script: script.id, expiresAt: expiresAt.toISOString() });
    return run;
  }

  /**
   * Sends a queued run just claimed (RunQueue; status running) with the body stored when it was queued, and
   * records its outcome, whatever it is (never throws for the agent's failures).
   */
  async carry(run: ScriptRunEntity): Promise<RunOutcome> {
    return (await this.launch(run, run.body ?? '')).outcome;
  }

  /**
   * Cancels a queued run: the run, cancelled. 404 for a run the agent does not have; 409 for one that is not
   * queued any more (it has started, or ended).
   */
  async cancel(agentId: number, runId: number): Promise<ScriptRunEntity> {
    const cancelled = await this.repo.cancel(agentId, runId, this.clock.now());
    if (cancelled) return cancelled;
    const run = await this.repo.findById(agentId, runId);
    if (!run) throw notFound();
    throw new DomainError(ScriptRunsErrorCode.NotQueued, `run ${runId} is ${run.status}: only a queued run can be cancelled`);
  }

  list(agentId: number, filter: RunFilter, page: Page): Promise<[ScriptRunEntity[], number]> {
    return this.repo.list(agentId, filter, page);
  }

  async get(agentId: number, runId: number): Promise<ScriptRunEntity> {
    const run = await this.repo.findById(agentId, runId);
    if (!run) throw notFound();
    return run;
  }

  /**
   * A run the server asks for itself (a task's): stored and streamed like runscript's (output wait, the
   * script's default time-out and arguments), announced through `onSent(runId)` once it is on its way, and
   * settled without throwing: the recorded outcome, or `sent: false` when the agent is not connected here.
   */
  async runForServer(agentId: number, script: ScriptEntity, onSent: (runId: number) => Promise<void>, ask: { args?: string[]; timeoutSeconds?: number } = {}): Promise<ServerRunResult> {
    if (!(await this.channel.isOnline(agentId))) return { sent: false };
    const timeoutSeconds = ask.timeoutSeconds ?? script.defaultTimeout ?? 90;
    const args = ask.args ?? script.defaultArgs;
    const run = await this.repo.insert(
      { agentId, scriptId: script.id, scriptName: script.name, shell: script.shell, args, output: 'wait', timeoutSeconds, requestedByKeyId: null },
      this.clock.now(),
    );
    const launched = this.launch(run, script.body);
    await onSent(run.id).catch((err: Error) => this.logger.warn(`run ${run.id}: ${err.message}`));
    const settled = await launched;
    if (settled.error !== undefined && settled.error instanceof DomainError && settled.error.code === AgentsErrorCode.NotConnected) return { sent: false, runId: run.id };
    return { sent: true, runId: run.id, timeoutSeconds, outcome: settled.outcome };
  }

  /**
   * The one way a stored run starts, whichever asked for it (runscript, a queued run once its agent is here, a task):
   * sent to its agent with `body` (the script's now, or as it was when queued), announced (script.started), and its
   * outcome recorded when the agent answers, goes, or does not answer in time. Never throws for the agent's failures:
   * the promise settles with what was recorded, and the failure when there was one.
   */
  private async launch(run: ScriptRunEntity, body: string, filled?: string[]): Promise<Settled> {
    // The arguments as sent: placeholders filled in (already, for runscript); a field gone since (`unknown field
    // client.foo`) fails the run before it is sent, with that reason.
    let args: string[];
    try {
      args = filled ?? (await this.fields.fillArgs(run.agentId, run.args));
    } catch (err) {
      return this.record(run, Promise.reject(err));
    }
    const pending = this.channel.request(
      run.agentId,
      'script.run',
      { runId: run.id, shell: run.shell, body, args, timeoutSeconds: run.timeoutSeconds },
      (run.timeoutSeconds + ANSWER_GRACE_SECONDS) * 1000,
    );
    this.events.emit('script.started', { agentId: run.agentId, runId: run.id, script: run.scriptId ?? 0 });
    return this.record(run, pending);
  }

  /** Waits for the agent's answer and records the outcome, whatever it is (never throws for the agent's failures). */
  private async record(run: ScriptRunEntity, pending: Promise<Answer>): Promise<Settled> {
    let answer: Answer;
    try {
      answer = await pending;
    } catch (err) {
      const outcome: RunOutcome = { ...failedOutcome(err), finishedAt: this.clock.now() };
      await this.repo.finish(run.id, outcome).catch((e: Error) => this.logger.warn(`run ${run.id} outcome not written: ${e.message}`));
      this.events.emit('script.finished', { agentId: run.agentId, runId: run.id, retcode: null, executionTime: 0, timedOut: outcome.timedOut });
      return { outcome, error: err };
    }
    // (the answer is valid against ScriptRunAnswerSchema: LocalAgentChannel.deliver checked it)
    const stdout = pgText(answer.stdout);
    const stderr = pgText(answer.stderr);
    const outcome: RunOutcome = {
      status: answer.timedOut ? 'timed_out' : 'finished',
      retcode: storedRetcode(answer.retcode),
      stdout: stdout.slice(0, RUN_OUTPUT_CAP),
      stderr: stderr.slice(0, RUN_OUTPUT_CAP),
      stdoutTruncated: stdout.length > RUN_OUTPUT_CAP,
      stderrTruncated: stderr.length > RUN_OUTPUT_CAP,
      timedOut: answer.timedOut,
      executionTime: answer.executionTime,
      error: null,
      finishedAt: this.clock.now(),
    };
    await this.repo.finish(run.id, outcome);
    this.events.emit('script.finished', { agentId: run.agentId, runId: run.id, retcode: outcome.retcode, executionTime: answer.executionTime, timedOut: outcome.timedOut });
    // The caller sees what was stored (the same text, the same return code).
    return { answer: { ...answer, retcode: outcome.retcode, stdout: outcome.stdout, stderr: outcome.stderr }, outcome };
  }
}

/**
 * A return code as the `integer` column holds it: a Windows exit code above 2^31 - 1 (a DWORD such as NTSTATUS
 * 0xC0000005) becomes its signed 32-bit value (-1073741819), as cmd's %ERRORLEVEL% shows it.
 */
export const storedRetcode = (retcode: number | null): number | null => (retcode === null ? null : retcode | 0);

/** The outcome of a run whose wait ended without an answer, or with a refusal or an invalid answer. */
function failedOutcome(err: unknown): Omit<RunOutcome, 'finishedAt'> {
  const code = err instanceof DomainError ? err.code : undefined;
  const status: RunOutcome['status'] = code === AgentsErrorCode.NoAnswer ? 'timed_out' : code === AgentsErrorCode.Disconnected ? 'interrupted' : 'failed';
  const why = err instanceof DomainError ? [err.message, ...err.fields.map((f) => f.message)].join(': ') : 'the server could not carry it';
  return { status, retcode: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, timedOut: status === 'timed_out', executionTime: null, error: pgText(why) };
}
