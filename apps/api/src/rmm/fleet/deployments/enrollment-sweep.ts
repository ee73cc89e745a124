import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { DeploymentsRepository } from './deployments.repository';

/** How often enrollment log rows of deployments that expired unused are marked `expired`. */
export const ENROLLMENT_SWEEP_INTERVAL_MS = 60_000;

/**
 * The periodic sweep of the enrollment log: a row still `pending` when its deployment expires becomes
 * `expired`. One idempotent UPDATE, so several instances running it at once change each row once.
 */
@Injectable()
export class EnrollmentSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('enrollment-sweep');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly deployments: DeploymentsRepository,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run().catch((err: Error) => this.logger.warn(`sweep failed: ${err.message}`)), ENROLLMENT_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Runs the sweep now; returns how many rows it marked expired. */
  run(): Promise<number> {
    return this.deployments.expirePendingEnrollments(this.clock.now());
  }
}
