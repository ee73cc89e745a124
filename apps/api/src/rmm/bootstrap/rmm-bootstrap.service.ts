import { Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { RuntimeConfig } from '../../config/runtime-config';
import { TransactionHost } from '../../database/transaction-host';
import { SettingsRepository } from '../../settings/settings.repository';
import { ApiKeysModule } from '../access/api-keys/api-keys.module';
import { ApiKeysService } from '../access/api-keys/api-keys.service';
import { ClientsModule } from '../tenancy/clients/clients.module';
import { ClientsService } from '../tenancy/clients/clients.service';

/** Name of the key the enrollment function uses when it calls this server's own backend. */
export const FUNCTION_KEY_NAME = 'enroll-rmm function';
export const ADMIN_ENV_KEY_NAME = 'admin (RMM_ADMIN_API_KEY)';

/** pg_advisory_xact_lock key of the bootstrap ("rmmboot" in ASCII); migrations hold another. */
const BOOTSTRAP_LOCK = 0x726d6d626f6f74;

/**
 * What the backend needs in the database before it serves: the default client and site (unless both
 * RMM_DEFAULT_CLIENT_ID and RMM_DEFAULT_SITE_ID are given), the enrollment function's key, and the
 * operator's RMM_ADMIN_API_KEY. Runs at every start (server and CLI), in one transaction under an advisory
 * lock, so instances started together on an empty database serialise here, and every step is idempotent.
 */
@Injectable()
export class RmmBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly runtime: RuntimeConfig,
    private readonly tx: TransactionHost,
    private readonly settings: SettingsRepository,
    private readonly clients: ClientsService,
    private readonly keys: ApiKeysService,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return this.run();
  }

  run(): Promise<void> {
    return this.tx.run(async () => {
      await this.tx.exec('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
      await this.ensureDefaultTenant();
      // The function's key must open this server's deployment endpoint when it is the function's backend.
      if (this.runtime.rmmApiUrl === undefined) await this.keys.ensure(this.runtime.rmmApiKey, FUNCTION_KEY_NAME, ['deployments:write']);
      if (this.runtime.rmmAdminApiKey !== undefined) await this.keys.ensure(this.runtime.rmmAdminApiKey, ADMIN_ENV_KEY_NAME, ['admin']);
    });
  }

  /** The tenant of users whose profile names none: the environment's ids, else the stored or created "Default". */
  private async ensureDefaultTenant(): Promise<void> {
    const r = this.runtime;
    const givenClient = r.rmmDefaultClientId as number | undefined;
    const givenSite = r.rmmDefaultSiteId as number | undefined;
    if (givenClient !== undefined && givenSite !== undefined) return;
    const stored = await this.settings.get('RMM_DEFAULT_SITE_ID');
    let site = stored ? await this.clients.findSite(Number(stored)) : null;
    if (!site) {
      site = (await this.clients.ensureClientAndSite('Default', 'Default')).site;
      await this.settings.set('RMM_DEFAULT_CLIENT_ID', String(site.clientId), false);
      await this.settings.set('RMM_DEFAULT_SITE_ID', String(site.id), false);
    }
    r.rmmDefaultClientId = givenClient ?? site.clientId;
    r.rmmDefaultSiteId = givenSite ?? site.id;
  }
}

@Module({
  imports: [ApiKeysModule, ClientsModule],
  providers: [RmmBootstrap],
  exports: [RmmBootstrap],
})
export class RmmBootstrapModule {}
