import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScriptEntity } from '@app/entities';
import { ScriptsController } from './scripts.controller';
import { ScriptsRepository } from './scripts.repository';
import { ScriptsService } from './scripts.service';

@Module({
  imports: [TypeOrmModule.forFeature([ScriptEntity])],
  controllers: [ScriptsController],
  providers: [ScriptsRepository, ScriptsService],
  exports: [ScriptsService],
})
export class ScriptsModule {}
