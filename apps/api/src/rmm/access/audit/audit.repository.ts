import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ApiKeyEntity, AuditActorKind, AuditLogEntity } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { Page } from '../../common/pagination.dto';
import { AuditEntry } from './audit-entry';

export interface AuditFilter {
  actorKind?: AuditActorKind;
  /** An API key id: that key's calls. */
  keyId?: number;
  method?: string;
  /** The target starts with this (a path prefix, or the start of CLI arguments). */
  pathPrefix?: string;
  status?: number;
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  until?: Date;
}

@Injectable()
export class AuditRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get rows(): Repository<AuditLogEntity> {
    return this.tx.repo(AuditLogEntity);
  }

  /** One multi-row INSERT for a batch. */
  async insertMany(entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // (`changes` is JSON: TypeORM's deep-partial type cannot follow `unknown` inside it.)
    await this.rows.insert(entries.map((e) => ({ ...e })) as QueryDeepPartialEntity<AuditLogEntity>[]);
  }

  /** Newest first (IDX_audit_log_at; a key's calls: IDX_audit_log_actor); id breaks ties, so pages are stable. */
  list(f: AuditFilter, page: Page): Promise<[AuditLogEntity[], number]> {
    const q = this.rows.createQueryBuilder('a');
    if (f.actorKind !== undefined) q.andWhere('a.actorKind = :kind', { kind: f.actorKind });
    if (f.keyId !== undefined) q.andWhere(`a.actorKind = 'api_key' AND a.actorId = :keyId`, { keyId: String(f.keyId) });
    if (f.method !== undefined) q.andWhere('a.method = :method', { method: f.method });
    // starts_with: no LIKE pattern to escape, and no backtracking on long input.
    if (f.pathPrefix !== undefined) q.andWhere('starts_with(a.target, :prefix)', { prefix: f.pathPrefix });
    if (f.status !== undefined) q.andWhere('a.status = :status', { status: f.status });
    if (f.since !== undefined) q.andWhere('a.at >= :since', { since: f.since });
    if (f.until !== undefined) q.andWhere('a.at < :until', { until: f.until });
    q.orderBy('a.at', 'DESC').addOrderBy('a.id', 'DESC').skip(page.offset);
    if (page.limit !== undefined) q.take(page.limit);
    return q.getManyAndCount();
  }

  /** The keys (revoked and expired ones too) whose secrets have these SHA-256 hashes. */
  async keysByHash(hashes: readonly string[]): Promise<Map<string, { id: number; name: string }>> {
    if (hashes.length === 0) return new Map();
    const keys = await this.tx
      .repo(ApiKeyEntity)
      .createQueryBuilder('k')
      .select(['k.id', 'k.name', 'k.secretHash'])
      .where('k.secretHash IN (:...hashes)', { hashes: [...hashes] })
      .getMany();
    return new Map(keys.map((k) => [k.secretHash, { id: k.id, name: k.name }]));
  }
}
