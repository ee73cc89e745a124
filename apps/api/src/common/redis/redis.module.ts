import { Global, Module } from '@nestjs/common';
import { RedisConnections } from './redis-connections';
import { RedisPubSub } from './redis-pubsub';

export { RedisConnections } from './redis-connections';

/** Redis, when REDIS_URL is set: the connections (rate limits) and pub/sub (several instances). */
@Global()
@Module({ providers: [RedisConnections, RedisPubSub], exports: [RedisConnections, RedisPubSub] })
export class RedisModule {}
