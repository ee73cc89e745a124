import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { ScriptEntity } from '@app/entities';
import { Page } from '../../common/pagination.dto';

export type ScriptFields = Pick<ScriptEntity, 'name' | 'shell' | 'description' | 'body' | 'defaultArgs' | 'defaultTimeout'>;

@Injectable()
export class ScriptsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get scripts(): Repository<ScriptEntity> {
    return this.tx.repo(ScriptEntity);
  }


  list(page: Page): Promise<[ScriptEntity[], number]> {
    return this.scripts.findAndCount({ order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  findById(id: number): Promise<ScriptEntity | null> {
    return this.scripts.findOneBy({ id });
  }

  exists(id: number): Promise<boolean> {
    return this.scripts.existsBy({ id });
  }

  insert(fields: ScriptFields): Promise<ScriptEntity> {
    return this.scripts.save(this.scripts.create(fields));
  }

  async update(id: number, fields: Partial<ScriptFields>): Promise<void> {
    if (Object.keys(fields).length > 0) await this.scripts.update({ id }, fields);
  }

  async delete(id: number): Promise<void> {
    await this.scripts.delete({ id });
  }

  /**
   * Locks the script's row until the transaction ends (false: no such script). FOR UPDATE conflicts with the
   * KEY SHARE lock that inserting or repointing a check or task that references it takes, so usage() read
   * after it stays true until the commit.
   */
  async lockForUpdate(id: number): Promise<boolean> {
    const rows = await this.tx.rows(`SELECT id FROM scripts WHERE id = $1 FOR UPDATE`, [id]);
    return rows.length > 0;
  }

  /**
   * Whether a task or check of an agent outside these clients (or of no client) runs this script: a caller limited
   * to them may not change its code, which would run on agents it may not see.
   */
  async usedOutside(id: number, clients: readonly number[]): Promise<boolean> {
    const [row] = await this.tx.rows<{ used: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM tasks t JOIN agents a ON a.id = t.agent_id WHERE t.script_id = $1 AND (a.client_id IS NULL OR NOT a.client_id = ANY($2::int[])))
           OR EXISTS (SELECT 1 FROM checks c JOIN agents a ON a.id = c.agent_id WHERE c.script_id = $1 AND (a.client_id IS NULL OR NOT a.client_id = ANY($2::int[]))) AS used`,
      [id, clients],
    );
    return row.used;
  }

  /** Tasks and checks that run this script (they keep it from being deleted). */
  async usage(id: number): Promise<{ tasks: number; checks: number }> {
    const [row] = await this.tx.rows<{ tasks: number; checks: number }>(
      `SELECT (SELECT count(*)::int FROM tasks WHERE script_id = $1) AS tasks, (SELECT count(*)::int FROM checks WHERE script_id = $1) AS checks`,
      [id],
    );
    return row;
  }
}
