import { Module } from '@nestjs/common';
import { RuntimeConfig } from '../config/runtime-config';
import { ConsoleController } from './console.controller';
import { CONSOLE_DIR, ConsoleFiles } from './console-files';

/** Serves the operator console at /app/ (docs/console.md). */
@Module({
  controllers: [ConsoleController],
  providers: [{ provide: ConsoleFiles, inject: [RuntimeConfig], useFactory: (config: RuntimeConfig) => new ConsoleFiles(config.consoleDir ?? CONSOLE_DIR) }],
})
export class ConsoleModule {}
