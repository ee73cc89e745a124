import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RmmEvents } from '../../common/bus/rmm-events';
import { PolicyCatalog } from './policy-catalog';
import { PolicyFacts } from './policy-merge';

/**
 * The policy catalog held in memory: the effective policy of one agent reads it on every request, and reading 200
 * policies with their items is a statement of its own that the 20 ms target has no room for. Dropped on every
 * `policies.changed` (every instance hears it, the emitter included) and, on the instance that made the change, at
 * its commit. A load that a change overtook is not kept (the generation moved on).
 */
@Injectable()
export class PolicyCatalogCache implements OnModuleInit, OnModuleDestroy {
  private cached: Promise<PolicyFacts[]> | null = null;
  private generation = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly catalog: PolicyCatalog,
    private readonly events: RmmEvents,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.events.on('policies.changed', () => this.invalidate());
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  all(): Promise<PolicyFacts[]> {
    if (this.cached) return this.cached;
    const generation = this.generation;
    const load = this.catalog.all();
    this.cached = load;
    load.then(
      () => {
        if (this.generation !== generation && this.cached === load) this.cached = null;
      },
      () => {
        if (this.cached === load) this.cached = null;
      },
    );
    return load;
  }

  invalidate(): void {
    this.generation++;
    this.cached = null;
  }
}
