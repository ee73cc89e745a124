import { Module } from '@nestjs/common';
import { RunQueue } from './run-queue';
import { ScriptRunsRepository } from './script-runs.repository';
import { ScriptRunsService } from './script-runs.service';

/** Stored script runs (runscript, tasks), and the queue of runs waiting for offline agents (run-queue.ts). */
@Module({
  providers: [ScriptRunsRepository, ScriptRunsService, RunQueue],
  exports: [ScriptRunsService],
})
export class ScriptRunsModule {}
