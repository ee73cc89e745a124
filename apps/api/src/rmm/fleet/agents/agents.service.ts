import { Injectable } from '@nestjs/common';
import { AgentEntity, ScriptRunEntity } from '@app/entities';
import { ClientScope, EVERY_CLIENT } from '../../common/client-scope';
import { clientFilter, Principal } from '../../common/principal';
import { fieldInvalid, notFound } from '../../../common/errors/domain-error';
import { Page } from '../../common/pagination.dto';
import { ScriptsService } from '../../automation/scripts/scripts.service';
import { AgentFilter, AgentsRepository } from './agents.repository';
import { AgentDetailDto, AgentDto, RunScriptDto, rowToAgentDetailDto, rowToAgentDto } from './agents.dto';
import { AGENT_STREAM_BATCH } from './agents.sql';
import { Readable } from 'node:stream';
import { ScriptRunAcceptedDto, ScriptRunResultDto } from '../../automation/script-runs/script-runs.dto';
import { RunFilter } from '../../automation/script-runs/script-runs.repository';
import { ScriptRunsService } from '../../automation/script-runs/script-runs.service';
import { AgentChannel } from '../agent-channel/agent-channel';

@Injectable()
export class AgentsService {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly scripts: ScriptsService,
    private readonly scriptRuns: ScriptRunsService,
    private readonly channel: AgentChannel,
  ) {}

  /** One page of the agents the caller may see, and how many of them the filter matches (X-Total-Count). */
  async page(filter: AgentFilter, page: Page, clients: ClientScope): Promise<[AgentDto[], number]> {
    const [rows, total] = await this.repo.page(filter, page, clients);
    return [rows.map(rowToAgentDto), total];
  }

  /**
   * Every agent the filter matches, by id. Up to one batch: the plain array (the answer is exactly as it
   * always was). More: a stream of JSON text, written batch by batch (keyset pages of AGENT_STREAM_BATCH),
   * so that no giant string or array of 20,000 agents is ever held in memory.
   */
  async all(filter: AgentFilter, clients: ClientScope): Promise<AgentDto[] | Readable> {
    const first = await this.repo.batchAfter(filter, 0, AGENT_STREAM_BATCH, clients);
    if (first.length < AGENT_STREAM_BATCH) return first.map(rowToAgentDto);
    const repo = this.repo;
    async function* pieces(): AsyncGenerator<string> {
      let rows = first;
      let sep = '[';
      while (rows.length > 0) {
        let chunk = '';
        for (const r of rows) {
          chunk += sep + JSON.stringify(rowToAgentDto(r));
          sep = ',';
        }
        yield chunk;
        if (rows.length < AGENT_STREAM_BATCH) break;
        rows = await repo.batchAfter(filter, rows[rows.length - 1].id, AGENT_STREAM_BATCH, clients);
      }
      yield ']';
    }
    return Readable.from(pieces(), { objectMode: false });
  }

  /** The agent detail object, straight from one row (the HTTP route); 404 for an agent of another client. */
  async detail(id: number, clients: ClientScope = EVERY_CLIENT): Promise<AgentDetailDto> {
    const row = await this.repo.findRowById(id, clients);
    if (!row) throw notFound();
    return rowToAgentDetailDto(row);
  }

  /** The agent's entity (the events WebSocket's hello and agent.updated); `clients`: 404 for another client's. */
  async get(id: number, clients: ClientScope = EVERY_CLIENT): Promise<AgentEntity> {
    const agent = await this.repo.findById(id, clients);
    if (!agent) throw notFound();
    return agent;
  }

  /**
   * Removes the server's record. The installed agent is not touched, unless `uninstall`: a connected agent (on any
   * instance) is first told to uninstall itself (agent.uninstall: it removes its service and files and exits).
   * Answers whether that message went out ('sent'), or there was no connection to send it on ('not connected').
   */
  async delete(id: number, clients: ClientScope, uninstall = false): Promise<'sent' | 'not connected' | null> {
    let told: 'sent' | 'not connected' | null = null;
    if (uninstall) {
      if (!(await this.repo.exists(id, clients))) throw notFound();
      told = (await this.channel.notify(id, { type: 'agent.uninstall' })) ? 'sent' : 'not connected';
    }
    if (!(await this.repo.delete(id, clients))) throw notFound();
    return told;
  }

  /**
   * Checked in this order: the body (by the pipe), the agent (404, also when it is another client's than the
   * caller's), the script (400, a body field), then the agent's channel (409 at once when not connected, unless
   * `queue`: then the run waits for the agent); then the run is stored and sent (ScriptRunsService).
   */
  async runScript(agentId: number, body: RunScriptDto, key: Principal | undefined): Promise<{ accepted: true; body: ScriptRunAcceptedDto } | { accepted: false; body: ScriptRunResultDto }> {
    // (the body's fields that depend on each other: still the body's checks, before the agent's)
    if (body.expires_in !== undefined && body.queue !== true) throw fieldInvalid('expires_in', 'only with queue: true');
    if (body.queue === true && body.output !== undefined && body.output !== 'forget') throw fieldInvalid('output', 'must be forget (or left out) with queue: true');
    if (!(await this.repo.exists(agentId, clientFilter(key)))) throw notFound();
    if (!(await this.scripts.exists(body.script))) throw fieldInvalid('script', `no script ${body.script}`);
    const script = await this.scripts.get(body.script);
    const output = body.queue === true ? 'forget' : (body.output ?? 'wait');
    return this.scriptRuns.run(agentId, script, { output, args: body.args, timeout: body.timeout, queue: body.queue === true, expiresIn: body.expires_in }, key);
  }

  /** Cancels a queued run of the agent (404 for an unknown agent or run, or one of another client than the caller's). */
  async cancelRun(agentId: number, runId: number, clients: ClientScope): Promise<ScriptRunEntity> {
    if (!(await this.repo.exists(agentId, clients))) throw notFound();
    return this.scriptRuns.cancel(agentId, runId);
  }

  /** The agent's runs (404 for an unknown agent, or one of another client than the caller's). */
  async runs(agentId: number, filter: RunFilter, page: Page, clients: ClientScope): Promise<[ScriptRunEntity[], number]> {
    if (!(await this.repo.exists(agentId, clients))) throw notFound();
    return this.scriptRuns.list(agentId, filter, page);
  }

  async run(agentId: number, runId: number, clients: ClientScope): Promise<ScriptRunEntity> {
    if (!(await this.repo.exists(agentId, clients))) throw notFound();
    return this.scriptRuns.get(agentId, runId);
  }
}
