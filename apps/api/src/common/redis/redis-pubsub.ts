import { Injectable, Logger, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { DomainError, CommonErrorCode } from '../errors/domain-error';
import { ThisInstance } from '../instance';
import { RedisConnections } from './redis-connections';
import { RedisSettings } from './redis-settings';

/** The clear error of a Redis that does not answer (503): several-instance operations cannot proceed without it. */
export const busUnavailable = (): DomainError => new DomainError(CommonErrorCode.Unavailable, 'the message bus (Redis) is not available, retry shortly');

/**
 * Redis pub/sub for the several-instance implementations (RedisRmmEvents, RedisAgentChannel): one publisher
 * connection (so what one instance publishes arrives everywhere in the order it was published), one subscriber
 * connection (Redis reserves a subscribed connection for pub/sub), this instance's id, and the key prefix
 * (REDIS_PREFIX) every key and channel starts with. Connections are made on first use; ioredis reconnects by
 * itself, and the channels are subscribed again each time the subscriber is ready.
 */
@Injectable()
export class RedisPubSub {
  /** This instance, as the ownership records and the command channels name it (ThisInstance: the job registry's too). */
  readonly instanceId: string;
  private readonly logger = new Logger('redis');
  private publisher?: Redis;
  private subscriber?: Redis;
  private readonly handlers = new Map<string, (message: string) => void>();
  /** Channels whose SUBSCRIBE Redis confirmed on the subscriber's current connection. */
  private readonly subscribed = new Set<string>();

  constructor(
    private readonly redis: RedisConnections,
    private readonly config: RedisSettings,
    // (optional: a unit test that builds one by hand gets an id of its own)
    @Optional() instance?: ThisInstance,
  ) {
    this.instanceId = instance?.id ?? randomUUID();
  }

  /** `name` under this deployment's prefix. */
  key(name: string): string {
    return `${this.config.redisPrefix}${name}`;
  }

  /** The connection for ordinary commands (GET/SET, scripts). */
  commands(): Redis {
    return this.redis.shared();
  }

  /** Publishes on `channel` (already prefixed); resolves to the number of instances subscribed to it. */
  publish(channel: string, message: string): Promise<number> {
    this.publisher ??= this.redis.connect('publisher');
    return this.publisher.publish(channel, message);
  }

  /** Delivers every message of `channel` (already prefixed) to `handler`, from now on (one handler per channel). */
  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    if (this.handlers.has(channel)) throw new Error(`${channel} already has a subscriber`);
    this.handlers.set(channel, handler);
    if (!this.subscriber) {
      const sub = this.redis.connect('subscriber', { autoResubscribe: false });
      this.subscriber = sub;
      sub.on('message', (ch: string, message: string) => {
        try {
          this.handlers.get(ch)?.(message);
        } catch (err) {
          this.logger.error(`handler of ${ch} failed: ${(err as Error).message}`);
        }
      });
      // On every (re)connection, every channel, whether or not its first SUBSCRIBE got through (Redis down at
      // start); subscribing again to a subscribed channel changes nothing.
      sub.on('ready', () => {
        if (this.handlers.size === 0) return;
        const channels = [...this.handlers.keys()];
        void sub
          .subscribe(...channels)
          .then(() => channels.forEach((ch) => this.handlers.has(ch) && this.subscribed.add(ch)))
          .catch((err: Error) => this.logger.warn(`subscriptions not renewed: ${err.message}`));
      });
      // A lost connection loses its subscriptions: until they are renewed, publishers deliver their own messages.
      sub.on('close', () => this.subscribed.clear());
    }
    try {
      await this.subscriber.subscribe(channel);
      if (this.handlers.has(channel)) this.subscribed.add(channel);
    } catch (err) {
      // Redis down at start: the subscription is made when it answers (the 'ready' above).
      this.logger.warn(`${channel} not subscribed yet: ${(err as Error).message}`);
    }
  }

  /**
   * Whether `channel` has a handler here whose subscription Redis has not confirmed (Redis down at start, or the
   * subscriber reconnecting while the publisher already answers): what this instance publishes meanwhile does not
   * come back to it. (A channel unsubscribed on purpose is not waiting.)
   */
  awaitsSubscription(channel: string): boolean {
    return this.handlers.has(channel) && !this.subscribed.has(channel);
  }

  /**
   * Stops delivering `channel` to this instance (its handler removed, the channel unsubscribed). Used by the
   * tests that prove the once-only effects do not depend on an event coming back through Redis.
   */
  async unsubscribe(channel: string): Promise<void> {
    this.handlers.delete(channel);
    this.subscribed.delete(channel);
    await this.subscriber?.unsubscribe(channel).catch((err: Error) => this.logger.warn(`${channel} not unsubscribed: ${err.message}`));
  }
}
