import { Module } from '@nestjs/common';
import { ScriptRunsModule } from '../../automation/script-runs/script-runs.module';
import { ScriptsModule } from '../../automation/scripts/scripts.module';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  imports: [ScriptsModule, ScriptRunsModule],
  controllers: [AgentsController],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsService, AgentsRepository],
})
export class AgentsModule {}
