import { Injectable, Logger, Optional } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { TransactionHost } from '../../../database/transaction-host';
import type { RmmEventHandler, RmmEventMap, RmmEventName, RmmEventOptions } from './event-map';

export type { RmmEventHandler, RmmEventMap, RmmEventName, RmmEventOptions };

/**
 * The typed event bus. One instance: in-process (LocalRmmEvents); several (REDIS_URL): RedisRmmEvents fans
 * every event out to every instance, the emitter included, in the order each instance emitted them.
 *
 * An event is announced once what it tells of is there to be read: `emit` inside a transaction (TransactionHost.run,
 * however deep the call) waits for the commit and is dropped when the transaction rolls back; outside one it goes
 * at once. So nobody hears of a change that could still be undone, whichever caller wraps the emitter in a
 * transaction later (vendure's event bus does the same).
 */
export abstract class RmmEvents {
  constructor(private readonly commits?: TransactionHost) {}

  /** Announces `event` now, or at the commit of the transaction this call runs in (never if it rolls back). */
  emit<K extends RmmEventName>(event: K, data: RmmEventMap[K]): void {
    if (this.commits?.inTransaction) this.commits.afterCommit(() => this.publish(event, data));
    else this.publish(event, data);
  }

  /** Delivers `event` (to this instance's handlers; with Redis, to every instance's). */
  protected abstract publish<K extends RmmEventName>(event: K, data: RmmEventMap[K]): void;

  /** Subscribes; returns the function that unsubscribes. */
  abstract on<K extends RmmEventName>(event: K, handler: RmmEventHandler<K>, options?: RmmEventOptions): () => void;
}

/**
 * One instance: a Node EventEmitter (every event is local). A handler that throws is logged and never reaches
 * the publisher. RedisRmmEvents delivers through `deliver` with `local` false for other instances' events.
 */
@Injectable()
export class LocalRmmEvents extends RmmEvents {
  private readonly emitter = new EventEmitter({ captureRejections: false });
  private readonly logger = new Logger('events');

  constructor(@Optional() commits?: TransactionHost) {
    super(commits);
    this.emitter.setMaxListeners(0);
  }

  protected publish<K extends RmmEventName>(event: K, data: RmmEventMap[K]): void {
    this.deliver(event, data, true);
  }

  /** Runs this instance's handlers of `event` (`local`: emitted by this instance). */
  deliver<K extends RmmEventName>(event: K, data: RmmEventMap[K], local: boolean): void {
    this.emitter.emit(event, data, local);
  }

  on<K extends RmmEventName>(event: K, handler: RmmEventHandler<K>, options: RmmEventOptions = {}): () => void {
    const onlyLocal = options.local === true;
    const safe = (data: RmmEventMap[K], local: boolean): void => {
      if (onlyLocal && !local) return;
      try {
        handler(data);
      } catch (err) {
        this.logger.error(`handler of ${event} failed: ${(err as Error).message}`);
      }
    };
    this.emitter.on(event, safe);
    return () => this.emitter.off(event, safe);
  }
}
