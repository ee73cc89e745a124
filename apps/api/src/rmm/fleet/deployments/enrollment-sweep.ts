import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { Jobs } from '../../../common/jobs/jobs';
import { DeploymentsRepository } from './deployments.repository';

/** How often enrollment log rows of deployments that expired unused are marked `expired`. */
export const ENROLLMENT_SWEEP_INTERVAL_MS = 60_000;

/**
 * The periodic sweep of the enrollment log (the cluster-once job `enrollment.sweep`): a row still `pending` when its
 * deployment expires becomes `expired`. One idempotent UPDATE, so two runs at once (a lead moving) change each row once.
 */
@Injectable()
export class EnrollmentSweep {
  constructor(
    private readonly deployments: DeploymentsRepository,
    private readonly clock: Clock,
    jobs: Jobs,
  ) {
    jobs.every('enrollment.sweep', { seconds: ENROLLMENT_SWEEP_INTERVAL_MS / 1000, mode: 'cluster-once' }, () => this.run());
  }

  /** Runs the sweep now; returns how many rows it marked expired. */
  run(): Promise<number> {
    return this.deployments.expirePendingEnrollments(this.clock.now());
  }
}
