import { Injectable } from '@nestjs/common';
import { AgentEntity } from '@app/entities';
import { DomainError, ErrorKind, invalid, notFound } from '../../common/errors/domain-error';
import { Page } from '../common/pagination.dto';
import { ScriptsService } from '../scripts/scripts.service';
import { AgentConnections } from './agent-connections';
import { AgentFilter, AgentsRepository } from './agents.repository';
import { RunScriptDto, ScriptResultDto } from './agents.dto';

@Injectable()
export class AgentsService {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly scripts: ScriptsService,
    private readonly connections: AgentConnections,
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
   * agent's channel: until the agent channel exists, no agent is connected and the answer is 409.
   */
  async runScript(agentId: number, body: RunScriptDto): Promise<ScriptResultDto> {
    if (!(await this.repo.exists(agentId))) throw notFound();
    if (!(await this.scripts.exists(body.script))) throw invalid('validation error', [{ field: 'script', message: `no script ${body.script}` }]);
    // The agent channel (a later issue) runs the script here when the agent is connected; none is yet.
    if (!this.connections.isConnected(agentId)) throw new DomainError(ErrorKind.Conflict, 'agent is not connected');
    throw new DomainError(ErrorKind.Unavailable, 'running scripts arrives with the agent channel');
  }
}
