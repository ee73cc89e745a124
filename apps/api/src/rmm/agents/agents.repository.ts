import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, Repository } from 'typeorm';
import { TransactionHost } from '../../database/transaction-host';
import { AgentEntity } from '@app/entities';
import { Page } from '../common/pagination.dto';

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


  /** Agents with their client and site names, by id (hostname uses IDX_agents_hostname, site IDX_agents_site). */
  list(f: AgentFilter, page: Page): Promise<[AgentEntity[], number]> {
    const where: FindOptionsWhere<AgentEntity> = {};
    if (f.hostname !== undefined) where.hostname = f.hostname;
    if (f.clientId !== undefined) where.clientId = f.clientId;
    if (f.siteId !== undefined) where.siteId = f.siteId;
    if (f.monitoringType !== undefined) where.monitoringType = f.monitoringType;
    return this.agents.findAndCount({ where, relations: { client: true, site: true }, order: { id: 'ASC' }, skip: page.offset, take: page.limit });
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
