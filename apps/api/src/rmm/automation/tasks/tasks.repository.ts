import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { ScriptEntity, TaskEntity } from '@app/entities';
import { AGENT_EXISTS_SQL } from '../../fleet/agents/agents.sql';
import { ClientScope, ofAgentsInScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';

export type TaskFields = Pick<TaskEntity, 'name' | 'agentId' | 'scriptId' | 'schedule' | 'enabled' | 'nextRunAt' | 'queueIfOffline' | 'skipInMaintenance'>;

@Injectable()
export class TasksRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get tasks(): Repository<TaskEntity> {
    return this.tx.repo(TaskEntity);
  }

  private get scripts(): Repository<ScriptEntity> {
    return this.tx.repo(ScriptEntity);
  }


  /** By id. `clients`: only tasks of agents of those clients (rows and count). */
  list(agentId: number | undefined, page: Page, clients: ClientScope): Promise<[TaskEntity[], number]> {
    const q = ofAgentsInScope(this.tasks.createQueryBuilder('t'), clients);
    if (agentId !== undefined) q.andWhere('t.agentId = :agentId', { agentId });
    return q.orderBy('t.id', 'ASC').offset(page.offset).limit(page.limit).getManyAndCount();
  }

  findById(id: number, clients: ClientScope): Promise<TaskEntity | null> {
    return ofAgentsInScope(this.tasks.createQueryBuilder('t'), clients).where('t.id = :id', { id }).getOne();
  }

  async agentExists(id: number, clients: ClientScope): Promise<boolean> {
    const [row] = await this.tx.rows<{ found: boolean }>(AGENT_EXISTS_SQL, [id, clients]);
    return row.found;
  }

  scriptExists(id: number): Promise<boolean> {
    return this.scripts.existsBy({ id });
  }

  insert(fields: TaskFields): Promise<TaskEntity> {
    return this.tasks.save(this.tasks.create(fields));
  }

  async update(id: number, fields: Partial<TaskFields>): Promise<void> {
    if (Object.keys(fields).length > 0) await this.tasks.update({ id }, fields);
  }

  async delete(id: number): Promise<boolean> {
    return ((await this.tasks.delete({ id })).affected ?? 0) > 0;
  }
}
