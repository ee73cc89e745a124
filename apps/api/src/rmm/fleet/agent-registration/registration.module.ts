import { Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { DeploymentsModule } from '../deployments/deployments.module';
import { AgentBundleController } from './agent-bundle.controller';
import { RegistrationController } from './registration.controller';
import { RegistrationRepository } from './registration.repository';
import { RegistrationService } from './registration.service';

/** Devices becoming agents: POST /agent/v1/register, and GET /agent/v1/rmm-agent.js (the agent the installers fetch). */
@Module({
  imports: [DeploymentsModule, AlertsModule],
  controllers: [RegistrationController, AgentBundleController],
  providers: [RegistrationRepository, RegistrationService],
})
export class RegistrationModule {}
