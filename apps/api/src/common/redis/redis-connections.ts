import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { redactUrl } from '../values';
import { RedisSettings } from './redis-settings';

/**
 * The one place Redis connections are made (REDIS_URL). `enabled` is false without REDIS_URL: callers then
 * use their single-instance implementation. `shared()` is the connection for commands (rate-limit counters,
 * publishing); `connect(name)` opens a dedicated one (a subscriber, which Redis reserves for pub/sub).
 * Every connection is closed at shutdown.
 */
@Injectable()
export class RedisConnections implements OnApplicationShutdown {
  private readonly logger = new Logger('redis');
  private readonly open: Redis[] = [];
  private sharedConnection?: Redis;

  constructor(private readonly config: RedisSettings) {}

  get enabled(): boolean {
    return this.config.redisUrl !== undefined;
  }

  shared(): Redis {
    this.sharedConnection ??= this.connect('shared');
    return this.sharedConnection;
  }

  connect(name: string, options: RedisOptions = {}): Redis {
    const url = this.config.redisUrl;
    if (!url) throw new Error('REDIS_URL is not set');
    // Fail fast rather than queue for ever: a command waits at most one retry and one second.
    // Connects on first use (a CLI context that never counts a request never connects).
    const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000, lazyConnect: true, connectionName: `rmm-${name}`, ...options });
    let warned = 0;
    redis.on('error', (err: Error) => {
      // ioredis reconnects by itself; say so at most once a minute per connection.
      if (Date.now() - warned > 60_000) {
        warned = Date.now();
        this.logger.warn(`${name} connection to ${redactUrl(url)}: ${err.message}`);
      }
    });
    this.open.push(redis);
    return redis;
  }

  async onApplicationShutdown(): Promise<void> {
    // A connection that is not up (Redis down: ioredis retrying) is dropped at once, its reconnection stopped.
    await Promise.all(this.open.map(async (r) => (r.status === 'ready' ? r.quit().then(() => undefined, () => r.disconnect()) : r.disconnect())));
    this.open.length = 0;
    this.sharedConnection = undefined;
  }
}
