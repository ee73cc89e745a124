import { Global, Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Pool } from 'pg';

/**
 * The one way to the database for repositories, and the one transaction helper for services
 * (vendure's TransactionalConnection): `tx.run(() => …)` opens a transaction held in an
 * AsyncLocalStorage, and every repository call made inside it, however deep, joins it through
 * `tx.repo(Entity)` / `tx.query()`. Outside `run` they use the pool. A nested `run` joins the outer one.
 */
@Injectable()
export class TransactionHost {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The manager of the transaction running in this async context, else the pool's. */
  get manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  repo<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.manager.getRepository(entity);
  }

  /**
   * Raw SQL. In a transaction, on its connection. Outside one, straight to the pool (node-postgres), with the
   * result shaped as TypeORM's `query` shapes it (UPDATE and DELETE: `[rows, rowCount]`; anything else: rows):
   * TypeORM's query runner per statement (an object graph per call, its release, its result wrapping) was a
   * tenth of the throughput of the agents list (docs/performance.md). Errors are node-postgres's own (a
   * DatabaseError with its SQLSTATE in `code`), which the error surfaces read like TypeORM's `driverError`.
   */
  query<T = any>(sql: string, params: unknown[] = []): Promise<T> {
    const em = this.current.getStore();
    if (em) return em.query(sql, params);
    return this.pool.query(sql, params).then((r) => (r.command === 'UPDATE' || r.command === 'DELETE' ? [r.rows, r.rowCount] : r.rows) as T);
  }

  /** node-postgres's pool, which TypeORM's Postgres driver made and owns (same size, same acquire time-out). */
  private get pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  run<T>(work: () => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    if (this.current.getStore()) return work();
    const inTx = (em: EntityManager): Promise<T> => this.current.run(em, work);
    return isolation ? this.dataSource.transaction(isolation, inTx) : this.dataSource.transaction(inTx);
  }
}

/** Provides TransactionHost everywhere (one per DataSource, so one per app). */
@Global()
@Module({ providers: [TransactionHost], exports: [TransactionHost] })
export class TransactionModule {}
