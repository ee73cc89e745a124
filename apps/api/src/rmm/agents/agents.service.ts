import { Injectable } from '@nestjs/common';
import { AgentEntity } from '@app/entities';
import { DomainError, fieldInvalid, notFound } from '../../common/errors/domain-error';
import { AgentChannel } from '../agent-channel/agent-channel';
import { Page } from '../common/pagination.dto';
import { ScriptsService } from '../scripts/scripts.service';
import { AgentsErrorCode } from './agents.errors';
import { AgentFilter, AgentsRepository } from './agents.repository';
import { RunScriptDto, ScriptResultDto } from './agents.dto';

@Injectable()
export class AgentsService {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly scripts: ScriptsService,
    private readonly channel: AgentChannel,
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
   * agent's channel: not connected is 409 at once; then the script goes to the agent over the channel.
   * (Runs are stored, and `forget`/`collector` answered, with the agent gateway: a later issue.)
   */
  async runScript(agentId: number, body: RunScriptDto): Promise<ScriptResultDto> {
    if (!(await this.repo.exists(agentId))) throw notFound();
    if (!(await this.scripts.exists(body.script))) throw fieldInvalid('script', `no script ${body.script}`);
    if (!(await this.channel.isOnline(agentId))) throw new DomainError(AgentsErrorCode.NotConnected, 'agent is not connected');
    const script = await this.scripts.get(body.script);
    const timeoutSeconds = body.timeout ?? script.defaultTimeout ?? 90;
    // The agent kills the script at its timeout and answers; five more seconds for the answer to arrive.
    const result = await this.channel.request(
      agentId,
      'script.run',
      { shell: script.shell, body: script.body, args: body.args ?? script.defaultArgs, timeoutSeconds },
      (timeoutSeconds + 5) * 1000,
    );
    return { execution_time: result.executionTime.toFixed(3), retcode: result.retcode, stdout: result.stdout, stderr: result.stderr };
  }
}
