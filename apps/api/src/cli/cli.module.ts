import { DynamicModule, Module } from '@nestjs/common';
import { coreImports } from '../app.module';
import { AppConfig } from '../config/app-config';

/** The operator CLI uses the server's own services on the same database, without HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return { module: CliModule, imports: coreImports(config, databaseUrl) };
  }
}
