import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { ExecutionContext } from '@nestjs/common';
import { ThrottlerModule, ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageService } from '@nestjs/throttler';
import Redis from 'ioredis';
import { RuntimeConfig } from '../../config/runtime-config';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { ApiKeyGuard } from './api-key.guard';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { bucketKey, keyTracker, RmmThrottlerGuard } from './rmm-throttler.guard';
import { DEPLOYMENT_CREATION_KEY } from './scopes';

const MINUTE_MS = 60_000;
export const RMM_THROTTLER_STORAGE = Symbol('RMM_THROTTLER_STORAGE');

const countsAsDeployment = (ctx: ExecutionContext): boolean => Reflect.getMetadata(DEPLOYMENT_CREATION_KEY, ctx.getHandler()) === true;

/** Closes the Redis connection of the rate limiter at shutdown. */
@Injectable()
class ThrottlerStorageCloser implements OnApplicationShutdown {
  constructor(@Inject(RMM_THROTTLER_STORAGE) private readonly storage: ThrottlerStorage) {}
  async onApplicationShutdown(): Promise<void> {
    if (this.storage instanceof RedisThrottlerStorage) await this.storage.close();
  }
}

/**
 * What every /api/v3 controller needs: the key guard and the rate limits. Two throttlers share one bucket
 * per key across all endpoints: `default` (RMM_RATE_LIMIT_PER_MINUTE, 100) on every request, `deployments`
 * (RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE, 20) only on deployment creation. Counters live in Redis when
 * REDIS_URL is set, else in memory.
 */
@Global()
@Module({
  imports: [
    ApiKeysModule,
    ThrottlerModule.forRootAsync({
      inject: [RuntimeConfig, RMM_THROTTLER_STORAGE],
      useFactory: (config: RuntimeConfig, storage: ThrottlerStorage) => ({
        throttlers: [
          { name: 'default', ttl: MINUTE_MS, limit: config.rateLimitPerMinute },
          { name: 'deployments', ttl: MINUTE_MS, limit: config.deploymentRateLimitPerMinute, skipIf: (ctx) => !countsAsDeployment(ctx) },
        ],
        getTracker: keyTracker,
        generateKey: bucketKey,
        storage,
      }),
    }),
  ],
  providers: [ApiKeyGuard, RmmThrottlerGuard, ThrottlerStorageCloser],
  exports: [ApiKeysModule, ApiKeyGuard, RmmThrottlerGuard],
})
export class RmmCoreModule {}

/** Provided globally (ThrottlerModule's factory needs it before RmmCoreModule's own providers exist). */
@Global()
@Module({
  providers: [
    {
      provide: RMM_THROTTLER_STORAGE,
      inject: [RuntimeConfig],
      useFactory: (config: RuntimeConfig): ThrottlerStorage =>
        config.redisUrl
          ? new RedisThrottlerStorage(new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1000, lazyConnect: false }))
          : new ThrottlerStorageService(),
    },
  ],
  exports: [RMM_THROTTLER_STORAGE],
})
export class RmmThrottlerStorageModule {}
