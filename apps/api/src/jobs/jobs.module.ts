import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { InstanceModule } from '../common/instance';
import { Jobs } from '../common/jobs/jobs';
import { ClusterLeadership } from './cluster-leadership';
import { JobRegistry } from './job-registry';
import { JobStatesRepository } from './job-states.repository';

/**
 * The periodic-job registry (JobRegistry), provided as the ground's port Jobs to every module. Global: the rate
 * limiter (common/) and most features register loops.
 */
@Global()
@Module({
  imports: [ScheduleModule.forRoot(), InstanceModule],
  providers: [
    JobRegistry,
    JobStatesRepository,
    { provide: Jobs, useExisting: JobRegistry },
    // (its own connection, on the URL the pool uses)
    { provide: ClusterLeadership, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => new ClusterLeadership((ds.options as { url?: string }).url) },
  ],
  exports: [Jobs, JobRegistry],
})
export class JobsModule {}
