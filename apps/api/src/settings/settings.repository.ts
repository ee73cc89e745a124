import { Global, Injectable, Module } from '@nestjs/common';
import { AppSettingEntity } from '@app/entities';
import { SecretStore } from '../config/secret-store';
import { TransactionHost } from '../database/transaction-host';

/** The app_settings table: values decided once and reused on every later start. */
@Injectable()
export class SettingsRepository implements SecretStore {
  constructor(private readonly tx: TransactionHost) {}

  /** Returns the stored value, storing `make()` first when there is none. Safe when two instances race. */
  async getOrCreate(name: string, make: () => string | Promise<string>, secret: boolean): Promise<{ value: string; created: boolean }> {
    const existing = await this.get(name);
    if (existing !== null) return { value: existing, created: false };
    const value = await make();
    const inserted = await this.tx.rows<{ name: string }>(
      'INSERT INTO app_settings (name, value, secret) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING RETURNING name',
      [name, value, secret],
    );
    if (inserted.length === 1) return { value, created: true };
    return { value: (await this.get(name))!, created: false };
  }

  async get(name: string): Promise<string | null> {
    const row = await this.tx.repo(AppSettingEntity).findOneBy({ name });
    return row?.value ?? null;
  }

  async set(name: string, value: string, secret: boolean): Promise<void> {
    await this.tx.exec(
      'INSERT INTO app_settings (name, value, secret) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value',
      [name, value, secret],
    );
  }

  async listSecrets(): Promise<Array<{ name: string; value: string }>> {
    return this.tx.repo(AppSettingEntity).find({ where: { secret: true }, order: { name: 'ASC' } });
  }
}

/** Provides SettingsRepository to the bootstrap, and as SecretStore to the config. */
@Global()
@Module({ providers: [SettingsRepository, { provide: SecretStore, useExisting: SettingsRepository }], exports: [SettingsRepository, SecretStore] })
export class SettingsModule {}
