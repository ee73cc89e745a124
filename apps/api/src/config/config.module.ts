import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from '../common/clock';
import { RedisSettings } from '../common/redis/redis-settings';
import { AppConfig } from './app-config';
import { resolveRuntimeConfig, RuntimeConfig } from './runtime-config';
import { SecretStore } from './secret-store';

/**
 * Provides RuntimeConfig (the environment read once at boot, completed with the stored generated secrets)
 * and the Clock everywhere. Depends on no feature: seeding is the backend bootstrap's (rmm/bootstrap), and the
 * stored secrets come through SecretStore, which the settings module provides.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, clock: Clock = new Clock()): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: Clock, useValue: clock },
        {
          provide: RuntimeConfig,
          inject: [SecretStore],
          useFactory: (settings: SecretStore) => resolveRuntimeConfig(config, settings),
        },
        { provide: RedisSettings, useExisting: RuntimeConfig },
      ],
      exports: [RuntimeConfig, Clock, RedisSettings],
    };
  }
}
