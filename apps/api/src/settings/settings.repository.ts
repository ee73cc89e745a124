import { DataSource } from 'typeorm';
import { AppSettingEntity } from '@app/entities';

/** The app_settings table: values decided once and reused on every later start. */
export class SettingsRepository {
  constructor(private readonly ds: DataSource) {}

  /** Returns the stored value, storing `make()` first when there is none. Safe when two instances race. */
  async getOrCreate(name: string, make: () => string | Promise<string>, secret: boolean): Promise<{ value: string; created: boolean }> {
    const existing = await this.get(name);
    if (existing !== null) return { value: existing, created: false };
    const value = await make();
    const inserted: unknown[] = await this.ds.query(
      'INSERT INTO app_settings (name, value, secret) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING RETURNING name',
      [name, value, secret],
    );
    if (inserted.length === 1) return { value, created: true };
    return { value: (await this.get(name))!, created: false };
  }

  async get(name: string): Promise<string | null> {
    const row = await this.ds.getRepository(AppSettingEntity).findOneBy({ name });
    return row?.value ?? null;
  }

  async set(name: string, value: string, secret: boolean): Promise<void> {
    await this.ds.query(
      'INSERT INTO app_settings (name, value, secret) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value',
      [name, value, secret],
    );
  }

  async listSecrets(): Promise<Array<{ name: string; value: string }>> {
    return this.ds.getRepository(AppSettingEntity).find({ where: { secret: true }, order: { name: 'ASC' } });
  }
}
