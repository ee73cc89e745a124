import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentEntity } from '@app/entities';
import { ScriptsModule } from '../scripts/scripts.module';
import { AgentConnections } from './agent-connections';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  imports: [TypeOrmModule.forFeature([AgentEntity]), ScriptsModule],
  controllers: [AgentsController],
  providers: [AgentsRepository, AgentsService, AgentConnections],
  exports: [AgentsService, AgentsRepository, AgentConnections],
})
export class AgentsModule {}
