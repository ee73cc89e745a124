import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { ScriptOutputMode, ScriptRunEntity, ScriptRunStatus } from '@app/entities';
import { TransactionHost } from '../../database/transaction-host';
import { Page } from '../common/pagination.dto';

export interface NewRun {
  agentId: number;
  scriptId: number;
  scriptName: string;
  shell: string;
  args: string[];
  output: ScriptOutputMode;
  timeoutSeconds: number;
  requestedByKeyId: number | null;
}

export interface RunOutcome {
  status: Exclude<ScriptRunStatus, 'queued' | 'running'>;
  retcode: number | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  executionTime: number | null;
  /** Why it did not finish as the script ended it; null when it did. */
  error: string | null;
  finishedAt: Date;
}

export interface RunFilter {
  output?: ScriptOutputMode;
  scriptId?: number;
}

@Injectable()
export class ScriptRunsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get runs(): Repository<ScriptRunEntity> {
    return this.tx.repo(ScriptRunEntity);
  }

  insert(run: NewRun, startedAt: Date): Promise<ScriptRunEntity> {
    return this.runs.save(this.runs.create({ ...run, status: 'running', startedAt }));
  }

  /** Records the end of a run that is still running (an outcome never overwrites another). */
  async finish(id: number, outcome: RunOutcome): Promise<void> {
    await this.runs
      .createQueryBuilder()
      .update()
      .set(outcome)
      .where('id = :id AND status IN (:...open)', { id, open: ['queued', 'running'] })
      .execute();
  }

  /** An agent's runs, newest first (IDX_script_runs_agent). */
  list(agentId: number, filter: RunFilter, page: Page): Promise<[ScriptRunEntity[], number]> {
    return this.runs.findAndCount({
      where: { agentId, ...(filter.output ? { output: filter.output } : {}), ...(filter.scriptId ? { scriptId: filter.scriptId } : {}) },
      order: { id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  findById(agentId: number, id: number): Promise<ScriptRunEntity | null> {
    return this.runs.findOneBy({ agentId, id });
  }

  /**
   * Runs nobody will finish: still open a minute after their time-out (their server died, or lost the
   * answer). Safe on several instances: a run another instance still waits for is younger than that.
   */
  async interruptStale(now: Date): Promise<number> {
    const { rowCount } = await this.tx.exec(
      `UPDATE script_runs SET status = 'interrupted', finished_at = $1
        WHERE status IN ('queued', 'running') AND started_at + (timeout_seconds + 65) * interval '1 second' < $1`,
      [now],
    );
    return rowCount;
  }
}
