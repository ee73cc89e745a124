import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentEntity, ScriptEntity, TaskEntity } from '@app/entities';
import { TasksController } from './tasks.controller';
import { TasksRepository } from './tasks.repository';
import { TasksService } from './tasks.service';

@Module({
  imports: [TypeOrmModule.forFeature([TaskEntity, AgentEntity, ScriptEntity])],
  controllers: [TasksController],
  providers: [TasksRepository, TasksService],
})
export class TasksModule {}
