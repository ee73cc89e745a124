import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentEntity, CheckEntity, ScriptEntity } from '@app/entities';
import { ChecksController } from './checks.controller';
import { ChecksRepository } from './checks.repository';
import { ChecksService } from './checks.service';

@Module({
  imports: [TypeOrmModule.forFeature([CheckEntity, AgentEntity, ScriptEntity])],
  controllers: [ChecksController],
  providers: [ChecksRepository, ChecksService],
})
export class ChecksModule {}
