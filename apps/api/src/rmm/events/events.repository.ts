import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../database/transaction-host';
import { AGENT_DETAILS_SQL, AgentRow } from '../fleet/agents/agents.sql';

/** What the events WebSockets read besides the services' reads (one query each, for all of their subscribers). */
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

  /**
   * Of these console sessions, the ones that are over at `now`: gone (signed out, the operator disabled or given a
   * new password), past their absolute end, idle longer than `idleMs` (no request: an open WebSocket does not keep a
   * session alive), or of a disabled operator. As OperatorSessionsRepository.findLive decides for a request.
   */
  async endedSessions(sessionIds: string[], now: Date, idleMs: number): Promise<string[]> {
    if (sessionIds.length === 0) return [];
    const rows = await this.tx.rows<{ id: string }>(
      `SELECT k.id FROM unnest($1::uuid[]) AS k(id)
         LEFT JOIN operator_sessions s ON s.id = k.id
         LEFT JOIN operators o ON o.id = s.operator_id
        WHERE s.id IS NULL OR o.id IS NULL OR o.disabled OR s.expires_at <= $2
           OR s.last_seen_at <= $2::timestamptz - make_interval(secs => $3::double precision / 1000)`,
      [sessionIds, now, idleMs],
    );
    return rows.map((r) => r.id);
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

  /** The client of each of these agents that exists (null: an agent without a client). By primary key. */
  async clientsOf(agentIds: number[]): Promise<Map<number, number | null>> {
    const rows = await this.tx.rows<{ id: number; client_id: number | null }>(`SELECT id, client_id FROM agents WHERE id = ANY($1::int[])`, [agentIds]);
    return new Map(rows.map((r) => [Number(r.id), r.client_id === null ? null : Number(r.client_id)]));
  }

  /** These agents as GET /api/v3/agents/{id}/ shows them (rows; the ones that exist), in one query. */
  async agentRows(agentIds: number[]): Promise<Map<number, AgentRow>> {
    const rows = await this.tx.rows<AgentRow>(AGENT_DETAILS_SQL, [agentIds]);
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  /** How many agents a caller limited to these clients sees (null: every agent). */
  async countAgents(clients: readonly number[] | null): Promise<number> {
    const rows =
      clients === null
        ? await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM agents`)
        : await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM agents WHERE client_id = ANY($1::int[])`, [clients]);
    return rows[0].n;
  }
}
