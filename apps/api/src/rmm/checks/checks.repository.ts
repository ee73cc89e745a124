import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, Repository } from 'typeorm';
import { TransactionHost } from '../../database/transaction-host';
import { AgentEntity, CheckEntity, ScriptEntity } from '@app/entities';
import { Page } from '../common/pagination.dto';

export type CheckFields = Pick<CheckEntity, 'agentId' | 'checkType' | 'name' | 'settings' | 'scriptId' | 'failsB4Alert'>;

@Injectable()
export class ChecksRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get checks(): Repository<CheckEntity> {
    return this.tx.repo(CheckEntity);
  }

  private get agents(): Repository<AgentEntity> {
    return this.tx.repo(AgentEntity);
  }

  private get scripts(): Repository<ScriptEntity> {
    return this.tx.repo(ScriptEntity);
  }


  /** By id; with an agent, uses IDX_checks_agent. */
  list(agentId: number | undefined, page: Page): Promise<[CheckEntity[], number]> {
    const where: FindOptionsWhere<CheckEntity> = agentId === undefined ? {} : { agentId };
    return this.checks.findAndCount({ where, order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  findById(id: number): Promise<CheckEntity | null> {
    return this.checks.findOneBy({ id });
  }

  agentExists(id: number): Promise<boolean> {
    return this.agents.existsBy({ id });
  }

  scriptExists(id: number): Promise<boolean> {
    return this.scripts.existsBy({ id });
  }

  insert(fields: CheckFields): Promise<CheckEntity> {
    return this.checks.save(this.checks.create(fields));
  }

  async update(id: number, fields: Partial<CheckFields>): Promise<void> {
    if (Object.keys(fields).length > 0) await this.checks.update({ id }, fields as Parameters<Repository<CheckEntity>["update"]>[1]);
  }

  async delete(id: number): Promise<boolean> {
    return ((await this.checks.delete({ id })).affected ?? 0) > 0;
  }
}
