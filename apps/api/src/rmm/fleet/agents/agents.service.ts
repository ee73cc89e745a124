import { Injectable } from '@nestjs/common';
import { AgentEntity } from '@app/entities';
import { ClientScope, EVERY_CLIENT } from '../../common/client-scope';
import { notFound } from '../../../common/errors/domain-error';
import { Page } from '../../common/pagination.dto';
import { AgentFilter, AgentsRepository } from './agents.repository';
import { AgentDetailDto, AgentDto, toAgentDetailDto, toAgentDto } from './agents.dto';
import { AGENT_STREAM_BATCH } from './agents.sql';
import { Readable } from 'node:stream';
import { AgentChannel } from '../agent-channel/agent-channel';

@Injectable()
export class AgentsService {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly channel: AgentChannel,
  ) {}

  /** One page of the agents the caller may see, and how many of them the filter matches (X-Total-Count). */
  async page(filter: AgentFilter, page: Page, clients: ClientScope): Promise<[AgentDto[], number]> {
    const [rows, total] = await this.repo.page(filter, page, clients);
    return [rows.map(toAgentDto), total];
  }

  /**
   * Every agent the filter matches, by id. Up to one batch: the plain array (the answer is exactly as it
   * always was). More: a stream of JSON text, written batch by batch (keyset pages of AGENT_STREAM_BATCH),
   * so that no giant string or array of 20,000 agents is ever held in memory.
   */
  async all(filter: AgentFilter, clients: ClientScope): Promise<AgentDto[] | Readable> {
    const first = await this.repo.batchAfter(filter, 0, AGENT_STREAM_BATCH, clients);
    if (first.length < AGENT_STREAM_BATCH) return first.map(toAgentDto);
    const repo = this.repo;
    async function* pieces(): AsyncGenerator<string> {
      let rows = first;
      let sep = '[';
      while (rows.length > 0) {
        let chunk = '';
        for (const r of rows) {
          chunk += sep + JSON.stringify(toAgentDto(r));
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

  /** True when the agent exists and is of a client the caller may see (`clients`). */
  exists(id: number, clients: ClientScope): Promise<boolean> {
    return this.repo.exists(id, clients);
  }

  /** The agent detail object, straight from one row (the HTTP route); 404 for an agent of another client. */
  async detail(id: number, clients: ClientScope = EVERY_CLIENT): Promise<AgentDetailDto> {
    const row = await this.repo.findRowById(id, clients);
    if (!row) throw notFound();
    return toAgentDetailDto(row);
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
}
