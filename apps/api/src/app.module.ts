import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from './common/clock';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { dataSourceOptions } from './database/data-source';
import { EnrollModule } from './enroll/enroll.module';
import { HealthModule } from './health/health.module';
import { PlatformModule } from './platform/platform.module';
import { UsersModule } from './platform/users/users.module';
import { ApiKeysModule } from './rmm/api-keys/api-keys.module';
import { ClientsModule } from './rmm/clients/clients.module';
import { RmmModule } from './rmm/rmm.module';

/** Modules shared by the HTTP server and the operator CLI. */
export function coreImports(config: AppConfig, databaseUrl: string, clock?: Clock): NonNullable<DynamicModule['imports']> {
  return [
    TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl), extra: { max: 20 } }),
    ConfigModule.forRoot(config, clock),
    ApiKeysModule,
    ClientsModule,
    UsersModule,
  ];
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [...coreImports(config, databaseUrl, clock), HealthModule, PlatformModule, EnrollModule, RmmModule],
    };
  }
}
