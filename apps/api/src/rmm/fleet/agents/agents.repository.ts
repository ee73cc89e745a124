import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { AgentEntity } from '@app/entities';
import { ClientScope, inScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { AGENT_DELETE_SQL, AGENT_DETAIL_IN_CLIENTS_SQL, AGENT_DETAIL_SQL, AGENT_EXISTS_SQL, AgentRow, agentBatchSql, agentCountSql, agentPageSql } from './agents.sql';

export interface AgentFilter {
  hostname?: string;
  clientId?: number;
  siteId?: number;
  monitoringType?: AgentEntity['monitoringType'];
}

@Injectable()
export class AgentsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get agents(): Repository<AgentEntity> {
    return this.tx.repo(AgentEntity);
  }


  /**
   * One page of agents with their client and site names, by id, and the number the filter matches (two
   * statements side by side; hostname uses IDX_agents_hostname, site IDX_agents_site). Raw rows: no entities.
   * `clients`: only agents of those clients, in the rows and in the count.
   */
  async page(f: AgentFilter, page: Page, clients: ClientScope): Promise<[AgentRow[], number]> {
    const list = agentPageSql({ ...f, clients }, page.limit, page.offset);
    const count = agentCountSql({ ...f, clients });
    const [rows, counted] = await Promise.all([this.tx.rows<AgentRow>(list.text, list.values), this.tx.rows<{ n: number }>(count.text, count.values)]);
    return [rows, counted[0].n];
  }

  /** Up to `batch` agents with ids after `afterId`, by id (keyset: each batch is one index range scan). */
  batchAfter(f: AgentFilter, afterId: number, batch: number, clients: ClientScope): Promise<AgentRow[]> {
    const q = agentBatchSql({ ...f, clients }, afterId, batch);
    return this.tx.rows<AgentRow>(q.text, q.values);
  }

  async findRowById(id: number, clients: ClientScope): Promise<AgentRow | null> {
    const rows = clients === null ? await this.tx.rows<AgentRow>(AGENT_DETAIL_SQL, [id]) : await this.tx.rows<AgentRow>(AGENT_DETAIL_IN_CLIENTS_SQL, [id, clients]);
    return rows[0] ?? null;
  }

  async findById(id: number, clients: ClientScope): Promise<AgentEntity | null> {
    const agent = await this.agents.findOne({ where: { id }, relations: { client: true, site: true } });
    return agent && inScope(clients, agent.clientId) ? agent : null;
  }

  async exists(id: number, clients: ClientScope): Promise<boolean> {
    const [row] = await this.tx.rows<{ found: boolean }>(AGENT_EXISTS_SQL, [id, clients]);
    return row.found;
  }

  /** Deletes the record; its checks, tasks and alerts go with it (ON DELETE CASCADE). False: none (for the caller). */
  async delete(id: number, clients: ClientScope): Promise<boolean> {
    return (await this.tx.exec(AGENT_DELETE_SQL, [id, clients])).rowCount > 0;
  }
}
