import { Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { ScriptRunsModule } from '../script-runs/script-runs.module';
import { AgentReconnection } from './agent-reconnection';
import { TaskRunsRepository } from './task-runs.repository';
import { TaskScheduler } from './task-scheduler';
import { TasksController } from './tasks.controller';
import { TasksRepository } from './tasks.repository';
import { TasksService } from './tasks.service';

/** Scheduled tasks: the REST API, their runs, and the scheduler that fires them (task-scheduler.ts). */
@Module({
  imports: [AlertsModule, ScriptRunsModule],
  controllers: [TasksController],
  providers: [TasksRepository, TaskRunsRepository, TasksService, TaskScheduler, AgentReconnection],
})
export class TasksModule {}
