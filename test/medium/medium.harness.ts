import { Global, Module, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { Clock, FixedClock } from '../../apps/api/src/common/clock';
import { RateLimitModule } from '../../apps/api/src/common/rate-limit/rate-limiter';
import { RedisModule } from '../../apps/api/src/common/redis/redis.module';
import { RedisSettings } from '../../apps/api/src/common/redis/redis-settings';
import { loadConfig } from '../../apps/api/src/config/app-config';
import { RuntimeConfig } from '../../apps/api/src/config/runtime-config';
import { dataSourceOptions } from '../../apps/api/src/database/data-source';
import { TransactionModule } from '../../apps/api/src/database/transaction-host';
import { FdHeadroomModule } from '../../apps/api/src/health/fd-headroom';
import { JobsModule } from '../../apps/api/src/jobs/jobs.module';
import { AgentChannelModule } from '../../apps/api/src/rmm/fleet/agent-channel/agent-channel.module';
import { RmmBusModule } from '../../apps/api/src/rmm/common/bus/bus.module';
import { ApiKeysModule } from '../../apps/api/src/rmm/access/api-keys/api-keys.module';
import { RmmModule } from '../../apps/api/src/rmm/rmm.module';
import { createTestDatabase, TestDatabase } from '../utils/test-db';

/**
 * The medium tier: the app's real services and repositories, wired by Nest's DI from the real modules, on
 * this test file's own PostgreSQL database (cloned from the migrated template). No HTTP server, no guards run.
 *
 * The imports follow the app's coreImports (apps/api/src/app.module.ts) and RmmModule, except for what the
 * boot does with the database, replaced here:
 * - the Clock is a FixedClock the test moves (ConfigModule's);
 * - RuntimeConfig is made from loadConfig's defaults and fixed secrets, not resolved from app_settings;
 * - no bootstrap seeding (default tenant, keys from the environment): a test database holds only what
 *   its tests make (see medium.factory.ts).
 */
export interface MediumContext {
  db: TestDatabase;
  module: TestingModule;
  clock: FixedClock;
  config: RuntimeConfig;
  /** A provider of the app (a service, a repository), as DI built it. */
  get<T>(token: Type<T>): T;
  /** The TypeORM repository of an entity, on this file's database (for factories and for reading rows). */
  repo<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E>;
  close(): Promise<void>;
}

export const MEDIUM_START = new Date('2026-01-01T00:00:00.000Z');

/** Clock, RuntimeConfig and what Redis reads of it, global as the app's ConfigModule makes them. */
@Global()
@Module({})
class MediumGlobalsModule {
  static with(clock: Clock, config: RuntimeConfig) {
    return {
      module: MediumGlobalsModule,
      providers: [
        { provide: Clock, useValue: clock },
        { provide: RuntimeConfig, useValue: config },
        { provide: RedisSettings, useValue: config },
      ],
      exports: [Clock, RuntimeConfig, RedisSettings],
    };
  }
}

export async function createMediumContext(options: { clock?: FixedClock; config?: Partial<RuntimeConfig> } = {}): Promise<MediumContext> {
  const db = await createTestDatabase();
  const clock = options.clock ?? new FixedClock(MEDIUM_START);
  const config = Object.assign(new RuntimeConfig(), loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' }), {
    jwtSecret: 'medium-tier-jwt-secret-0123456789-0123456789',
    dataAnonKey: 'medium-anon-key',
    dataServiceRoleKey: 'medium-service-role-key',
    rmmApiKey: 'medium-rmm-api-key',
    agentSigningKey: Buffer.alloc(32, 7).toString('base64'),
    rmmDefaultClientId: 0,
    rmmDefaultSiteId: 0,
    generated: [],
    ...options.config,
  } satisfies Partial<RuntimeConfig>);
  let module: TestingModule;
  try {
    module = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot({ ...dataSourceOptions(db.url), extra: { max: 4 } }),
        TransactionModule,
        JobsModule,
        MediumGlobalsModule.with(clock, config),
        RedisModule,
        RateLimitModule,
        FdHeadroomModule,
        RmmBusModule,
        AgentChannelModule,
        ApiKeysModule,
        RmmModule,
      ],
    }).compile();
    await module.init();
  } catch (err) {
    await db.drop();
    throw err;
  }
  const dataSource = module.get<DataSource>(getDataSourceToken());
  return {
    db,
    module,
    clock,
    config,
    get: <T>(token: Type<T>): T => module.get(token, { strict: false }),
    repo: <E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> => dataSource.getRepository(entity),
    close: async () => {
      try {
        await module.close();
      } finally {
        await db.drop();
      }
    },
  };
}
