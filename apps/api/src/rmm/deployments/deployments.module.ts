import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { DeploymentsController } from './deployments.controller';
import { DeploymentsRepository } from './deployments.repository';
import { DeploymentsService } from './deployments.service';
import { DownloadController } from './download.controller';

@Module({
  imports: [ClientsModule],
  controllers: [DeploymentsController, DownloadController],
  providers: [DeploymentsRepository, DeploymentsService],
  exports: [DeploymentsService, DeploymentsRepository],
})
export class DeploymentsModule {}
