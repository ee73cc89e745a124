import { Module } from '@nestjs/common';
import { AgentsModule } from '../../fleet/agents/agents.module';
import { ScriptsModule } from '../scripts/scripts.module';
import { CustomFieldsModule } from '../../tenancy/custom-fields/custom-fields.module';
import { AgentRunsController } from './agent-runs.controller';
import { RunQueue } from './run-queue';
import { ScriptRunsRepository } from './script-runs.repository';
import { ScriptRunsService } from './script-runs.service';

/** Stored script runs (runscript under /api/v3/agents/{agent_id}/, tasks), and the queue of runs waiting for offline agents (run-queue.ts). */
@Module({
  imports: [AgentsModule, ScriptsModule, CustomFieldsModule],
  controllers: [AgentRunsController],
  providers: [ScriptRunsRepository, ScriptRunsService, RunQueue],
  exports: [ScriptRunsService],
})
export class ScriptRunsModule {}
