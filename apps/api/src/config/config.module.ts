import { DynamicModule, Global, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKeysModule } from '../rmm/api-keys/api-keys.module';
import { ApiKeysService } from '../rmm/api-keys/api-keys.service';
import { ClientsModule } from '../rmm/clients/clients.module';
import { ClientsService } from '../rmm/clients/clients.service';
import { Clock } from '../common/clock';
import { AppConfig } from './app-config';
import { resolveRuntimeConfig, RuntimeConfig } from './runtime-config';

/** Provides RuntimeConfig (read once at boot, completed from the database) and the Clock everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, clock: Clock = new Clock()): DynamicModule {
    return {
      module: ConfigModule,
      imports: [ApiKeysModule, ClientsModule],
      providers: [
        { provide: Clock, useValue: clock },
        {
          provide: RuntimeConfig,
          inject: [getDataSourceToken(), ApiKeysService, ClientsService],
          useFactory: (ds: DataSource, keys: ApiKeysService, clients: ClientsService) =>
            resolveRuntimeConfig(config, ds, keys, clients),
        },
      ],
      exports: [RuntimeConfig, Clock],
    };
  }
}
