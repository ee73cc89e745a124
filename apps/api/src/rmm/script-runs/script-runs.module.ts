import { Module } from '@nestjs/common';
import { ScriptRunsRepository } from './script-runs.repository';
import { ScriptRunsService } from './script-runs.service';

/** Stored script runs (runscript, and later tasks). */
@Module({
  providers: [ScriptRunsRepository, ScriptRunsService],
  exports: [ScriptRunsService],
})
export class ScriptRunsModule {}
