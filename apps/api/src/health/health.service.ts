import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobRegistry } from '../jobs/job-registry';
import { FdHeadroom, FdHeadroomState } from './fd-headroom';

@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly jobs: JobRegistry,
    private readonly files: FdHeadroom,
  ) {}

  /** While new agent connections are refused for lack of files (FdHeadroom): the figures; else undefined. */
  openFiles(): FdHeadroomState | undefined {
    return this.files.state();
  }

  /** The names of this instance's degraded periodic jobs (from memory: /readyz costs no query for them). */
  degradedJobs(): string[] {
    return this.jobs.degraded();
  }

  /** True when PostgreSQL answers a trivial query within two seconds. */
  async databaseUp(): Promise<boolean> {
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref());
    const probe = this.ds.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return Promise.race([probe, timeout]);
  }
}
