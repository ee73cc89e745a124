import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { ApiKeyEntity, ApiKeyScope } from '@app/entities';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';

/**
 * The keys a caller with these clients manages: every key when unlimited; else only keys limited within its
 * clients (`clients <@ $n`), never an unlimited key (null clients). Keyed by the parameter's number.
 */
const managedBy = (alias: string, param: string): string => `(${param}::int[] IS NULL OR (${alias}.clients IS NOT NULL AND ${alias}.clients <@ ${param}::int[]))`;

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

  /** One page of the keys the caller manages (by id), and how many it manages. */
  list(page: Page, managers: ClientScope): Promise<[ApiKeyEntity[], number]> {
    const q = this.repo.createQueryBuilder('k').orderBy('k.id', 'ASC').skip(page.offset).take(page.limit);
    if (managers !== null) q.where(managedBy('k', ':managers'), { managers: [...managers] });
    return q.getManyAndCount();
  }

  findById(id: number): Promise<ApiKeyEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** The key, if the caller with these clients manages it (see managedBy). */
  async findManaged(id: number, managers: ClientScope): Promise<ApiKeyEntity | null> {
    const key = await this.findById(id);
    return key && manages(managers, key) ? key : null;
  }

  findByHash(secretHash: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOneBy({ secretHash });
  }

  findByPrefix(prefix: string): Promise<ApiKeyEntity[]> {
    return this.repo.findBy({ prefix });
  }

  /**
   * Revokes the key if the caller with these clients manages it (one statement decides: a key another caller
   * does not manage is never touched), announces it to every server's key cache (LISTEN rmm_apikey_revoked,
   * api-key-revocations.ts) and returns it; null when there is no such key for this caller.
   */
  async revoke(id: number, at: Date, managers: ClientScope): Promise<ApiKeyEntity | null> {
    const scope = managers === null ? null : [...managers];
    const rows = await this.tx.rows<{ id: number }>(
      `UPDATE api_keys k SET revoked_at = COALESCE(k.revoked_at, $2) WHERE k.id = $1 AND ${managedBy('k', '$3')} RETURNING k.id`,
      [id, at, scope],
    );
    if (rows.length === 0) return null;
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

/** Whether a caller with these clients manages this key (as managedBy says in SQL). */
export function manages(managers: ClientScope, key: Pick<ApiKeyEntity, 'clients'>): boolean {
  return managers === null || (key.clients !== null && key.clients.every((c) => managers.includes(c)));
}
