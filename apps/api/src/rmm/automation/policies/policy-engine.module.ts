import { Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { ChecksModule } from '../checks/checks.module';
import { MaintenanceWindows } from './maintenance-windows';
import { OverridesController } from './overrides.controller';
import { OverridesRepository } from './overrides.repository';
import { OverridesService } from './overrides.service';
import { PolicyCatalog } from './policy-catalog';
import { PolicyEngine } from './policy-engine';
import { PolicyEngineRepository } from './policy-engine.repository';

/**
 * The policy engine (each agent's state rows of its policies' items, kept current on every change and by a periodic
 * reconcile), the policies' maintenance windows, and the agents' overrides API (docs/policies.md).
 */
@Module({
  imports: [AlertsModule, ChecksModule],
  controllers: [OverridesController],
  providers: [PolicyCatalog, PolicyEngineRepository, PolicyEngine, MaintenanceWindows, OverridesRepository, OverridesService],
  exports: [PolicyEngine],
})
export class PolicyEngineModule {}
