import { Module } from '@nestjs/common';
import { ScriptsController } from './scripts.controller';
import { ScriptsRepository } from './scripts.repository';
import { ScriptsService } from './scripts.service';

@Module({
  controllers: [ScriptsController],
  providers: [ScriptsRepository, ScriptsService],
  exports: [ScriptsService],
})
export class ScriptsModule {}
