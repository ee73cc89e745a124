import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { AgentEntity } from '@app/entities';
import { ClientScope, inScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import {
  AGENT_CHANGE_SQL,
  AGENT_DELETE_SQL,
  AGENT_DETAIL_IN_CLIENTS_SQL,
  AGENT_DETAIL_SQL,
  AGENT_EXISTS_SQL,
  AGENT_LOCK_FOR_CHANGE_SQL,
  AGENTS_FOUND_SQL,
  AGENTS_RETAG_SQL,
  AgentRow,
  agentBatchSql,
  agentCountSql,
  agentPageSql,
} from './agents.sql';

export interface AgentFilter {
  hostname?: string;
  clientId?: number;
  siteId?: number;
  monitoringType?: AgentEntity['monitoringType'];
  /** Agents carrying all of these (stored form: lowercase). */
  tags?: string[];
}

/** The fields an operator changes on an agent, as stored. */
export interface AgentChangeable {
  tags: string[];
  monitoring_type: AgentEntity['monitoringType'];
  maintenance: boolean;
}

/** An agent whose tags a bulk edit changed. */
export interface Retagged {
  id: number;
  before: string[];
  after: string[];
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

  /** Inside a transaction: the agent's changeable fields, its row locked until the commit; null: none (for the caller). */
  async lockForChange(id: number, clients: ClientScope): Promise<AgentChangeable | null> {
    const [row] = await this.tx.rows<AgentChangeable>(AGENT_LOCK_FOR_CHANGE_SQL, [id, clients]);
    return row ?? null;
  }

  /** Writes the fields given (the others are kept). */
  async change(id: number, fields: Partial<AgentChangeable>): Promise<void> {
    await this.tx.exec(AGENT_CHANGE_SQL, [id, fields.tags ?? null, fields.monitoring_type ?? null, fields.maintenance ?? null]);
  }

  /** Those of `ids` that exist for the caller. */
  async found(ids: number[], clients: ClientScope): Promise<Set<number>> {
    return new Set((await this.tx.rows<{ id: number }>(AGENTS_FOUND_SQL, [ids, clients])).map((r) => r.id));
  }

  /** Adds and removes tags on many agents in one statement (AGENTS_RETAG_SQL); the agents it changed. */
  retag(ids: number[], add: string[], remove: string[], clients: ClientScope): Promise<Retagged[]> {
    return this.tx.rows<Retagged>(AGENTS_RETAG_SQL, [ids, add, remove, clients]);
  }

  /** Deletes the record; its checks, tasks and alerts go with it (ON DELETE CASCADE). False: none (for the caller). */
  async delete(id: number, clients: ClientScope): Promise<boolean> {
    return (await this.tx.exec(AGENT_DELETE_SQL, [id, clients])).rowCount > 0;
  }
}
