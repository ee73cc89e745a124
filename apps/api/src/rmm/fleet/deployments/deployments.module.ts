import { Module } from '@nestjs/common';
import { AgentBinariesModule } from '../agent-binaries/agent-binaries.module';
import { ClientsModule } from '../../tenancy/clients/clients.module';
import { DeploymentsController } from './deployments.controller';
import { DeploymentsRepository } from './deployments.repository';
import { DeploymentsService } from './deployments.service';
import { DownloadController } from './download.controller';
import { EnrollmentSweep } from './enrollment-sweep';

@Module({
  imports: [ClientsModule, AgentBinariesModule],
  controllers: [DeploymentsController, DownloadController],
  providers: [DeploymentsRepository, DeploymentsService, EnrollmentSweep],
  exports: [DeploymentsService, DeploymentsRepository, EnrollmentSweep],
})
export class DeploymentsModule {}
