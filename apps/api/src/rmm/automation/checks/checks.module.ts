import { Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { ScriptsModule } from '../scripts/scripts.module';
import { CheckResults } from './check-results';
import { CheckSync } from './check-sync';
import { ChecksController } from './checks.controller';
import { ChecksRepository } from './checks.repository';
import { ChecksService } from './checks.service';

/** Checks: the REST API, the agents' lists (CheckSync: checks.sync) and their results (CheckResults: check.result). */
@Module({
  imports: [AlertsModule, ScriptsModule],
  controllers: [ChecksController],
  providers: [ChecksRepository, ChecksService, CheckSync, CheckResults],
  exports: [CheckResults, CheckSync],
})
export class ChecksModule {}
