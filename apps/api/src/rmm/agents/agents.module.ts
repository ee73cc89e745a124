import { Module } from '@nestjs/common';
import { ScriptsModule } from '../scripts/scripts.module';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  imports: [ScriptsModule],
  controllers: [AgentsController],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsService, AgentsRepository],
})
export class AgentsModule {}
