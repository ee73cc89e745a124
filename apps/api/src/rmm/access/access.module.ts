import { ExecutionContext, Global, Module } from '@nestjs/common';
import { ThrottlerModule, ThrottlerStorage } from '@nestjs/throttler';
import { RedisConnections } from '../../common/redis/redis.module';
import { RuntimeConfig } from '../../config/runtime-config';
import { ApiKeyUsage } from './api-keys/api-key-usage';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { OperatorsModule } from './operators/operators.module';
import { PasskeysModule } from './passkeys/passkeys.module';
import { PrincipalResolver } from './operators/principal-resolver';
import { SsoModule } from './sso/sso.module';
import { Callers, KeyUses } from '../common/callers';
import { ApiKeyGuard } from '../common/api-key.guard';
import { MemoryThrottlerStorage, RedisThrottlerStorage } from '../common/redis-throttler.storage';
import { bucketKey, keyTracker, limitByKey, RmmThrottlerGuard } from '../common/rmm-throttler.guard';
import { DEPLOYMENT_CREATION_KEY } from '../common/scopes';
import { UpgradeCallers } from '../common/upgrade-callers';

const MINUTE_MS = 60_000;
export const RMM_THROTTLER_STORAGE = Symbol('RMM_THROTTLER_STORAGE');

const countsAsDeployment = (ctx: ExecutionContext): boolean => Reflect.getMetadata(DEPLOYMENT_CREATION_KEY, ctx.getHandler()) === true;

/**
 * What every /api/v3 controller needs: the key guard and the rate limits. The guards sit in the ground (rmm/common),
 * below every feature; this module gives them who the callers are (Callers: API keys and console sessions) and
 * where key use is noted (KeyUses), from access/. Two throttlers share one bucket
 * per key across all endpoints: `default` (RMM_RATE_LIMIT_PER_MINUTE, 100) on every request, `deployments`
 * (RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE, 20) only on deployment creation. The enrollment function's own key
 * (RMM_API_KEY) creates deployments for every user of every tenant, each limited by the function itself
 * (ENROLL_RATE_LIMIT_PER_USER_PER_MINUTE): both its budgets are RMM_FUNCTION_KEY_RATE_LIMIT_PER_MINUTE, so that
 * no single user can spend them for all. Counters live in Redis when REDIS_URL is set, else in memory.
 */
@Global()
@Module({
  imports: [
    ApiKeysModule,
    OperatorsModule,
    PasskeysModule,
    SsoModule,
    ThrottlerModule.forRootAsync({
      inject: [RuntimeConfig, RMM_THROTTLER_STORAGE],
      useFactory: (config: RuntimeConfig, storage: ThrottlerStorage) => {
        const functionKey = (): string => config.rmmApiKey;
        const functionKeyLimit = (): number => config.functionKeyRateLimitPerMinute;
        return {
          throttlers: [
            { name: 'default', ttl: MINUTE_MS, limit: limitByKey(functionKey, () => config.rateLimitPerMinute, functionKeyLimit) },
            {
              name: 'deployments',
              ttl: MINUTE_MS,
              limit: limitByKey(functionKey, () => config.deploymentRateLimitPerMinute, functionKeyLimit),
              skipIf: (ctx: ExecutionContext) => !countsAsDeployment(ctx),
            },
          ],
          getTracker: keyTracker,
          generateKey: bucketKey,
          storage,
        };
      },
    }),
  ],
  providers: [ApiKeyGuard, RmmThrottlerGuard, UpgradeCallers, { provide: Callers, useExisting: PrincipalResolver }, { provide: KeyUses, useExisting: ApiKeyUsage }],
  exports: [ApiKeysModule, OperatorsModule, ApiKeyGuard, RmmThrottlerGuard, UpgradeCallers, Callers, KeyUses],
})
export class AccessModule {}

/** Provided globally (ThrottlerModule's factory needs it before AccessModule's own providers exist). */
@Global()
@Module({
  providers: [
    {
      provide: RMM_THROTTLER_STORAGE,
      inject: [RedisConnections],
      useFactory: (redis: RedisConnections): ThrottlerStorage =>
        redis.enabled ? new RedisThrottlerStorage(redis.shared()) : new MemoryThrottlerStorage(),
    },
  ],
  exports: [RMM_THROTTLER_STORAGE],
})
export class RmmThrottlerStorageModule {}
