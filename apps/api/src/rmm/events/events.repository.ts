import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../database/transaction-host';

/** What the events WebSocket re-reads while subscribers are connected (one query each, for all of them). */
@Injectable()
export class EventsRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** Of these keys, the ones that no longer work at `now` (revoked, expired, or gone). */
  async unusableKeys(keyIds: number[], now: Date): Promise<number[]> {
    if (keyIds.length === 0) return [];
    const rows = await this.tx.rows<{ id: number }>(
      `SELECT k.id FROM unnest($1::int[]) AS k(id)
         LEFT JOIN api_keys a ON a.id = k.id
        WHERE a.id IS NULL OR a.revoked_at IS NOT NULL OR (a.expires_at IS NOT NULL AND a.expires_at <= $2)`,
      [keyIds, now],
    );
    return rows.map((r) => Number(r.id));
  }

  /** Of these agents, the ones that no longer exist (deleted). */
  async missingAgents(agentIds: number[]): Promise<number[]> {
    if (agentIds.length === 0) return [];
    const rows = await this.tx.rows<{ id: number }>(
      `SELECT k.id FROM unnest($1::int[]) AS k(id) WHERE NOT EXISTS (SELECT 1 FROM agents a WHERE a.id = k.id)`,
      [agentIds],
    );
    return rows.map((r) => Number(r.id));
  }
}
