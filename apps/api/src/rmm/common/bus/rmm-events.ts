import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { RmmEventHandler, RmmEventMap, RmmEventName, RmmEventOptions } from './event-map';

export type { RmmEventHandler, RmmEventMap, RmmEventName, RmmEventOptions };

/**
 * The typed event bus. One instance: in-process (LocalRmmEvents); several (REDIS_URL): RedisRmmEvents fans
 * every event out to every instance, the emitter included, in the order each instance emitted them.
 */
export abstract class RmmEvents {
  abstract emit<K extends RmmEventName>(event: K, data: RmmEventMap[K]): void;
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

  constructor() {
    super();
    this.emitter.setMaxListeners(0);
  }

  emit<K extends RmmEventName>(event: K, data: RmmEventMap[K]): void {
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
