import { Module } from '@nestjs/common';
import { SystemController } from './system.controller';

/** GET /api/v3/system/jobs/: the job registry (jobs/, the ground's) as the management API shows it. */
@Module({ controllers: [SystemController] })
export class SystemModule {}
