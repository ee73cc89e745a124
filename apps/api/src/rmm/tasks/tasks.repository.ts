import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, Repository } from 'typeorm';
import { TransactionHost } from '../../database/transaction-host';
import { AgentEntity, ScriptEntity, TaskEntity } from '@app/entities';
import { Page } from '../common/pagination.dto';

export type TaskFields = Pick<TaskEntity, 'name' | 'agentId' | 'scriptId' | 'schedule' | 'enabled' | 'nextRunAt'>;

@Injectable()
export class TasksRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get tasks(): Repository<TaskEntity> {
    return this.tx.repo(TaskEntity);
  }

  private get agents(): Repository<AgentEntity> {
    return this.tx.repo(AgentEntity);
  }

  private get scripts(): Repository<ScriptEntity> {
    return this.tx.repo(ScriptEntity);
  }


  list(agentId: number | undefined, page: Page): Promise<[TaskEntity[], number]> {
    const where: FindOptionsWhere<TaskEntity> = agentId === undefined ? {} : { agentId };
    return this.tasks.findAndCount({ where, order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  findById(id: number): Promise<TaskEntity | null> {
    return this.tasks.findOneBy({ id });
  }

  agentExists(id: number): Promise<boolean> {
    return this.agents.existsBy({ id });
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
