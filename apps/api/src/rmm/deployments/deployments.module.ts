import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeploymentDownloadEntity, DeploymentEntity } from '@app/entities';
import { ClientsModule } from '../clients/clients.module';
import { DeploymentsController } from './deployments.controller';
import { DeploymentsRepository } from './deployments.repository';
import { DeploymentsService } from './deployments.service';
import { DownloadController } from './download.controller';

@Module({
  imports: [TypeOrmModule.forFeature([DeploymentEntity, DeploymentDownloadEntity]), ClientsModule],
  controllers: [DeploymentsController, DownloadController],
  providers: [DeploymentsRepository, DeploymentsService],
  exports: [DeploymentsService],
})
export class DeploymentsModule {}
