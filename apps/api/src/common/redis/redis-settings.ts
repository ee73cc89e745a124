/**
 * What the Redis connections need of the configuration (REDIS_URL, REDIS_PREFIX): a port, so that common/ stays
 * below config/. ConfigModule provides it with RuntimeConfig.
 */
export abstract class RedisSettings {
  /** REDIS_URL; undefined: one instance, no Redis. */
  abstract readonly redisUrl?: string;
  /** REDIS_PREFIX: every key and channel starts with it. */
  abstract readonly redisPrefix: string;
}
