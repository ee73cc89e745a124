import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { RedisPubSub } from '../../../common/redis/redis-pubsub';
import { TransactionHost } from '../../../database/transaction-host';
import { LocalRmmEvents, RmmEventHandler, RmmEventMap, RmmEventName, RmmEventOptions, RmmEvents } from './rmm-events';

/** One event on the wire between instances: who emitted it, its name, its data. */
interface Envelope {
  o: string;
  e: RmmEventName;
  d: unknown;
  /** This instance's sequence number of the event (to recognise one it already delivered itself). */
  n?: number;
}

/**
 * Several instances (REDIS_URL): `emit` (at once, or at the commit: RmmEvents) publishes on one Redis channel (`<prefix>events`) through the one
 * publisher connection, and every instance, the emitter included, delivers what it receives to its local
 * handlers, flagged local when it emitted it itself (RmmEventOptions.local). Redis keeps the order of one
 * connection's publications, so each instance's events arrive everywhere in the order it emitted them.
 * Redis unreachable: the event is delivered to this instance's handlers only (logged), never lost here.
 * Redis reachable while this instance's subscription is not (yet) in place: delivered here at once, and not again
 * if the subscription is renewed in time for it to come back.
 */
@Injectable()
export class RedisRmmEvents extends RmmEvents implements OnModuleInit {
  private readonly logger = new Logger('events');
  private readonly channel: string;
  private warned = 0;
  private sequence = 0;
  /** Events published while this instance was not subscribed, delivered here at once: not delivered again if they come back. */
  private readonly deliveredEarly = new Set<number>();

  constructor(
    private readonly local: LocalRmmEvents,
    private readonly bus: RedisPubSub,
    commits?: TransactionHost,
  ) {
    super(commits);
    this.channel = bus.key('events');
  }

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(this.channel, (text) => this.receive(text));
  }

  protected publish<K extends RmmEventName>(event: K, data: RmmEventMap[K]): void {
    const envelope: Envelope = { o: this.bus.instanceId, e: event, d: data, n: ++this.sequence };
    if (this.bus.awaitsSubscription(this.channel)) {
      this.deliveredEarly.add(envelope.n!);
      if (this.deliveredEarly.size > 10_000) this.deliveredEarly.delete(this.deliveredEarly.values().next().value as number);
      this.local.deliver(event, data, true);
      this.bus.publish(this.channel, JSON.stringify(envelope)).catch(() => undefined);
      return;
    }
    this.bus.publish(this.channel, JSON.stringify(envelope)).catch((err: Error) => {
      if (Date.now() - this.warned > 60_000) {
        this.warned = Date.now();
        this.logger.warn(`events not fanned out (Redis: ${err.message}); delivered on this instance only`);
      }
      this.local.deliver(event, data, true);
    });
  }

  on<K extends RmmEventName>(event: K, handler: RmmEventHandler<K>, options?: RmmEventOptions): () => void {
    return this.local.on(event, handler, options);
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (typeof envelope?.e !== 'string' || typeof envelope.o !== 'string' || typeof envelope.d !== 'object' || envelope.d === null) return;
    const mine = envelope.o === this.bus.instanceId;
    if (mine && typeof envelope.n === 'number' && this.deliveredEarly.delete(envelope.n)) return;
    this.local.deliver(envelope.e, envelope.d as RmmEventMap[typeof envelope.e], mine);
  }
}
