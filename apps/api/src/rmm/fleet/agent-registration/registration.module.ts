import { Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { DeploymentsModule } from '../deployments/deployments.module';
import { AgentBundleController } from './agent-bundle.controller';
import { ReenrollController } from './reenroll.controller';
import { RegistrationController } from './registration.controller';
import { RegistrationRepository } from './registration.repository';
import { RegistrationService } from './registration.service';

/**
 * Devices becoming agents: POST /agent/v1/register, GET /agent/v1/rmm-agent.js (the agent the installers fetch), and
 * the operator's POST /api/v3/agents/{id}/reenroll/.
 */
@Module({
  imports: [DeploymentsModule, AlertsModule],
  controllers: [RegistrationController, AgentBundleController, ReenrollController],
  providers: [RegistrationRepository, RegistrationService],
})
export class RegistrationModule {}
