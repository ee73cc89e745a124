import { Injectable } from '@nestjs/common';
import { IsNull, Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { ApiKeyEntity, ApiKeyScope } from '@app/entities';
import { Page } from '../../common/pagination.dto';

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get repo(): Repository<ApiKeyEntity> {
    return this.tx.repo(ApiKeyEntity);
  }


  insert(key: Pick<ApiKeyEntity, 'name' | 'prefix' | 'secretHash' | 'scopes' | 'clients' | 'expiresAt'>): Promise<ApiKeyEntity> {
    return this.repo.save(this.repo.create(key));
  }

  /** Which of these client ids exist. */
  async existingClients(ids: readonly number[]): Promise<Set<number>> {
    const rows = await this.tx.rows<{ id: number }>(`SELECT id FROM clients WHERE id = ANY($1::int[])`, [ids]);
    return new Set(rows.map((r) => r.id));
  }

  list(page: Page): Promise<[ApiKeyEntity[], number]> {
    return this.repo.findAndCount({ order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  findById(id: number): Promise<ApiKeyEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByHash(secretHash: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOneBy({ secretHash });
  }

  findByPrefix(prefix: string): Promise<ApiKeyEntity[]> {
    return this.repo.findBy({ prefix });
  }

  /** Revokes the key and announces it to every server's key cache (LISTEN rmm_apikey_revoked, api-key-revocations.ts). */
  async revoke(id: number, at: Date): Promise<ApiKeyEntity | null> {
    await this.repo.update({ id, revokedAt: IsNull() }, { revokedAt: at });
    await this.tx.exec(`SELECT pg_notify('rmm_apikey_revoked', $1::text)`, [String(id)]);
    return this.findById(id);
  }

  /** Makes the key with this hash usable with these scopes (the operator-given keys). */
  async restore(id: number, name: string, scopes: ApiKeyScope[]): Promise<void> {
    await this.repo.update({ id }, { name, scopes, revokedAt: null, expiresAt: null });
  }

  /** Records the latest use of many keys in one statement (see ApiKeysService.touch). */
  async recordLastUsed(uses: Map<number, Date>): Promise<void> {
    if (uses.size === 0) return;
    const ids = [...uses.keys()];
    const times = ids.map((id) => uses.get(id)!.toISOString());
    await this.tx.exec(
      `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, u.at), u.at)
         FROM unnest($1::int[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
      [ids, times],
    );
  }
}
