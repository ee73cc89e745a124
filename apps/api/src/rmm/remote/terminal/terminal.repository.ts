import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { TerminalEndReason, TerminalSessionEntity } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { ClientScope, ofAgentsInScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';

/** Advisory-lock keys (pg_advisory_xact_lock(KEY, n)) that make "count, then insert" one step per agent and per caller. */
const AGENT_LOCK = 0x54524d41; // 'TRMA'
const CALLER_LOCK = 0x54524d43; // 'TRMC'

/** A session that still counts toward the limits: not closed, and accepted or with a ticket still valid. */
const COUNTS = `closed_at IS NULL AND end_reason IS NULL AND (opened_at IS NOT NULL OR ticket_expires_at > $2)`;

export interface NewTerminalSession {
  id: string;
  agentId: number;
  openedBy: string;
  caller: string;
  cols: number;
  rows: number;
  shell: string | null;
  createdAt: Date;
  ticketExpiresAt: Date;
}

/** How a session ended, as its row keeps it. */
export interface TerminalEnd {
  closedAt: Date;
  bytesIn: number;
  bytesOut: number;
  endReason: TerminalEndReason;
  exitCode: number | null;
}

/** Why an accept found no ticket to take: none of the caller's, expired, or used (accepted, or ended). */
export type TicketState = 'unknown' | 'expired' | 'used';

@Injectable()
export class TerminalRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get sessions(): Repository<TerminalSessionEntity> {
    return this.tx.repo(TerminalSessionEntity);
  }

  /**
   * Inserts the session unless its agent has `perAgent` sessions counting, or its caller `perCaller` (then: which).
   * The agent's and then the caller's advisory locks make two opens at once count one after the other (always in
   * that order, so two opens never wait on each other in a circle).
   */
  insertWithinLimits(s: NewTerminalSession, limits: { perAgent: number; perCaller: number }): Promise<TerminalSessionEntity | 'agent' | 'caller'> {
    return this.tx.run(async () => {
      await this.tx.rows(`SELECT pg_advisory_xact_lock($1, $2)`, [AGENT_LOCK, s.agentId]);
      await this.tx.rows(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [CALLER_LOCK, s.caller]);
      const [agent] = await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM terminal_sessions WHERE agent_id = $1 AND ${COUNTS}`, [s.agentId, s.createdAt]);
      if (agent.n >= limits.perAgent) return 'agent';
      const [caller] = await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM terminal_sessions WHERE caller = $1 AND ${COUNTS}`, [s.caller, s.createdAt]);
      if (caller.n >= limits.perCaller) return 'caller';
      return this.sessions.save(this.sessions.create({ ...s, openedAt: null, closedAt: null, bytesIn: 0, bytesOut: 0, endReason: null, exitCode: null, recording: null }));
    });
  }

  /**
   * Takes the ticket: the session is the caller's, not yet accepted, not ended and not expired; opened_at is set
   * by the same statement, so of two upgrades at once only one gets the row. Else why not.
   */
  async accept(id: string, caller: string, now: Date): Promise<TerminalSessionEntity | TicketState> {
    const [taken] = await this.tx.rows<{ id: string }>(
      `UPDATE terminal_sessions SET opened_at = $3
        WHERE id = $1 AND caller = $2 AND opened_at IS NULL AND closed_at IS NULL AND end_reason IS NULL AND ticket_expires_at > $3
        RETURNING id`,
      [id, caller, now],
    );
    if (taken) return (await this.sessions.findOneBy({ id }))!;
    const row = await this.sessions.findOneBy({ id });
    if (!row || row.caller !== caller) return 'unknown';
    if (row.openedAt === null && row.endReason === null && row.ticketExpiresAt.getTime() <= now.getTime()) return 'expired';
    if (row.endReason === 'expired') return 'expired';
    return 'used';
  }

  /** Records the end (the reason already set by an admin's DELETE is kept); the row as it is now. */
  async finish(id: string, end: TerminalEnd): Promise<TerminalSessionEntity | null> {
    await this.tx.exec(
      `UPDATE terminal_sessions SET closed_at = $2, bytes_in = $3, bytes_out = $4, end_reason = COALESCE(end_reason, $5), exit_code = $6
        WHERE id = $1 AND closed_at IS NULL`,
      [id, end.closedAt, end.bytesIn, end.bytesOut, end.endReason, end.exitCode],
    );
    return this.sessions.findOneBy({ id });
  }

  /** Tickets never used, past their expiry: ended `expired`; their ids. */
  async expireTickets(now: Date): Promise<string[]> {
    const rows = await this.tx.rows<{ id: string }>(
      `UPDATE terminal_sessions SET end_reason = 'expired', closed_at = $1
        WHERE opened_at IS NULL AND closed_at IS NULL AND end_reason IS NULL AND ticket_expires_at <= $1
        RETURNING id`,
      [now],
    );
    return rows.map((r) => r.id);
  }

  /** Those of `ids` an admin has ended (DELETE), which their instance closes. */
  async endedByAdmin(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.tx.rows<{ id: string }>(`SELECT id FROM terminal_sessions WHERE id = ANY($1::uuid[]) AND end_reason = 'ended_by_admin'`, [ids]);
    return rows.map((r) => r.id);
  }

  /**
   * An admin ends a session: end_reason ended_by_admin; one never accepted is closed at once (its ticket is void),
   * an accepted one by the instance holding its WebSocket. Null: no such session; 'ended': it has ended already.
   */
  async endByAdmin(id: string, now: Date): Promise<TerminalSessionEntity | 'ended' | null> {
    const [changed] = await this.tx.rows<{ id: string }>(
      `UPDATE terminal_sessions SET end_reason = 'ended_by_admin', closed_at = CASE WHEN opened_at IS NULL THEN $2::timestamptz ELSE NULL END
        WHERE id = $1 AND closed_at IS NULL AND end_reason IS NULL
        RETURNING id`,
      [id, now],
    );
    const row = await this.sessions.findOneBy({ id });
    if (!row) return null;
    return changed ? row : 'ended';
  }

  /** Sessions newest first, of agents in `clients` (and of one agent). */
  list(filter: { agentId?: number }, clients: ClientScope, page: Page): Promise<[TerminalSessionEntity[], number]> {
    let q = this.sessions.createQueryBuilder('s');
    q = ofAgentsInScope(q, clients);
    if (filter.agentId !== undefined) q = q.andWhere('s.agentId = :agentId', { agentId: filter.agentId });
    q = q.orderBy('s.createdAt', 'DESC').addOrderBy('s.id', 'ASC').skip(page.offset);
    if (page.limit !== undefined) q = q.take(page.limit);
    return q.getManyAndCount();
  }

  /** Appends one chunk of a session's recording. */
  async appendChunk(sessionId: string, seq: number, lines: string): Promise<void> {
    await this.tx.exec(`INSERT INTO terminal_recording_chunks (session_id, seq, lines) VALUES ($1, $2, $3)`, [sessionId, seq, lines]);
  }

  /** Up to `limit` chunks of a session's recording from `fromSeq` on, in order. */
  async chunks(sessionId: string, fromSeq: number, limit: number): Promise<Array<{ seq: number; lines: string }>> {
    return this.tx.rows(`SELECT seq, lines FROM terminal_recording_chunks WHERE session_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3`, [sessionId, fromSeq, limit]);
  }

  async hasRecording(sessionId: string): Promise<boolean> {
    const [row] = await this.tx.rows<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM terminal_recording_chunks WHERE session_id = $1) AS found`, [sessionId]);
    return row.found;
  }

  /** Deletes the recordings of sessions closed before `cutoff`; how many chunks went. */
  async deleteRecordingsBefore(cutoff: Date): Promise<number> {
    const { rowCount } = await this.tx.exec(
      `DELETE FROM terminal_recording_chunks c USING terminal_sessions s WHERE c.session_id = s.id AND s.closed_at < $1`,
      [cutoff],
    );
    return rowCount;
  }

  get(id: string): Promise<TerminalSessionEntity | null> {
    return this.sessions.findOneBy({ id });
  }
}
