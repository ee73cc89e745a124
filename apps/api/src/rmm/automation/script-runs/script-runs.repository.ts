import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { ScriptOutputMode, ScriptRunEntity, ScriptRunStatus } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { Page } from '../../common/pagination.dto';

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

/** A run queued for an offline agent: the script's body as it is now, and when the run stops waiting. */
export interface NewQueuedRun extends NewRun {
  body: string;
  expiresAt: Date;
}

/** What a queued run weighs against its agent's bound: its body and arguments, in UTF-8 bytes, as they are sent. */
export function queuedRunBytes(run: Pick<NewQueuedRun, 'body' | 'args'>): number {
  let bytes = Buffer.byteLength(run.body, 'utf8');
  for (const a of run.args) bytes += Buffer.byteLength(a, 'utf8');
  return bytes;
}

/** The key of the per-agent advisory lock the queue's claims take (pg_advisory_xact_lock(QUEUE_LOCK, agent_id)). */
const QUEUE_LOCK = 0x52514555; // 'RQEU'

export interface RunOutcome {
  status: Exclude<ScriptRunStatus, 'queued' | 'running' | 'cancelled' | 'expired'>;
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
  status?: ScriptRunStatus;
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

  /**
   * A run that waits for its agent (status queued, not started), unless the agent's queue is full: `limits.runs`
   * runs queued, or `limits.bytes` of bodies and arguments with this one (queuedRunBytes). Counted and inserted
   * in one transaction under the agent's queue lock (the claims' lock), so requests at once cannot pass the bound
   * together: null when full, nothing written.
   */
  insertQueued(run: NewQueuedRun, limits: { runs: number; bytes: number }): Promise<ScriptRunEntity | null> {
    return this.tx.run(async () => {
      await this.tx.rows(`SELECT pg_advisory_xact_lock($1, $2)`, [QUEUE_LOCK, run.agentId]);
      const [queued] = await this.tx.rows<{ runs: number; bytes: string }>(
        `SELECT count(*)::int AS runs,
                COALESCE(sum(octet_length(COALESCE(body, '')) + (SELECT COALESCE(sum(octet_length(a)), 0) FROM jsonb_array_elements_text(args) a)), 0)::bigint AS bytes
           FROM script_runs WHERE agent_id = $1 AND status = 'queued'`,
        [run.agentId],
      );
      if (queued.runs + 1 > limits.runs || Number(queued.bytes) + queuedRunBytes(run) > limits.bytes) return null;
      return this.runs.save(this.runs.create({ ...run, status: 'queued', startedAt: null }));
    });
  }

  /**
   * The next queued run of the agent, taken for sending (status running, started_at now), or null: none is
   * queued, or a queued run of the agent is still running (one at a time). One transaction under the agent's
   * advisory lock, so two instances claiming for one agent at once (an agent moving between them) queue rather
   * than each taking one; FOR UPDATE SKIP LOCKED passes over a run being cancelled that very moment. The agent's
   * runs past their expiry are marked expired first: a run is never sent after its expires_at.
   */
  claimNext(agentId: number, now: () => Date): Promise<{ run: ScriptRunEntity | null; expired: number[] }> {
    return this.tx.run(async () => {
      await this.tx.rows(`SELECT pg_advisory_xact_lock($1, $2)`, [QUEUE_LOCK, agentId]);
      const expired = await this.expire(now(), agentId);
      const [claimed] = await this.tx.rows<{ id: number }>(
        `WITH next AS (
           SELECT id FROM script_runs WHERE agent_id = $1 AND status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE script_runs s SET status = 'running' FROM next
            WHERE s.id = next.id
              AND NOT EXISTS (SELECT 1 FROM script_runs r WHERE r.agent_id = $1 AND r.status = 'running' AND r.expires_at IS NOT NULL)
           RETURNING s.id)
         SELECT id FROM claimed`,
        [agentId],
      );
      if (!claimed) return { run: null, expired };
      // The time is read once the claim has seen the previous run's end (written by whichever instance), so that
      // started_at is never before the previous run's finished_at.
      await this.tx.exec(`UPDATE script_runs SET started_at = $2 WHERE id = $1`, [claimed.id, now()]);
      return { run: await this.runs.findOneBy({ id: claimed.id }), expired };
    });
  }

  /** Queued runs past their expiry (of one agent, or of all) become expired; their ids. */
  async expire(now: Date, agentId?: number): Promise<number[]> {
    const rows = await this.tx.rows<{ id: number }>(
      `WITH changed AS (
         UPDATE script_runs SET status = 'expired', finished_at = $1, error = 'the agent did not connect before the run expired'
          WHERE status = 'queued' AND expires_at <= $1 AND ($2::int IS NULL OR agent_id = $2) RETURNING id)
       SELECT id FROM changed ORDER BY id`,
      [now, agentId ?? null],
    );
    return rows.map((r) => r.id);
  }

  /** Cancels a run still queued; the run as it is then, or null when it is not queued (or not the agent's). */
  async cancel(agentId: number, id: number, now: Date): Promise<ScriptRunEntity | null> {
    const [row] = await this.tx.rows<{ id: number }>(
      `WITH changed AS (
         UPDATE script_runs SET status = 'cancelled', finished_at = $3, error = 'cancelled before it was sent'
          WHERE agent_id = $1 AND id = $2 AND status = 'queued' RETURNING id)
       SELECT id FROM changed`,
      [agentId, id, now],
    );
    return row ? this.runs.findOneBy({ id: row.id }) : null;
  }

  /** Of these agents, those with a run queued (IDX_script_runs_open). */
  async withQueued(agentIds: number[]): Promise<number[]> {
    if (agentIds.length === 0) return [];
    const rows = await this.tx.rows<{ agent_id: number }>(`SELECT DISTINCT agent_id FROM script_runs WHERE status = 'queued' AND agent_id = ANY($1::int[])`, [agentIds]);
    return rows.map((r) => r.agent_id);
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

  /** A finished collector run whose output its custom field refused: failed, with the reason (its output kept). */
  async failCollected(id: number, reason: string): Promise<void> {
    await this.tx.exec(`UPDATE script_runs SET status = 'failed', error = $2 WHERE id = $1 AND status = 'finished'`, [id, reason]);
  }

  /** An agent's runs, newest first (IDX_script_runs_agent). */
  list(agentId: number, filter: RunFilter, page: Page): Promise<[ScriptRunEntity[], number]> {
    return this.runs.findAndCount({
      where: {
        agentId,
        ...(filter.output ? { output: filter.output } : {}),
        ...(filter.scriptId ? { scriptId: filter.scriptId } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      },
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
   * answer). Safe on several instances: a run another instance still waits for is younger than that. A queued
   * run (not started) is not touched: the queue's sweep expires it.
   */
  async interruptStale(now: Date): Promise<number> {
    const { rowCount } = await this.tx.exec(
      `UPDATE script_runs SET status = 'interrupted', finished_at = $1
        WHERE status = 'running' AND started_at + (timeout_seconds + 65) * interval '1 second' < $1`,
      [now],
    );
    return rowCount;
  }
}
