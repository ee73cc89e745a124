import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { JobRegistry } from '../../../jobs/job-registry';
import { RequireScope } from '../../common/scopes';
import { RmmController } from '../../common/rmm-controller';
import { SystemJobDto, toSystemJobDto } from './system.dto';

/** The server about itself: its periodic jobs on every instance. Admin keys only. */
@RmmController('system', 'system')
export class SystemController {
  constructor(private readonly registry: JobRegistry) {}

  @Get('jobs')
  @RequireScope('admin')
  @ApiOperation({
    summary:
      'The periodic jobs of every instance heard from in the last 30 s: one entry per job and instance, by name then instance, with its mode, interval, state (degraded after 3 failures in a row), runs, failures and last run. Scope: admin',
  })
  @ApiOkResponse({ type: [SystemJobDto] })
  async listJobs(): Promise<SystemJobDto[]> {
    return (await this.registry.everywhere()).map(toSystemJobDto);
  }
}
