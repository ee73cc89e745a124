import { Global, Injectable, Logger, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, QueryResult, Repository } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Pool } from 'pg';

/**
 * The one way to the database for repositories, and the one transaction helper for services
 * (vendure's TransactionalConnection): `tx.run(() => …)` opens a transaction held in an
 * AsyncLocalStorage, and every repository call made inside it, however deep, joins it through
 * `tx.repo(Entity)` / `tx.rows()` / `tx.exec()`. Outside `run` they use the pool. A nested `run` joins the outer one.
 */
/** The transaction running in an async context: its manager, and what waits for its commit. */
interface TransactionContext {
  em: EntityManager;
  afterCommit: Array<() => void>;
}

@Injectable()
export class TransactionHost {
  private readonly current = new AsyncLocalStorage<TransactionContext>();
  private readonly logger = new Logger('database');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The manager of the transaction running in this async context, else the pool's. */
  get manager(): EntityManager {
    return this.current.getStore()?.em ?? this.dataSource.manager;
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  repo<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.manager.getRepository(entity);
  }

  /**
   * Raw SQL for its rows: SELECT, or INSERT, UPDATE or DELETE … RETURNING. Always the rows, whatever the verb
   * (an array, empty when nothing matched or the statement returns none).
   */
  async rows<T extends object>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.execute(sql, params)).rows as T[];
  }

  /**
   * Raw SQL for its effect: how many rows it touched (PostgreSQL's count for INSERT, UPDATE, DELETE, SELECT,
   * MERGE, COPY; 0 for a statement that reports none, such as SET or LOCK).
   */
  async exec(sql: string, params: readonly unknown[] = []): Promise<{ rowCount: number }> {
    return { rowCount: (await this.execute(sql, params)).rowCount };
  }

  /**
   * In a transaction, on its connection (TypeORM's query runner, asked for its structured result: the rows and
   * the count, never its per-verb `[rows, count]`). Outside one, straight to the pool (node-postgres): TypeORM's
   * query runner per statement (an object graph per call, its release, its result wrapping) was a tenth of the
   * throughput of the agents list (docs/performance.md). Errors are node-postgres's own (a DatabaseError with its
   * SQLSTATE in `code`) outside a transaction and TypeORM's QueryFailedError around it inside one; the error
   * surfaces read both.
   */
  private async execute(sql: string, params: readonly unknown[]): Promise<{ rows: unknown[]; rowCount: number }> {
    const em = this.current.getStore()?.em;
    if (em) {
      // (dataSource.transaction's manager is bound to the transaction's query runner.)
      const result: QueryResult = await em.queryRunner!.query(sql, params as unknown[], true);
      return { rows: result.records, rowCount: result.affected ?? 0 };
    }
    const result = await this.pool.query(sql, params as unknown[]);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  /** node-postgres's pool, which TypeORM's Postgres driver made and owns (same size, same acquire time-out). */
  private get pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  async run<T>(work: () => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    if (this.current.getStore()) return work();
    const afterCommit: Array<() => void> = [];
    const inTx = (em: EntityManager): Promise<T> => this.current.run({ em, afterCommit }, work);
    const result = await (isolation ? this.dataSource.transaction(isolation, inTx) : this.dataSource.transaction(inTx));
    for (const fn of afterCommit) {
      try {
        fn();
      } catch (err) {
        this.logger.error(`after-commit work failed: ${(err as Error).message}`);
      }
    }
    return result;
  }

  /**
   * Runs `fn` once the transaction of this async context has committed, in the order given (never when it rolls
   * back); at once outside a transaction. For announcing a change (an event) that a nested service call makes
   * inside a caller's transaction: nobody hears of it before it is there to be read.
   */
  afterCommit(fn: () => void): void {
    const context = this.current.getStore();
    if (context) context.afterCommit.push(fn);
    else fn();
  }
}

/** Provides TransactionHost everywhere (one per DataSource, so one per app). */
@Global()
@Module({ providers: [TransactionHost], exports: [TransactionHost] })
export class TransactionModule {}
