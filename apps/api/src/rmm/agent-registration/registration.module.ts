import { Module } from '@nestjs/common';
import { DeploymentsModule } from '../deployments/deployments.module';
import { RegistrationController } from './registration.controller';
import { RegistrationRepository } from './registration.repository';
import { RegistrationService } from './registration.service';

/** Devices becoming agents: POST /agent/v1/register. */
@Module({
  imports: [DeploymentsModule],
  controllers: [RegistrationController],
  providers: [RegistrationRepository, RegistrationService],
})
export class RegistrationModule {}
