import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from './common/clock';
import { StopAcceptingModule } from './common/http/stop-accepting';
import { RateLimitModule } from './common/rate-limit/rate-limiter';
import { RedisModule } from './common/redis/redis.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { dataSourceOptions } from './database/data-source';
import { ConsoleModule } from './console/console.module';
import { EnrollModule } from './enroll/enroll.module';
import { FdHeadroomModule } from './health/fd-headroom';
import { HealthModule } from './health/health.module';
import { PlatformModule } from './platform/platform.module';
import { UsersModule } from './platform/users/users.module';
import { AgentChannelModule } from './rmm/fleet/agent-channel/agent-channel.module';
import { RmmBusModule } from './rmm/common/bus/bus.module';
import { RmmBootstrapModule } from './rmm/bootstrap/rmm-bootstrap.service';
import { RmmModule } from './rmm/rmm.module';
import { TransactionModule } from './database/transaction-host';
import { JobsModule } from './jobs/jobs.module';
import { SettingsModule } from './settings/settings.repository';

/** Modules shared by the HTTP server and the operator CLI. */
export function coreImports(config: AppConfig, databaseUrl: string, clock?: Clock): NonNullable<DynamicModule['imports']> {
  return [
    // A request waits at most DB_POOL_ACQUIRE_TIMEOUT_MS for a connection, then answers 503 (never queues for minutes).
    TypeOrmModule.forRoot(dataSourceOptions(databaseUrl, { extra: { max: config.dbPoolSize, connectionTimeoutMillis: config.dbPoolAcquireTimeoutMs } })),
    TransactionModule,
    // (early: its shutdown hook then runs after the features' own, which stop their jobs first where order matters)
    JobsModule,
    SettingsModule,
    ConfigModule.forRoot(config, clock),
    FdHeadroomModule,
    RedisModule,
    RateLimitModule,
    RmmBusModule,
    AgentChannelModule,
    UsersModule,
    // The whole backend: its controllers' guards need the rate limiter even in the CLI's context (no routes there).
    RmmModule,
    RmmBootstrapModule,
  ];
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      // StopAcceptingModule: at shutdown the listening socket closes first (common/http/stop-accepting.ts).
      imports: [...coreImports(config, databaseUrl, clock), StopAcceptingModule, HealthModule, PlatformModule, EnrollModule, ConsoleModule],
    };
  }
}
