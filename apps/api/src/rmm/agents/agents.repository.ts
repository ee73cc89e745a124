import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../database/transaction-host';
import { AgentEntity } from '@app/entities';
import { Page } from '../common/pagination.dto';
import { AGENT_DETAIL_SQL, AgentRow, agentBatchSql, agentCountSql, agentPageSql } from './agents.sql';

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
   */
  async page(f: AgentFilter, page: Page): Promise<[AgentRow[], number]> {
    const list = agentPageSql(f, page.limit, page.offset);
    const count = agentCountSql(f);
    const [rows, counted] = await Promise.all([this.tx.rows<AgentRow>(list.text, list.values), this.tx.rows<{ n: number }>(count.text, count.values)]);
    return [rows, counted[0].n];
  }

  /** Up to `batch` agents with ids after `afterId`, by id (keyset: each batch is one index range scan). */
  batchAfter(f: AgentFilter, afterId: number, batch: number): Promise<AgentRow[]> {
    const q = agentBatchSql(f, afterId, batch);
    return this.tx.rows<AgentRow>(q.text, q.values);
  }

  async findRowById(id: number): Promise<AgentRow | null> {
    const rows = await this.tx.rows<AgentRow>(AGENT_DETAIL_SQL, [id]);
    return rows[0] ?? null;
  }

  findById(id: number): Promise<AgentEntity | null> {
    return this.agents.findOne({ where: { id }, relations: { client: true, site: true } });
  }

  exists(id: number): Promise<boolean> {
    return this.agents.existsBy({ id });
  }

  /** Deletes the record; its checks, tasks and alerts go with it (ON DELETE CASCADE). */
  async delete(id: number): Promise<boolean> {
    return ((await this.agents.delete({ id })).affected ?? 0) > 0;
  }
}
