import { Module } from '@nestjs/common';
import { AuditModule } from '../../access/audit/audit.module';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  imports: [AuditModule],
  controllers: [AgentsController],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsService, AgentsRepository],
})
export class AgentsModule {}
