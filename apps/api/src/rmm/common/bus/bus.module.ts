import { Global, Module } from '@nestjs/common';
import { RedisConnections } from '../../../common/redis/redis.module';
import { RedisPubSub } from '../../../common/redis/redis-pubsub';
import { TransactionHost } from '../../../database/transaction-host';
import { RedisRmmEvents } from './redis-rmm-events';
import { LocalRmmEvents, RmmEvents } from './rmm-events';

/**
 * The event bus every area announces on (RmmEvents, rmm-events.ts): in-process without REDIS_URL, fanned out to
 * every instance over Redis with it (built on the same local one); inside a transaction, at its commit. In the ground, so that any area may announce
 * and any may listen without importing each other.
 */
@Global()
@Module({
  providers: [
    LocalRmmEvents,
    {
      provide: RmmEvents,
      inject: [RedisConnections, LocalRmmEvents, RedisPubSub, TransactionHost],
      useFactory: (redis: RedisConnections, local: LocalRmmEvents, bus: RedisPubSub, commits: TransactionHost): RmmEvents =>
        redis.enabled ? new RedisRmmEvents(local, bus, commits) : local,
    },
  ],
  exports: [RmmEvents, LocalRmmEvents],
})
export class RmmBusModule {}
