import { Injectable } from '@nestjs/common';
import { AgentEntity, ApiKeyEntity, ScriptRunEntity } from '@app/entities';
import { fieldInvalid, notFound } from '../../common/errors/domain-error';
import { Page } from '../common/pagination.dto';
import { ScriptsService } from '../scripts/scripts.service';
import { AgentFilter, AgentsRepository } from './agents.repository';
import { RunScriptDto } from './agents.dto';
import { ScriptRunAcceptedDto, ScriptRunResultDto } from '../script-runs/script-runs.dto';
import { RunFilter } from '../script-runs/script-runs.repository';
import { ScriptRunsService } from '../script-runs/script-runs.service';

@Injectable()
export class AgentsService {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly scripts: ScriptsService,
    private readonly scriptRuns: ScriptRunsService,
  ) {}

  list(filter: AgentFilter, page: Page): Promise<[AgentEntity[], number]> {
    return this.repo.list(filter, page);
  }

  async get(id: number): Promise<AgentEntity> {
    const agent = await this.repo.findById(id);
    if (!agent) throw notFound();
    return agent;
  }

  /** Removes the server's record only; the installed agent is not touched. */
  async delete(id: number): Promise<void> {
    if (!(await this.repo.delete(id))) throw notFound();
  }

  /**
   * Checked in this order: the body (by the pipe), the agent (404), the script (400, a body field), then the
   * agent's channel (409 at once when not connected); then the run is stored and sent (ScriptRunsService).
   */
  async runScript(agentId: number, body: RunScriptDto, key: ApiKeyEntity | undefined): Promise<{ accepted: true; body: ScriptRunAcceptedDto } | { accepted: false; body: ScriptRunResultDto }> {
    if (!(await this.repo.exists(agentId))) throw notFound();
    if (!(await this.scripts.exists(body.script))) throw fieldInvalid('script', `no script ${body.script}`);
    const script = await this.scripts.get(body.script);
    return this.scriptRuns.run(agentId, script, { output: body.output ?? 'wait', args: body.args, timeout: body.timeout }, key);
  }

  async runs(agentId: number, filter: RunFilter, page: Page): Promise<[ScriptRunEntity[], number]> {
    if (!(await this.repo.exists(agentId))) throw notFound();
    return this.scriptRuns.list(agentId, filter, page);
  }

  run(agentId: number, runId: number): Promise<ScriptRunEntity> {
    return this.scriptRuns.get(agentId, runId);
  }
}
