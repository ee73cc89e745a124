import { Global, Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';

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

  query<T = any>(sql: string, params: unknown[] = []): Promise<T> {
    return this.manager.query(sql, params);
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
